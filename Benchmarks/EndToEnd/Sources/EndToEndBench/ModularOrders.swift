public import LifecycleCore
public import LifecycleMessaging
public import LifecycleRouting
public import LifecycleScopes
public import LifecycleServices
import Synchronization

// The end-to-end handler of issue 35 ("End to end, in a real server"), with ModuleLifecycle, whatever the
// server: per request, two global scope actions and one adopted `ScopeBehavior` (begun, then ended in
// reverse), three scoped services, a `Router.open` through three `RouteInterceptor`s, and one
// `Messenger.send` to a receiving module. `GET /orders/7` answers "order 7 of 8". ``HandWrittenOrders`` does
// the same work by hand. A server's benchmark adds a module that registers its framework's route and calls
// ``OrderDesk/answer(_:in:)`` from it, in the request's scope.

/// A scope action of every request that counts what it sees; two of them, at two priorities.
public protocol CountingAction: ScopeAction {
    var seen: Counter { get }
    init(seen: Counter)
}

extension CountingAction {
    public static var kinds: ScopeKinds { [.request] }
    public init(context: LifecycleContext) { self.init(seen: context.launchOptions[CounterKey.self]) }
    public func didBegin(_ scope: Scope) { seen.add() }
    public func willEnd(_ scope: Scope) { seen.add() }
}

/// The first global action, at normal priority.
public struct AuditAction: CountingAction {
    public static let priority: ModulePriority = .normal
    public let seen: Counter
    public init(seen: Counter) { self.seen = seen }
}

/// The second global action, at low priority.
public struct MetricsAction: CountingAction {
    public static let priority: ModulePriority = .low
    public let seen: Counter
    public init(seen: Counter) { self.seen = seen }
}

/// The behavior a handler adopts: it counts the request's events.
public struct TimingBehavior: ScopeBehavior {
    let seen: Counter
    public mutating func didBegin(_ scope: Scope) async throws { seen.add() }
    public mutating func willEnd(_ scope: Scope) async throws { seen.add() }
}

/// The first of the three per-request objects.
public final class RequestTrace: Sendable {
    let id = 1
}

/// The second of the three per-request objects.
public final class RequestUser: Sendable {
    let id = 2
}

/// The third of the three per-request objects.
public final class RequestCart: Sendable {
    let id = 3
}

/// A route: one order.
public struct ShowOrder: LifecycleRouting.Route {
    public typealias Result = Int
    let id: Int
    init(id: Int) { self.id = id }
    public init(parameters: RouteParameters) throws { id = try parameters.require("id", as: Int.self) }
}

/// An interceptor that lets every intent through; three of them, at three priorities.
public protocol PassingInterceptor: RouteInterceptor {
    init()
}

extension PassingInterceptor {
    public init(context: LifecycleContext) { self.init() }
    public func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        decision.continue()
    }
}

/// The first interceptor.
public struct PassInterceptor1: PassingInterceptor {
    public static let priority = 3
    public init() {}
}

/// The second interceptor.
public struct PassInterceptor2: PassingInterceptor {
    public static let priority = 2
    public init() {}
}

/// The third interceptor.
public struct PassInterceptor3: PassingInterceptor {
    public static let priority = 1
    public init() {}
}

/// A question to another module: the next order number.
public struct NextOrder: Message {
    public typealias Reply = Int
    let after: Int
}

/// Answers ``NextOrder``.
public struct NumberingModule: MessageReceiving {
    public static let priority: ModulePriority = .normal
    public init(context: LifecycleContext) {}

    public static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(NextOrder.self) { _, question, _ in question.after + 1 }
    }
}

/// The module whose request path carries everything: it provides the scoped services and serves the route.
public struct OrdersModule: ServiceProvidingModule, RouteServing {
    public static let priority: ModulePriority = .normal
    public static var dependencies: [any LifecycleModule.Type] { [NumberingModule.self] }
    public init(context: LifecycleContext) {}

    public static func provideServices(_ services: inout ServiceProvisions) {
        services.scoped(RequestTrace.self) { _ in RequestTrace() }
        services.scoped(RequestUser.self) { _ in RequestUser() }
        services.scoped(RequestCart.self) { _ in RequestCart() }
    }

    public static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ShowOrder.self) { _, order, _ in order.id }
    }
}

