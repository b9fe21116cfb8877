/// A user-defined lifecycle event: a typed payload, delivered through the same proxy, with the same
/// ordering rules as the built-in events.
///
/// The conforming type is the payload. Custom events are delivered in the ``DeliveryDirection/forward``
/// direction: the program's delegate first, then modules by priority.
///
/// ```swift
/// struct ReloadConfiguration: CustomEvent {
///     typealias Result = Bool  // "did anything change?", OR-combined
///     var reason: String
/// }
/// ```
///
/// Participants receive custom events by adopting ``CustomEventHandling``. Send one with
/// `ApplicationHost.send(_:)`, or post one from a hook with ``EventEmitter``.
public protocol CustomEvent: Sendable {
    /// What each handler returns, and how the answers combine. `Bool` (OR-combined) or ``NoResult``.
    associatedtype Result: CustomEventResult = NoResult

    /// The name used in plans, delivery records and error messages. Defaults to the type's name.
    static var name: String { get }
}

extension CustomEvent {
    public static var name: String { String(describing: Self.self) }
}

/// The result type of a ``CustomEvent``: what one handler returns and how many answers combine into one.
public protocol CustomEventResult: Sendable {
    /// The result when no participant answered: nobody handles the event, or every handler threw.
    static var unanswered: Self { get }
    /// Combines the answer so far with the next participant's answer. Every handler is called; there is
    /// no short-circuit.
    static func combine(_ soFar: Self, _ next: Self) -> Self
}

extension Bool: CustomEventResult {
    /// `false`: an event nobody answered was not handled.
    public static var unanswered: Bool { false }
    /// Logical OR. Both sides are already evaluated, so no handler is skipped.
    public static func combine(_ soFar: Bool, _ next: Bool) -> Bool { soFar || next }
}

/// The result of a custom event that returns nothing.
public struct NoResult: CustomEventResult, Hashable {
    public init() {}
    public static var unanswered: NoResult { NoResult() }
    public static func combine(_ soFar: NoResult, _ next: NoResult) -> NoResult { soFar }
}

/// Adopted by a participant that handles custom events.
///
/// The participant lists its handlers once, in a static function, so the proxy knows who handles which
/// event without calling anything:
///
/// ```swift
/// struct ConfigurationModule: LifecycleModule, CustomEventHandling {
///     init(context: LifecycleContext) {}
///
///     static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
///         handlers.on(ReloadConfiguration.self) { module, event, context in
///             module.reload(because: event.reason)
///         }
///     }
///
///     func reload(because reason: String) -> Bool { true }
/// }
/// ```
public protocol CustomEventHandling: Sendable {
    /// Registers one handler per custom event type this participant handles.
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>)
}

/// The custom-event handlers of one participant type, filled in by
/// ``CustomEventHandling/registerCustomEventHandlers(_:)``.
///
/// A handler is synchronous or `async`, as its closure is: a closure without `await` registers the
/// synchronous form, which the proxy calls without an `async` frame, as it calls the synchronous
/// capability protocols of the built-in events. Both kinds deliver in the same order.
///
/// Registration is inlined where the participant lists its handlers, where `E` is a concrete type (even
/// when the participant itself is generic), so the event's delivery loop is specialized for `E` there and
/// runs without generic value-witness calls.
public struct CustomEventHandlers<Participant: Sendable> {
    @usableFromInline
    package struct Registration {
        package let event: LifecycleEvent
        /// Binds the handler to one participant instance and appends it to the event's route.
        package let bind: (Participant, LifecycleCore.Participant, inout CustomRouteTable) -> Void

        @usableFromInline
        package init(
            event: LifecycleEvent,
            bind: @escaping (Participant, LifecycleCore.Participant, inout CustomRouteTable) -> Void
        ) {
            self.event = event
            self.bind = bind
        }
    }

    @usableFromInline
    package var registrations: [Registration] = []

    package init() {}

    /// Registers the `async` `handler` for the custom event `E`.
    ///
    /// Registering two handlers for the same event in one participant is a manifest error, reported when
    /// the proxy is built.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public mutating func on<E: CustomEvent>(
        _ event: E.Type,
        _ handler: @escaping @Sendable (Participant, E, LifecycleContext) async throws -> E.Result
    ) {
        register(event) { participant in .async { event, context in try await handler(participant, event, context) } }
    }

    /// Registers the synchronous `handler` for the custom event `E`.
    ///
    /// Registering two handlers for the same event in one participant is a manifest error, reported when
    /// the proxy is built.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public mutating func on<E: CustomEvent>(
        _ event: E.Type,
        _ handler: @escaping @Sendable (Participant, E, LifecycleContext) throws -> E.Result
    ) {
        register(event) { participant in .sync { event, context in try handler(participant, event, context) } }
    }

    /// Appends the registration of `E`, whose handler `bind` makes for one participant instance. Inlined
    /// with `on`, so the delivery loop it takes is specialized where `E` is concrete.
    @inlinable
    @inline(__always)
    mutating func register<E: CustomEvent>(
        _ event: E.Type,
        bind: @escaping (Participant) -> CustomRoute<E>.Handler
    ) {
        // Taken here, not in the closure below: that closure is generic over the participant too, and a
        // generic participant would keep it, and anything referenced in it, unspecialized.
        let delivery = CustomRoute<E>.specializedDelivery
        registrations.append(
            Registration(event: LifecycleEvent(custom: E.self)) { participant, receiver, table in
                table.append(receiver, handler: bind(participant), deliver: delivery)
            }
        )
    }

    /// Registers the `async` `handler` for the custom event `E`, which returns ``NoResult``.
    @inlinable
    public mutating func on<E: CustomEvent>(
        _ event: E.Type,
        _ handler: @escaping @Sendable (Participant, E, LifecycleContext) async throws -> Void
    ) where E.Result == NoResult {
        on(event) { participant, event, context async throws -> NoResult in
            try await handler(participant, event, context)
            return NoResult()
        }
    }

    /// Registers the synchronous `handler` for the custom event `E`, which returns ``NoResult``.
    @inlinable
    public mutating func on<E: CustomEvent>(
        _ event: E.Type,
        _ handler: @escaping @Sendable (Participant, E, LifecycleContext) throws -> Void
    ) where E.Result == NoResult {
        on(event) { participant, event, context throws -> NoResult in
            try handler(participant, event, context)
            return NoResult()
        }
    }
}
