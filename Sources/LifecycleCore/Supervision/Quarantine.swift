/// When a module that keeps failing is quarantined: taken out of delivery until a reload or
/// ``ApplicationHost/releaseQuarantine(_:file:line:)`` brings it back.
///
/// A failure is a hook that threw or ran past its budget, in any event but termination. A module is
/// quarantined when ``failures`` of them fall within ``window`` on the host's clock (a `VirtualClock` in
/// tests). The host's policy is ``ApplicationHost/Configuration/quarantine`` (``standard`` by default); a
/// module sets its own with ``QuarantinePolicyModule``.
///
/// ```swift
/// var configuration = ApplicationHost.Configuration()
/// configuration.quarantine = QuarantinePolicy(failures: 3, within: .seconds(30))
/// ```
public struct QuarantinePolicy: Sendable, Hashable, CustomStringConvertible {
    /// How many failures within ``window`` quarantine a module; at least 1.
    public let failures: Int
    /// How far back failures count.
    public let window: Duration

    /// Quarantine a module once `failures` of its hooks failed within `window`.
    public init(failures: Int, within window: Duration) {
        self.failures = max(1, failures)
        self.window = window
    }

    /// Five failures within a minute: a module that fails that often fails on every event, and a single
    /// bad request or a flaky dependency does not get there.
    public static let standard = QuarantinePolicy(failures: 5, within: .seconds(60))

    public var description: String { "\(failures) failures within \(window)" }
}

/// A module with its own ``QuarantinePolicy``, overriding the host's for it alone.
///
/// ```swift
/// struct PaymentsModule: LifecycleModule, QuarantinePolicyModule {
///     static let priority: ModulePriority = .high
///     static let quarantinePolicy: QuarantinePolicy? = nil  // never quarantined: the service needs it
///     init(context: LifecycleContext) {}
/// }
/// ```
@_alwaysEmitConformanceMetadata
public protocol QuarantinePolicyModule: LifecycleModule {
    /// When this module is quarantined; `nil` for never.
    static var quarantinePolicy: QuarantinePolicy? { get }
}

/// A quarantined module: who, and what got it there.
public struct QuarantineRecord: Sendable, Hashable, CustomStringConvertible {
    /// The module's module-qualified type name.
    public let module: String
    /// The policy it crossed.
    public let policy: QuarantinePolicy
    /// The last failure, described: the event and what the hook threw or how long it ran.
    public let lastFailure: String

    /// What quarantined the module when it was not its hooks' failures (its work, past its policy).
    private let cause: String?

    package init(module: String, policy: QuarantinePolicy, lastFailure: String, cause: String? = nil) {
        self.module = module
        self.policy = policy
        self.lastFailure = lastFailure
        self.cause = cause
    }

    /// Why the module is quarantined, as the disabled-module list and the journal say it.
    public var reason: String {
        cause ?? "\(policy.failures) failures within \(policy.window); the last: \(lastFailure)"
    }

    public var description: String { "\(module) quarantined: \(reason)" }
}

/// Each module's recent failures, and the modules quarantined: what the host consults after each failure,
/// and what readiness and health checks read from anywhere.
package final class QuarantineLedger: Sendable {
    private struct State {
        /// When each participant's recent failures happened, on the host's clock, by participant id.
        var failures: [Int: [Duration]] = [:]
        /// Crossed their threshold; the host takes them out after the request in progress.
        var due: [(participant: Participant, record: QuarantineRecord)] = []
        /// Taken out, in the order it happened.
        var quarantined: [QuarantineRecord] = []
    }

    private let state = Locked(State())

    package init() {}

    /// Counts a failure of `participant` at `now` under `policy`; `true` when that makes it due.
    package func count(
        _ failure: HookFailure,
        policy: QuarantinePolicy,
        now: Duration
    ) -> Bool {
        let participant = failure.participant
        return state.withLock { state in
            let name = participant.name
            guard !state.quarantined.contains(where: { $0.module == name }),
                !state.due.contains(where: { $0.participant.id == participant.id })
            else { return false }
            var recent = state.failures[participant.id, default: []].filter { now - $0 < policy.window }
            recent.append(now)
            guard recent.count >= policy.failures else {
                state.failures[participant.id] = recent
                return false
            }
            state.failures[participant.id] = nil
            let record = QuarantineRecord(module: name, policy: policy, lastFailure: "\(failure)")
            state.due.append((participant, record))
            return true
        }
    }

    /// Makes `participant`'s module due for quarantine now, for `reason` (its work failed past its policy);
    /// `false` if it is quarantined or due already.
    package func quarantine(_ participant: Participant, reason: String, policy: QuarantinePolicy) -> Bool {
        state.withLock { state in
            let name = participant.name
            guard !state.quarantined.contains(where: { $0.module == name }),
                !state.due.contains(where: { $0.participant.id == participant.id })
            else { return false }
            let record = QuarantineRecord(module: name, policy: policy, lastFailure: reason, cause: reason)
            state.due.append((participant, record))
            return true
        }
    }

    /// Takes the due modules that are still participants (`isParticipant`), marking them quarantined. A module
    /// that left the host since its failure crossed the threshold (removed by the very request whose teardown
    /// failed) is not quarantined: there is nothing to take out, and registering it again starts afresh.
    package func takeDue(
        where isParticipant: (Participant) -> Bool
    ) -> [(participant: Participant, record: QuarantineRecord)] {
        state.withLock { state in
            let due = state.due.filter { isParticipant($0.participant) }
            state.due = []
            state.quarantined += due.map(\.record)
            return due
        }
    }

    /// Forgets the failures of `participant`, which has left the host: failures count per instance, and a
    /// module that comes back is a new one. Without this, every instance that failed a little and left would
    /// stay in the ledger for the host's lifetime (a register/remove cycle with one failure each grew it).
    package func forget(_ participant: Participant) {
        _ = state.withLock { $0.failures.removeValue(forKey: participant.id) }
    }

    /// How many participants have failures counted now: those still on the host, at most.
    package var participantsWithFailures: Int { state.withLock { $0.failures.count } }

    /// The quarantined modules, by module-qualified name, with why.
    package var reasons: [String: String] {
        state.withLock { state in
            Dictionary(state.quarantined.map { ($0.module, $0.reason) }) { first, _ in first }
        }
    }

    /// The quarantined modules, in the order they were quarantined.
    package var records: [QuarantineRecord] { state.withLock { $0.quarantined } }

    /// Releases `module` (module-qualified name); `false` if it was not quarantined.
    package func release(_ module: String) -> Bool {
        state.withLock { state in
            guard let index = state.quarantined.firstIndex(where: { $0.module == module }) else { return false }
            state.quarantined.remove(at: index)
            return true
        }
    }

    /// Releases every module; returns what was quarantined.
    package func releaseAll() -> [QuarantineRecord] {
        state.withLock { state in
            defer { state.quarantined = [] }
            return state.quarantined
        }
    }
}
