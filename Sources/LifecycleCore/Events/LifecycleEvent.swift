/// One kind of lifecycle event: a built-in event such as ``didFinishLaunching``, or a custom event.
///
/// A `LifecycleEvent` names an event; it does not carry a payload. Use it to ask who receives an event
/// (`responds(to:)`, `plan(for:)`), and to read delivery records and errors.
///
/// Every event has a fixed ``direction`` and ``resultRule``. `Docs/Events.md` has the full table.
public struct LifecycleEvent: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        /// A built-in event: a row of the event table (`LifecycleEvent+Builtin.swift` is generated from it).
        case builtin(Builtin)
        case custom(ObjectIdentifier)
        /// A message between modules (LifecycleMessaging), by message type: what its journal records name.
        case message(ObjectIdentifier)
    }

    package let kind: Kind
    /// The event's name, as it appears in plans, delivery records and error messages.
    public let name: String

    package init(_ builtin: Builtin) {
        self.kind = .builtin(builtin)
        self.name = "\(builtin)"
    }

    /// The event that stands for the custom event type `E`.
    public init<E: CustomEvent>(custom type: E.Type) {
        self.kind = .custom(ObjectIdentifier(type))
        self.name = E.name
    }

    /// The message type `type`, named `name`, as a delivery record's event.
    package init(message type: Any.Type, name: String) {
        self.kind = .message(ObjectIdentifier(type))
        self.name = name
    }

    /// The built-in events, in the order a full lifecycle emits them.
    public static let builtinEvents: [LifecycleEvent] = Builtin.allCases.map(Self.init)

    /// Whether this is a user-defined event (see ``CustomEvent``).
    public var isCustom: Bool {
        if case .custom = kind { return true }
        return false
    }

    /// Whether this names a message between modules (LifecycleMessaging) rather than an event: what a
    /// delivery record of a message carries.
    public var isMessage: Bool {
        if case .message = kind { return true }
        return false
    }

    /// The order in which participants receive this event.
    public var direction: DeliveryDirection {
        guard case .builtin(let builtin) = kind else { return .forward }
        return builtin.direction
    }

    /// How the results of the participants combine into the event's result.
    public var resultRule: ResultRule {
        switch kind {
        case .builtin(let builtin): return builtin.resultRule
        case .custom, .message: return .custom
        }
    }

    public var description: String { name }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

/// The order in which the participants of an event receive it.
public enum DeliveryDirection: Sendable, Hashable, CustomStringConvertible {
    /// The program's delegate first, then modules from the highest priority to the lowest.
    case forward
    /// The exact mirror of ``forward``: modules from the lowest priority to the highest, then the
    /// program's delegate. Whatever started first stops last.
    case reverse

    public var description: String {
        switch self {
        case .forward: return "forward (delegate, then modules by priority, highest first)"
        case .reverse: return "reverse (modules by priority, lowest first, then delegate)"
        }
    }
}

/// How the results of every participant that implements an event combine into one result.
public enum ResultRule: Sendable, Hashable, CustomStringConvertible {
    /// The event returns nothing.
    case none
    /// Every implementer is called (no short-circuit) and the Bool results are OR-combined.
    /// `whenUnanswered` is the result when no participant returned a value: nobody implements the
    /// event, or every implementer threw.
    case anyTrue(whenUnanswered: Bool)
    /// A custom event: its ``CustomEvent/Result`` type defines the rule (OR for `Bool`).
    case custom

    public var description: String {
        switch self {
        case .none: return "none"
        case .anyTrue(let fallback): return "OR of all results; \(fallback) if unanswered"
        case .custom: return "defined by the event's Result type"
        }
    }
}
