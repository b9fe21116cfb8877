/// One receiver of lifecycle events: the program's delegate or a module.
public struct Participant: Sendable, Hashable, CustomStringConvertible {
    /// The participant's module-qualified type name.
    ///
    /// Built on first use and kept: `String(reflecting:)` costs microseconds for a nested generic type, and
    /// a host of thousands of modules needs names only for messages, plans and the journal.
    public var name: String { label.name }
    /// The module's priority, or `nil` for the program's delegate.
    public let priority: ModulePriority?
    /// The participant's identity within its host: given when the participant joins (the delegate is 0,
    /// then manifest modules in delivery order, then modules registered later) and never reused. It is
    /// not a position: a module registered late can be delivered before older ones.
    package let id: Int
    private let label: ParticipantLabel

    /// A participant named `name`.
    package init(name: String, priority: ModulePriority?, id: Int) {
        self.label = ParticipantLabel(name: name)
        self.priority = priority
        self.id = id
    }

    /// A participant named after `type`, when its name is first needed.
    package init(type: Any.Type, priority: ModulePriority?, id: Int) {
        self.label = ParticipantLabel(type: type)
        self.priority = priority
        self.id = id
    }

    /// Whether this is the program's own delegate rather than a module.
    public var isDelegate: Bool { priority == nil }

    public var description: String {
        if let priority { return "\(name) [\(priority.rawValue)]" }
        return "\(name) [delegate]"
    }

    public static func == (lhs: Participant, rhs: Participant) -> Bool {
        lhs.id == rhs.id && lhs.priority == rhs.priority && (lhs.label === rhs.label || lhs.name == rhs.name)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(priority)
    }
}

/// A participant's name, from a string or, on first use, from its type.
private final class ParticipantLabel: Sendable {
    private let type: Any.Type?
    private let cached: Locked<String?>

    init(name: String) {
        type = nil
        cached = Locked(name)
    }

    init(type: Any.Type) {
        self.type = type
        cached = Locked(nil)
    }

    var name: String {
        if let name = cached.withLock({ $0 }) { return name }
        let name = type.map { String(reflecting: $0) } ?? ""
        cached.withLock { $0 = name }
        return name
    }
}

/// A hook that threw: which participant, during which event, and what it threw.
public struct HookFailure: Sendable, CustomStringConvertible {
    /// The participant whose hook threw.
    public let participant: Participant
    /// The event being delivered.
    public let event: LifecycleEvent
    /// What the hook threw.
    public let error: any Error

    package init(participant: Participant, event: LifecycleEvent, error: any Error) {
        self.participant = participant
        self.event = event
        self.error = error
    }

    public var description: String {
        "`\(participant.name)` threw in \(event.name): \(error)"
    }
}

/// A record of one hook call, reported to ``ApplicationHost/Configuration/onDelivery`` as it happens.
public struct DeliveryRecord: Sendable, CustomStringConvertible {
    /// The event delivered.
    public let event: LifecycleEvent
    /// Who received it.
    public let participant: Participant
    /// When the hook was called.
    public let start: ContinuousClock.Instant
    /// How long the hook took, measured with `ContinuousClock`.
    public let duration: Duration
    /// The value the hook returned, for events with a Bool result.
    public let result: Bool?
    /// What the hook threw, if it threw.
    public let error: (any Error)?

    package init(
        event: LifecycleEvent,
        participant: Participant,
        start: ContinuousClock.Instant,
        duration: Duration,
        result: Bool?,
        error: (any Error)?
    ) {
        self.event = event
        self.participant = participant
        self.start = start
        self.duration = duration
        self.result = result
        self.error = error
    }

    public var description: String {
        var text = "\(event.name) → \(participant) in \(duration.microsecondsDescription)"
        if let result { text += " returned \(result)" }
        if let error { text += " threw \(error)" }
        return text
    }
}

extension Duration {
    /// The duration in microseconds, with one decimal: `"12.5 µs"`.
    package var microsecondsDescription: String {
        let (seconds, attoseconds) = components
        let tenths = (Double(seconds) * 1e7 + Double(attoseconds) / 1e11).rounded()
        return "\(tenths / 10) µs"
    }
}
