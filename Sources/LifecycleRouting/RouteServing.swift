public import LifecycleCore

/// Adopted by a module that serves routes. It lists its handlers once, in a static function, so the router
/// knows who serves what without a registration call at run time:
///
/// ```swift
/// struct ReportModule: LifecycleModule, RouteServing {
///     init(context: LifecycleContext) {}
///
///     static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
///         routes.on(ShowReport.self) { module, report, context in
///             "report for day \(report.day)"
///         }
///     }
/// }
/// ```
///
/// The discovery plugin lists every server in the generated manifest; a hand-written manifest finds them
/// by asking the runtime, once per host (`ModuleManifest.withRouting()`). A route has one server: two
/// modules serving one route, or two routes with one pattern or command, is a `ManifestError`.
public protocol RouteServing: LifecycleModule {
    /// Registers one handler per route this module serves.
    static func serveRoutes(_ routes: inout RouteHandlers<Self>)
}

/// The route handlers of one server type, filled in by ``RouteServing/serveRoutes(_:)``.
public struct RouteHandlers<Server: RouteServing> {
    /// The signature of a route's own interceptor: the server, the intent, its context, the decision.
    public typealias Interceptor = @Sendable (Server, RouteIntent, RouteContext, InterceptorDecision) async -> Void

    struct Registration {
        let route: any Route.Type
        /// Binds the handler, and the route's interceptor if any, to one server instance and the participant it
        /// is. In a host that injects faults (`LifecycleTesting`), the handler asks the seam before every call.
        let bind: (Server, Participant, FaultInjection?) -> BoundRoute
    }

    var registrations: [Registration] = []

    init() {}

    /// Serves the route `R` with `handler`.
    public mutating func on<R: Route>(
        _ route: R.Type,
        _ handler: @escaping @Sendable (Server, R, RouteContext) async throws -> R.Result
    ) {
        append(route, interceptor: nil, budget: nil, handler)
    }

    /// Serves the route `R` with `handler`, after `intercept` has judged each intent for it: the route's own
    /// interceptor, which runs after every global one and decides as they do (``InterceptorDecision``),
    /// within `budget` or the router's.
    public mutating func on<R: Route>(
        _ route: R.Type,
        budget: Duration? = nil,
        intercept: @escaping Interceptor,
        _ handler: @escaping @Sendable (Server, R, RouteContext) async throws -> R.Result
    ) {
        append(route, interceptor: intercept, budget: budget, handler)
    }

    private mutating func append<R: Route>(
        _ route: R.Type,
        interceptor: Interceptor?,
        budget: Duration?,
        _ handler: @escaping @Sendable (Server, R, RouteContext) async throws -> R.Result
    ) {
        registrations.append(
            Registration(route: route) { server, participant, faults in
                let serverName = participant.name
                let call: @Sendable (R, RouteContext) async throws -> R.Result
                if let faults {
                    let site = FaultSite.handler("route \(R.routeName)")
                    call = { route, context in
                        try await faults.strike(participant, site)
                        return try await handler(server, route, context)
                    }
                } else {
                    call = { route, context in try await handler(server, route, context) }
                }
                return BoundRoute(
                    type: R.self,
                    server: serverName,
                    interceptor: interceptor.map { intercept in
                        AnyInterceptor(name: "\(R.routeName)'s interceptor in \(serverName)", budget: budget) {
                            intent,
                            context,
                            decision in
                            await intercept(server, intent, context, decision)
                        }
                    },
                    typed: TypedRouteHandler<R>(call),
                    parse: { parameters in try R(parameters: parameters) }
                )
            }
        )
    }
}

/// A route as the router serves it: its type, its server, its own interceptor, and its handler bound to
/// the server instance.
struct BoundRoute: Sendable {
    let type: any Route.Type
    /// The serving module's name.
    let server: String
    let interceptor: AnyInterceptor?
    /// The handler, typed: a ``TypedRouteHandler`` of ``type``.
    let typed: any ErasedRouteHandler
    /// The route's `init(parameters:)`.
    let parse: @Sendable (RouteParameters) throws -> any Route

    var name: String { type.routeName }

    /// Calls the handler with `route`, a value of ``type``, for an intent opened by URL, command or switch.
    func perform(_ route: any Route, _ context: RouteContext) async throws -> any Sendable {
        try await typed.perform(route, context)
    }
}

/// A route handler whose route type is erased: what a ``BoundRoute`` holds.
protocol ErasedRouteHandler: AnyObject, Sendable {
    /// Calls the handler with `route`, which must be a value of its route type.
    func perform(_ route: any Route, _ context: RouteContext) async throws -> any Sendable
}

/// A route handler for `R`. The typed open calls ``call`` directly, with no cast and no boxing; an intent
/// opened by URL, command or switch goes through ``perform(_:_:)``, which casts the route once.
final class TypedRouteHandler<R: Route>: ErasedRouteHandler {
    let call: @Sendable (R, RouteContext) async throws -> R.Result

    init(_ call: @escaping @Sendable (R, RouteContext) async throws -> R.Result) { self.call = call }

    func perform(_ route: any Route, _ context: RouteContext) async throws -> any Sendable {
        // The router found this handler by the route's type, so the cast holds; if it ever did not, the
        // opening fails with `handlerFailed`, and nothing crashes.
        guard let route = route as? R else { throw Router.ResultMismatch(expected: R.routeName) }
        return try await call(route, context)
    }
}
