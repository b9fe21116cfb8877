/// One kind of lifecycle event: a built-in event such as ``didFinishLaunching``, or a custom event.
///
/// A `LifecycleEvent` names an event; it does not carry a payload. Use it to ask who receives an event
/// (`responds(to:)`, `plan(for:)`), and to read delivery records and errors.
///
/// Every event has a fixed ``direction`` and ``resultRule``. `Docs/Events.md` has the full table.
public struct LifecycleEvent: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        case builtin(Builtin)
        case custom(ObjectIdentifier)
        /// A message between modules (LifecycleMessaging), by message type: what its journal records name.
        case message(ObjectIdentifier)
    }

    package enum Builtin: UInt8, Hashable, Sendable, CaseIterable {
        case willFinishLaunching
        case setup
        case initialize
        case warmUp
        case didFinishLaunching
        case willEnterForeground
        case didBecomeActive
        case willResignActive
        case didEnterBackground
        case willTerminate
        case didReceiveMemoryWarning
        case openURL
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

    /// The first launch event. Bool result, OR-combined; `true` when nobody implements it.
    public static let willFinishLaunching = Self(.willFinishLaunching)
    /// The first launch stage, after ``willFinishLaunching``: set up what others will need. In order.
    public static let setup = Self(.setup)
    /// The second launch stage, after ``setup``: initialise the module's own state. In order.
    public static let initialize = Self(.initialize)
    /// The third launch stage: slow preparation (caches, connections). Implementers run concurrently; a
    /// module starts once every module it depends on has finished its warm-up.
    public static let warmUp = Self(.warmUp)
    /// The second launch event. Bool result, OR-combined; `true` when nobody implements it.
    public static let didFinishLaunching = Self(.didFinishLaunching)
    /// Sent when the host leaves the background, before ``didBecomeActive``.
    public static let willEnterForeground = Self(.willEnterForeground)
    /// Sent whenever the host becomes active: at the end of launch, and when it returns to the foreground.
    public static let didBecomeActive = Self(.didBecomeActive)
    /// Sent whenever the host stops being active. Delivered in reverse order.
    public static let willResignActive = Self(.willResignActive)
    /// Sent when the host enters the background. Delivered in reverse order.
    public static let didEnterBackground = Self(.didEnterBackground)
    /// Sent once, when the host terminates. Delivered in reverse order.
    public static let willTerminate = Self(.willTerminate)
    /// Sent when the host is asked to free memory.
    public static let didReceiveMemoryWarning = Self(.didReceiveMemoryWarning)
    /// Sent to ask participants to handle a URL. Bool result ("handled"), OR-combined; `false` when nobody
    /// implements it.
    public static let openURL = Self(.openURL)

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
        switch kind {
        case .builtin(.willResignActive), .builtin(.didEnterBackground), .builtin(.willTerminate):
            return .reverse
        default:
            return .forward
        }
    }

    /// How the results of the participants combine into the event's result.
    public var resultRule: ResultRule {
        switch kind {
        case .builtin(.willFinishLaunching), .builtin(.didFinishLaunching):
            return .anyTrue(whenUnanswered: true)
        case .builtin(.openURL):
            return .anyTrue(whenUnanswered: false)
        case .builtin:
            return .none
        case .custom, .message:
            return .custom
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
