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
public struct CustomEventHandlers<Participant: Sendable> {
    package struct Registration {
        package let event: LifecycleEvent
        /// Binds the handler to one participant instance and appends it to the event's route.
        package let bind: (Participant, LifecycleCore.Participant, inout CustomRouteTable) -> Void
    }

    package private(set) var registrations: [Registration] = []

    package init() {}

    /// Registers `handler` for the custom event `E`.
    ///
    /// Registering two handlers for the same event in one participant is a manifest error, reported when
    /// the proxy is built.
    @_disfavoredOverload
    public mutating func on<E: CustomEvent>(
        _ event: E.Type,
        _ handler: @escaping @Sendable (Participant, E, LifecycleContext) async throws -> E.Result
    ) {
        registrations.append(
            Registration(event: LifecycleEvent(custom: E.self)) { participant, receiver, table in
                table.append(receiver) { event, context in
                    try await handler(participant, event, context)
                }
            }
        )
    }

    /// Registers `handler` for the custom event `E`, which returns ``NoResult``.
    public mutating func on<E: CustomEvent>(
        _ event: E.Type,
        _ handler: @escaping @Sendable (Participant, E, LifecycleContext) async throws -> Void
    ) where E.Result == NoResult {
        on(event) { participant, event, context -> NoResult in
            try await handler(participant, event, context)
            return NoResult()
        }
    }
}

// MARK: - Routes (package internal: built by the proxy, read by the fan-out)

/// The handlers of one custom event type, in delivery order. Immutable once built.
package final class CustomRoute<E: CustomEvent>: AnyCustomRoute {
    package typealias Handler = @Sendable (E, LifecycleContext) async throws -> E.Result

    package let handlers: [Handler]
    package let participants: [LifecycleCore.Participant]

    /// The event, built once: its name costs a `String(describing:)`.
    package let event: LifecycleEvent

    init(handlers: [Handler], participants: [LifecycleCore.Participant]) {
        self.handlers = handlers
        self.participants = participants
        self.event = LifecycleEvent(custom: E.self)
    }
}

/// A type-erased ``CustomRoute``.
package protocol AnyCustomRoute: AnyObject, Sendable {
    var participants: [LifecycleCore.Participant] { get }
    var event: LifecycleEvent { get }
}

/// Collects handlers per custom event type while the proxy is built, then freezes into routes.
package struct CustomRouteTable {
    private var builders: [ObjectIdentifier: any RouteBuilder] = [:]
    private var order: [ObjectIdentifier] = []

    package init() {}

    mutating func append<E: CustomEvent>(
        _ participant: LifecycleCore.Participant,
        handler: @escaping CustomRoute<E>.Handler
    ) {
        let key = ObjectIdentifier(E.self)
        let builder = builders[key] as? TypedRouteBuilder<E> ?? TypedRouteBuilder<E>()
        if builders[key] == nil { order.append(key) }
        builder.handlers.append(handler)
        builder.participants.append(participant)
        builders[key] = builder
    }

    /// The frozen routes, keyed by event type, and the events in the order they were first registered.
    package func build() -> (routes: [ObjectIdentifier: any AnyCustomRoute], events: [LifecycleEvent]) {
        var routes: [ObjectIdentifier: any AnyCustomRoute] = [:]
        var events: [LifecycleEvent] = []
        for key in order {
            guard let route = builders[key]?.build() else { continue }
            routes[key] = route
            events.append(route.event)
        }
        return (routes, events)
    }
}

private protocol RouteBuilder: AnyObject {
    func build() -> any AnyCustomRoute
}

private final class TypedRouteBuilder<E: CustomEvent>: RouteBuilder {
    var handlers: [CustomRoute<E>.Handler] = []
    var participants: [LifecycleCore.Participant] = []

    func build() -> any AnyCustomRoute {
        CustomRoute<E>(handlers: handlers, participants: participants)
    }
}
