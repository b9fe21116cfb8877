import Hummingbird
import LifecycleCore
import LifecycleScopes
import LifecycleServices

/// The example's routes: first the health probes (``HealthEndpoints``) and the metrics
/// (``MetricsEndpoint``), outside any middleware; then ``LaunchGate``, which answers 503 until the host has
/// launched; then the routes, each run in a request scope by ``RequestScopeMiddleware``.
///
/// - `GET /items/{id}?delay={ms}` reads item `id` from the store, waits `ms` milliseconds, reads it
///   again, and answers `item {id}: {value}`. It reads through the request's ``StoreReader``, a scoped
///   service. The request log (``RequestLog``) gets `request items/{id} started`,
///   `request items/{id} completed` and, when the request scope ends, `request items/{id} reader closed
///   after 2 reads`.
/// - `GET /scopes` answers the scopes in flight as JSON (``ScopesReport``): the sessions, and the request
///   scopes of the requests being answered, its own among them.
///
/// The handlers resolve the store's reader from the host's services (`resolver`, kept once): inside the
/// request scope, a scoped service resolves in that scope. `scopes` is the host's scope registry (`host.scopes`).
func makeRouter(
    services: ExampleServices,
    resolver: ServiceResolver,
    scopes: ScopeRegistry,
    health: HealthEndpoints,
    metrics: MetricsEndpoint,
    host: ApplicationHost
) -> Router<BasicRequestContext> {
    let router = Router()
    // A middleware applies to the routes added after it: the probes and the metrics, added first, pass
    // through none.
    health.register(on: router)
    metrics.register(on: router)
    router.add(middleware: LaunchGate(host: host))
    router.add(
        middleware: RequestScopeMiddleware(
            scopes: scopes,
            sessions: services.sessions,
            log: services.requestLog
        )
    )
    router.get("scopes") { _, _ in AdminEndpoint.json(ScopesReport(scopes), status: .ok) }
    router.get("items/:id") { request, context -> String in
        let id = try context.parameters.require("id")
        let delay = request.uri.queryParameters.get("delay", as: Int.self) ?? 0
        let log = services.requestLog
        log.write("request items/\(id) started delay=\(delay)")
        do {
            // Scoped: this request's own reader, made here and closed when the request scope ends.
            let reader = try resolver.require(StoreReader.self)
            guard try await reader.item(id, for: "items/\(id)") != nil else {
                log.write("request items/\(id) not found")
                throw HTTPError(.notFound, message: "no item \(id)")
            }
            if delay > 0 {
                do {
                    try await Task.sleep(for: .milliseconds(delay))
                } catch {
                    // Task.sleep throws CancellationError if the request's task is cancelled, as it is
                    // inside cancelWhenGracefulShutdown on SIGTERM. Answer anyway, and say so.
                    log.write("request items/\(id) delay cut short: \(error)")
                }
            }
            // Read again at the end: the store must still be open.
            let value = try await reader.item(id, for: "items/\(id)") ?? "?"
            services.countAnswer()
            log.write("request items/\(id) completed")
            return "item \(id): \(value)\n"
        } catch let error as StoreClosed {
            log.write("request items/\(id) failed: store closed")
            throw HTTPError(.serviceUnavailable, message: "\(error)")
        } catch let error as ServiceError {
            // Before launch or after termination the host's services refuse: unavailable, not a crash.
            log.write("request items/\(id) failed: \(error.code)")
            throw HTTPError(.serviceUnavailable, message: "\(error)")
        }
    }
    return router
}
