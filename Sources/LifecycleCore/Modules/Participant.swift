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