/// What a request of `GET /orders/:id` does with ModuleLifecycle, made once from the host's context by the
/// module that registers the framework's route.
public struct OrderDesk: Sendable {
    /// The pieces of the request path that go through ModuleLifecycle. A piece left out is done as
    /// ``HandWrittenOrders`` does it, so the answer is the same: what each piece costs in a real server is the
    /// difference between two sets that differ by it (`hummingbird-bench --only parts`).
    public struct Parts: OptionSet, Sendable {
        /// The set's bits.
        public let rawValue: Int
        /// The set whose bits are `rawValue`.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// ``TimingBehavior``, adopted by the request's scope; left out, nothing is adopted.
        public static let behavior = Parts(rawValue: 1)
        /// The three scoped services; left out, the three objects are made directly.
        public static let services = Parts(rawValue: 2)
        /// `Router.open` through the three interceptors; left out, the route's answer is computed directly.
        public static let route = Parts(rawValue: 4)
        /// `Messenger.send` to ``NumberingModule``; left out, the answer is computed directly.
        public static let message = Parts(rawValue: 8)
        /// Every piece: the end-to-end handler.
        public static let all: Parts = [.behavior, .services, .route, .message]
    }

    let router: Router
    let messages: Messenger
    let seen: Counter
    let parts: Parts

    /// The desk of the host whose context is `context`, with the pieces `parts` going through ModuleLifecycle.
    ///
    /// - Throws: ``BenchFailure`` if the host has no router (its manifest is not ``orderManifest(name:adding:)``'s).
    public init(context: LifecycleContext, parts: Parts = .all) throws(BenchFailure) {
        guard let router = context.router else { throw BenchFailure("the host has no router") }
        self.router = router
        messages = context.messages(from: OrdersModule.self)
        seen = context.launchOptions[CounterKey.self]
        self.parts = parts
    }

    /// Answers order `id` in the request's `scope`: "order 7 of 8".
    public func answer(_ id: Int, in scope: Scope) async throws -> String {
        if parts.contains(.behavior) { _ = await scope.adopt(TimingBehavior(seen: seen)) }
        let objects: (RequestTrace, RequestUser, RequestCart)
        if parts.contains(.services) {
            let services = scope.services
            objects = (
                try services.require(RequestTrace.self), try services.require(RequestUser.self),
                try services.require(RequestCart.self)
            )
        } else {
            objects = (RequestTrace(), RequestUser(), RequestCart())
        }
        let order = parts.contains(.route) ? try await router.open(ShowOrder(id: id)) : id
        let question = NextOrder(after: order + objects.0.id + objects.1.id + objects.2.id - 6)
        let next =
            parts.contains(.message)
            ? try await messages.send(question, to: NumberingModule.self) : question.after + 1
        return "order \(order) of \(next)"
    }
}

/// The manifest of the end-to-end host: the numbering and orders modules, `routeModules` (the server's
/// module that registers the route), services, messages, the three interceptors with `interceptorBudget`
/// (the router's default unless given) and the two actions.
public func orderManifest(
    name: String,
    adding routeModules: [any LifecycleModule.Type],
    interceptorBudget: Duration? = Router.defaultInterceptorBudget
) -> ModuleManifest {
    ModuleManifest(name: name, [NumberingModule.self, OrdersModule.self] + routeModules)
        .withServices()
        .withMessages()
        .withRouting(
            interceptors: [PassInterceptor1.self, PassInterceptor2.self, PassInterceptor3.self],
            interceptorBudget: interceptorBudget
        )
        .withScopes(actions: [AuditAction.self, MetricsAction.self])
}

/// Launch options with a fresh ``Counter`` for the host's hooks.
public func orderLaunchOptions() -> LaunchOptions {
    var options = LaunchOptions()
    options[CounterKey.self] = Counter()
    return options
}

/// Counts hook calls, so that neither side's hooks are optimized away; per host.
public final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    public init() {}
    func add() { count.wrappingAdd(1, ordering: .relaxed) }
    /// How many hook calls were counted.
    public var value: Int { count.load(ordering: .relaxed) }
}

/// The launch option that hands a host's ``Counter`` to its actions and to ``OrderDesk``.
public enum CounterKey: LaunchOptionKey {
    public static let defaultValue = Counter()
}
