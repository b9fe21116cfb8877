import LifecycleCore
import LifecycleMessaging
import LifecycleRouting
import LifecycleScopes
import LifecycleServices
import LifecycleVapor
import Synchronization
import Vapor

// The end-to-end handler of issue 35 ("End to end, in a real server"): one Vapor route with everything a
// module's request path can carry, against the same work written by hand. Per request, both:
// - begin two request-wide hooks and one per-request behavior, and end them in reverse;
// - make three per-request objects;
// - pass the request through three interceptors that let it through, then to the handler of a route;
// - ask one other component a question and wait for its answer.
// With ModuleLifecycle those are two global scope actions, one adopted `ScopeBehavior`, three scoped
// services, a `Router.open` through three `RouteInterceptor`s, and one `Messenger.send` to a receiving module.
// `GET /orders/7` answers "order 7 of 8" on both sides.

// MARK: With ModuleLifecycle

/// A scope action of every request that counts what it sees; two of them, at two priorities.
protocol CountingAction: ScopeAction {
    var seen: Counter { get }
    init(seen: Counter)
}

extension CountingAction {
    static var kinds: ScopeKinds { [.request] }
    init(context: LifecycleContext) { self.init(seen: context.launchOptions[CounterKey.self]) }
    func didBegin(_ scope: Scope) { seen.add() }
    func willEnd(_ scope: Scope) { seen.add() }
}

struct AuditAction: CountingAction {
    static let priority: ModulePriority = .normal
    let seen: Counter
}

struct MetricsAction: CountingAction {
    static let priority: ModulePriority = .low
    let seen: Counter
}

/// The behavior a handler adopts: it counts the request's events.
struct TimingBehavior: ScopeBehavior {
    let seen: Counter
    mutating func didBegin(_ scope: Scope) async throws { seen.add() }
    mutating func willEnd(_ scope: Scope) async throws { seen.add() }
}

/// The three per-request objects.
final class RequestTrace: Sendable { let id = 1 }
final class RequestUser: Sendable { let id = 2 }
final class RequestCart: Sendable { let id = 3 }

/// A route: one order.
struct ShowOrder: LifecycleRouting.Route {
    typealias Result = Int
    let id: Int
    init(id: Int) { self.id = id }
    init(parameters: RouteParameters) throws { id = try parameters.require("id", as: Int.self) }
}

/// An interceptor that lets every intent through; three of them, at three priorities.
protocol PassingInterceptor: RouteInterceptor {
    init()
}

extension PassingInterceptor {
    init(context: LifecycleContext) { self.init() }
    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        decision.continue()
    }
}

struct PassInterceptor1: PassingInterceptor { static let priority = 3 }
struct PassInterceptor2: PassingInterceptor { static let priority = 2 }
struct PassInterceptor3: PassingInterceptor { static let priority = 1 }

/// A question to another module: the next order number.
struct NextOrder: Message {
    typealias Reply = Int
    let after: Int
}

/// Answers ``NextOrder``.
struct NumberingModule: MessageReceiving {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(NextOrder.self) { _, question, _ in question.after + 1 }
    }
}

/// The module whose Vapor route carries everything: it provides the scoped services, serves the route,
/// and registers `GET /orders/:id`.
struct OrdersModule: LifecycleModule, ServiceProvidingModule, RouteServing, SetupStage {
    static let priority: ModulePriority = .normal
    static var dependencies: [any LifecycleModule.Type] { [NumberingModule.self] }
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.scoped(RequestTrace.self) { _ in RequestTrace() }
        services.scoped(RequestUser.self) { _ in RequestUser() }
        services.scoped(RequestCart.self) { _ in RequestCart() }
    }

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ShowOrder.self) { _, order, _ in order.id }
    }

    func setUp(_ context: LifecycleContext) async throws {
        guard let router = context.router else { throw Abort(.internalServerError, reason: "no router") }
        let messages = context.messages(from: Self.self)
        let seen = context.launchOptions[CounterKey.self]
        try context.vapor(for: Self.self).routes.get("orders", ":id") { req async throws -> String in
            let id = try req.parameters.require("id", as: Int.self)
            _ = await req.modules.scope?.adopt(TimingBehavior(seen: seen))
            let services = try req.modules.services
            let trace = try services.require(RequestTrace.self)
            let user = try services.require(RequestUser.self)
            let cart = try services.require(RequestCart.self)
            let order = try await router.open(ShowOrder(id: id))
            let next = try await messages.send(
                NextOrder(after: order + trace.id + user.id + cart.id - 6),
                to: NumberingModule.self
            )
            return "order \(order) of \(next)"
        }
    }
}

/// Counts hook calls, so that neither side's hooks are optimized away; per host.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.wrappingAdd(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

enum CounterKey: LaunchOptionKey {
    static let defaultValue = Counter()
}

/// The application whose route a module registered, with everything on its path.
func makeEndToEndModularApp() async throws -> Application {
    let app = try await Application.make(.production)
    var options = LaunchOptions()
    options[CounterKey.self] = Counter()
    let manifest = ModuleManifest(name: "end-to-end", [NumberingModule.self, OrdersModule.self])
        .withServices()
        .withMessages()
        .withRouting(interceptors: [PassInterceptor1.self, PassInterceptor2.self, PassInterceptor3.self])
        .withScopes(actions: [AuditAction.self, MetricsAction.self])
    try app.useModules(manifest, launchOptions: options)
    return app
}

// MARK: By hand

/// The same work without ModuleLifecycle: the hooks, objects, interceptors and the question as plain calls.
enum ByHand {
    struct Action {
        let seen: Counter
        func didBegin() async { seen.add() }
        func willEnd() async { seen.add() }
    }

    struct Behavior {
        let seen: Counter
        mutating func didBegin() async { seen.add() }
        mutating func willEnd() async { seen.add() }
    }

    enum Decision { case proceed, reject }

    struct Interceptor {
        func intercept(_ id: Int) async -> Decision { .proceed }
    }

    struct Rejected: Error {}

    static func showOrder(_ id: Int) async -> Int { id }
    static func nextOrder(after: Int) async -> Int { after + 1 }
}

/// The application whose handler does the same work by hand.
func makeEndToEndPlainApp() async throws -> Application {
    let app = try await Application.make(.production)
    let seen = Counter()
    let actions = [ByHand.Action(seen: seen), ByHand.Action(seen: seen)]
    let interceptors = [ByHand.Interceptor(), ByHand.Interceptor(), ByHand.Interceptor()]
    app.get("orders", ":id") { req async throws -> String in
        let id = try req.parameters.require("id", as: Int.self)
        for action in actions { await action.didBegin() }
        var behavior = ByHand.Behavior(seen: seen)
        await behavior.didBegin()
        let trace = RequestTrace()
        let user = RequestUser()
        let cart = RequestCart()
        for interceptor in interceptors where await interceptor.intercept(id) == .reject {
            throw ByHand.Rejected()
        }
        let order = await ByHand.showOrder(id)
        let next = await ByHand.nextOrder(after: order + trace.id + user.id + cart.id - 6)
        await behavior.willEnd()
        for action in actions.reversed() { await action.willEnd() }
        return "order \(order) of \(next)"
    }
    return app
}
