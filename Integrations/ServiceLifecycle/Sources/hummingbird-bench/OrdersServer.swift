import EndToEndBench
import Hummingbird
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import LifecycleScopes
import Logging
import ServiceLifecycle

// The two Hummingbird servers of the end-to-end comparison, shaped as the example's
// (`service-lifecycle-example`): a host launched before the routes are built, and a middleware that runs
// every request in a request scope of the host's registry (as its `RequestScopeMiddleware`, without the
// sessions and the request log). `GET /orders/:id` answers "order 7 of 8" on both; the work is
// `EndToEndBench`'s.

/// Runs every request in a request scope named `<METHOD> <path>`, as the example's middleware does.
struct RequestScopes<Context: RequestContext>: RouterMiddleware {
    let scopes: ScopeRegistry

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await scopes.withScope(.request, "\(request.method.rawValue) \(request.uri.path)") { _ in
            try await next(request, context)
        }
    }
}

/// A Hummingbird server on a free loopback port, run in a `ServiceGroup` of its own until ``stop()``.
struct OrdersServer {
    let port: Int
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Serves `router` on 127.0.0.1 and returns once the listener is bound.
    static func start(_ router: Hummingbird.Router<BasicRequestContext>) async throws -> OrdersServer {
        var logger = Logger(label: "hummingbird-bench")
        logger.logLevel = .error  // no line per request
        let (bound, binding) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                binding.yield(channel.localAddress?.port ?? 0)
                binding.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(services: [application], logger: logger)
        let running = Task { try await group.run() }
        for await port in bound where port > 0 {
            return OrdersServer(port: port, group: group, running: running)
        }
        running.cancel()
        throw BenchFailure("the server did not bind a port")
    }

    /// Stops accepting, answers what is in flight, and waits for the server to end.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}

/// A launched host of the end-to-end manifest, in the default configuration, and its scopes. Its router's
/// interceptor budget is the default unless `interceptorBudget` says otherwise.
func launchOrdersHost(
    interceptorBudget: Duration? = LifecycleRouting.Router.defaultInterceptorBudget
) async throws -> (host: ApplicationHost, scopes: ScopeRegistry) {
    let host = try ApplicationHost(
        manifest: orderManifest(name: "end-to-end", adding: [], interceptorBudget: interceptorBudget),
        launchOptions: orderLaunchOptions()
    )
    try await host.launch()
    guard let scopes = host.scopes else { throw BenchFailure("the manifest has scopes, so the host has a registry") }
    return (host, scopes)
}

/// The server whose route runs through `host`: the request's scope (two global actions), then an
/// ``OrderDesk`` with `parts`.
func makeModularOrders(
    _ host: ApplicationHost,
    _ scopes: ScopeRegistry,
    parts: OrderDesk.Parts = .all
) async throws -> OrdersServer {
    let desk = try OrderDesk(context: host.context, parts: parts)
    let router = Hummingbird.Router()
    router.add(middleware: RequestScopes(scopes: scopes))
    router.get("orders/:id") { _, context -> String in
        let id = try context.parameters.require("id", as: Int.self)
        guard let scope = Scope.current else { throw HTTPError(.internalServerError, message: "no scope") }
        return try await desk.answer(id, in: scope)
    }
    return try await OrdersServer.start(router)
}

/// The server whose handler does the same work by hand.
func makeHandWrittenOrders() async throws -> OrdersServer {
    let orders = HandWrittenOrders()
    let router = Hummingbird.Router()
    router.get("orders/:id") { _, context -> String in
        try await orders.answer(try context.parameters.require("id", as: Int.self))
    }
    return try await OrdersServer.start(router)
}
