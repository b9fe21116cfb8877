/// What an ``ApplicationHost`` can tell a health check, at one moment: its state, whether it should
/// receive traffic, and which modules hold it back. ``ApplicationHost/health()`` takes one.
///
/// ``isReady`` is derived from the rest, so a probe that learns more (a supervisor that starts draining)
/// changes a field and the answer follows:
///
/// | the host | ``isReady`` |
/// |---|---|
/// | `notRunning`, `launching` | `false` |
/// | `active`, `inactive`, with every module ready and not draining | `true` |
/// | `active`, `inactive`, with a module in ``notReady`` (warm-up still running, a module registered late catching up) | `false` |
/// | `background` | `false` |
/// | ``isDraining``: the supervisor is about to terminate it | `false` |
/// | `terminating`, `terminated` | `false` |
///
/// A degraded module (a hook ran past its budget) does not make the host unready: it still receives every
/// event. ``degraded`` names it so that a person, or a stricter probe, can act on it. Nor does a quarantined
/// module (``quarantined``): it is out of delivery until a reload or a release, and the host serves without
/// it; every replica of a service would be taken out of rotation at once if one bug quarantined the same
/// module in each.
///
/// It is `Codable`, as the JSON object a readiness endpoint answers:
/// `{"state":"active","ready":true,"draining":false,"notReady":[],"degraded":[],"quarantined":[]}`; module names are
/// module-qualified type names. Decoding ignores `ready`, which follows from the rest.
public struct HostHealth: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The host's state when the snapshot was taken.
    public var state: ApplicationState
    /// Whether the supervisor has begun to take the host out of service: traffic should stop arriving
    /// before the host's state changes. The host never sets it; a hosting layer does (`HostReadiness` in
    /// `LifecycleHosting`).
    public var isDraining: Bool
    /// The modules that have not finished launching: their last launch stage (warm-up, or initialize) has
    /// not ended, or they joined after launch and are still catching up. In delivery order; the program's
    /// delegate is never listed.
    public var notReady: [String]
    /// The modules whose hooks ran past their budget (``ApplicationHost/degradedModules``), in the order it
    /// happened.
    public var degraded: [String]
    /// The quarantined modules (``ApplicationHost/quarantinedModules``), in the order it happened.
    public var quarantined: [String]

    /// A snapshot with these values; ``ApplicationHost/health()`` makes the real ones.
    public init(
        state: ApplicationState,
        isDraining: Bool = false,
        notReady: [String] = [],
        degraded: [String] = [],
        quarantined: [String] = []
    ) {
        self.state = state
        self.isDraining = isDraining
        self.notReady = notReady
        self.degraded = degraded
        self.quarantined = quarantined
    }

    /// Whether the host should receive traffic: active or inactive, every module ready, not draining.
    public var isReady: Bool {
        switch state {
        case .active, .inactive: return !isDraining && notReady.isEmpty
        case .notRunning, .launching, .background, .terminating, .terminated: return false
        }
    }

    /// Why the host is not ready, for a person: `nil` when it is.
    public var reason: String? {
        if isReady { return nil }
        switch state {
        case .notRunning: return "not launched yet"
        case .launching: return "launching"
        case .background: return "in the background"
        case .terminating, .terminated: return "\(state)"
        case .active, .inactive:
            if isDraining { return "draining before termination" }
            return "waiting for \(notReady.joined(separator: ", "))"
        }
    }

    public var description: String {
        var text = "\(state), " + (reason.map { "not ready: \($0)" } ?? "ready")
        if !degraded.isEmpty { text += "; degraded: \(degraded.joined(separator: ", "))" }
        if !quarantined.isEmpty { text += "; quarantined: \(quarantined.joined(separator: ", "))" }
        return text
    }

    private enum CodingKeys: String, CodingKey {
        case state, ready, draining, notReady, degraded, quarantined
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .state)
        guard let state = ApplicationState(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .state,
                in: container,
                debugDescription: "\"\(name)\" is not a state; one of \(ApplicationState.allCases)"
            )
        }
        self.state = state
        isDraining = try container.decodeIfPresent(Bool.self, forKey: .draining) ?? false
        notReady = try container.decodeIfPresent([String].self, forKey: .notReady) ?? []
        degraded = try container.decodeIfPresent([String].self, forKey: .degraded) ?? []
        quarantined = try container.decodeIfPresent([String].self, forKey: .quarantined) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state.rawValue, forKey: .state)
        try container.encode(isReady, forKey: .ready)
        try container.encode(isDraining, forKey: .draining)
        try container.encode(notReady, forKey: .notReady)
        try container.encode(degraded, forKey: .degraded)
        try container.encode(quarantined, forKey: .quarantined)
    }
}
