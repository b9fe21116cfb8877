// The routes of custom events: package internal, built by the proxy from `CustomEventHandlers`, read by its
// fan-out. The delivery loop is `@inlinable` so that `CustomEventHandlers.on(_:_:)`, itself inlined where a
// participant registers its handlers, specializes it for the concrete event type: unspecialized, every
// handler's answer went through value-witness calls and a task allocation, ~10× the awaited loop.

/// The handlers of one custom event type, in delivery order, and the delivery loop specialized for it.
/// Immutable once built.
@usableFromInline
package final class CustomRoute<E: CustomEvent>: AnyCustomRoute {
    /// One participant's handler, bound to the participant: synchronous or `async`, as registered.
    @usableFromInline
    package enum Handler: Sendable {
        case sync(@Sendable (E, LifecycleContext) throws -> E.Result)
        case async(@Sendable (E, LifecycleContext) async throws -> E.Result)

        /// Calls the handler; a synchronous one without an `async` frame of its own.
        @inlinable
        func callAsFunction(_ event: E, _ context: LifecycleContext) async throws -> E.Result {
            switch self {
            case .sync(let handler): return try handler(event, context)
            case .async(let handler): return try await handler(event, context)
            }
        }
    }

    /// The delivery loop, specialized for `E` where the handlers were registered; see
    /// ``deliver(_:context:observer:from:supervisor:)``.
    @usableFromInline
    package typealias Delivery =
        @Sendable (
            CustomRoute<E>, E, LifecycleContext, DeliveryObserver?, Int, (any DeliverySupervisor)?
        ) async -> EventOutcome<E.Result>

    @usableFromInline
    package let handlers: [Handler]
    @usableFromInline
    package let participants: [Participant]
    /// The event, built once: its name costs a `String(describing:)`.
    @usableFromInline
    package let event: LifecycleEvent
    /// The specialized loop. Call it through ``run(_:context:observer:from:supervisor:)``.
    private let delivery: Delivery

    init(handlers: [Handler], participants: [Participant], delivery: @escaping Delivery) {
        self.handlers = handlers
        self.participants = participants
        self.event = LifecycleEvent(custom: E.self)
        self.delivery = delivery
    }

    /// ``deliver(_:context:observer:from:supervisor:)`` as a closure. Referenced where `E` is concrete, it
    /// is the loop specialized for `E`: `CustomEventHandlers.on(_:_:)` passes it when it registers a handler.
    /// It depends on `E` alone, so it specializes even when the registering participant is generic.
    @inlinable
    package static var specializedDelivery: Delivery {
        { route, event, context, observer, start, supervisor in
            await route.deliver(event, context: context, observer: observer, from: start, supervisor: supervisor)
        }
    }

    /// Delivers `event` through the loop specialized for `E`.
    package func run(
        _ event: E,
        context: LifecycleContext,
        observer: DeliveryObserver?,
        from start: Int,
        supervisor: (any DeliverySupervisor)?
    ) async -> EventOutcome<E.Result> {
        await delivery(self, event, context, observer, start, supervisor)
    }

    /// Calls every handler from position `start`, in order, and combines their answers with
    /// `E.Result.combine`; no handler is skipped. `supervisor`, when set, is told about each call and can
    /// stop the loop; `observer`, when set, receives a record of each call.
    @inlinable
    package func deliver(
        _ event: E,
        context: LifecycleContext,
        observer: DeliveryObserver?,
        from start: Int,
        supervisor: (any DeliverySupervisor)?
    ) async -> EventOutcome<E.Result> {
        var combined: E.Result?
        var failures: [HookFailure] = []
        if observer == nil, supervisor == nil, start == 0 {
            // The common case: a plain loop, nothing timed, nothing allocated unless a handler throws.
            for index in handlers.indices {
                do {
                    let answer = try await handlers[index](event, context)
                    combined = combined.map { E.Result.combine($0, answer) } ?? answer
                } catch {
                    failures.append(HookFailure(participant: participants[index], event: self.event, error: error))
                }
            }
        } else {
            calls: for index in handlers.indices.dropFirst(start) {
                var injected: InjectedFault?
                if let supervisor {
                    switch supervisor.willCall(index) {
                    case .call: break
                    case .stop: break calls
                    case .fault(let fault): injected = fault
                    }
                }
                let began = observer == nil ? nil : ContinuousClock.now
                var answer: E.Result?
                var failure: (any Error)?
                do {
                    if let injected { try await injected.strike() }
                    answer = try await handlers[index](event, context)
                } catch {
                    failure = error
                }
                // A handler abandoned on a timeout reports nothing when it finally returns.
                if let supervisor, !supervisor.didCall(index, answer: answer, failure: failure) { break calls }
                if let answer {
                    combined = combined.map { E.Result.combine($0, answer) } ?? answer
                }
                if let failure {
                    failures.append(
                        HookFailure(participant: participants[index], event: self.event, error: failure)
                    )
                }
                if let began, let observer {
                    observer(
                        DeliveryRecord(
                            event: self.event,
                            participant: participants[index],
                            start: began,
                            duration: began.duration(to: .now),
                            result: answer as? Bool,
                            error: failure
                        )
                    )
                }
            }
        }
        return EventOutcome(
            event: self.event,
            result: combined ?? E.Result.unanswered,
            failures: failures,
            delivered: handlers.count
        )
    }
}

/// A type-erased ``CustomRoute``.
package protocol AnyCustomRoute: AnyObject, Sendable {
    var participants: [Participant] { get }
    var event: LifecycleEvent { get }
}

/// Collects handlers per custom event type while the proxy is built, then freezes into routes.
@usableFromInline
package struct CustomRouteTable {
    private var builders: [ObjectIdentifier: any RouteBuilder] = [:]
    private var order: [ObjectIdentifier] = []

    package init() {}

    /// Appends `participant`'s handler to the route of `E`. The first handler of an event brings the
    /// event's specialized delivery loop; every registration passes the same one.
    @usableFromInline
    mutating func append<E: CustomEvent>(
        _ participant: Participant,
        handler: CustomRoute<E>.Handler,
        deliver: @escaping CustomRoute<E>.Delivery
    ) {
        let key = ObjectIdentifier(E.self)
        let builder = builders[key] as? TypedRouteBuilder<E> ?? TypedRouteBuilder<E>(delivery: deliver)
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
    var participants: [Participant] = []
    let delivery: CustomRoute<E>.Delivery

    init(delivery: @escaping CustomRoute<E>.Delivery) {
        self.delivery = delivery
    }

    func build() -> any AnyCustomRoute {
        CustomRoute<E>(handlers: handlers, participants: participants, delivery: delivery)
    }
}
