import LifecycleCore
import Vapor

/// A module's routes builder (``VaporModuleContext/routes``): each route it adds runs behind the module's
/// gate and in a request scope (``RequestScopeResponder``), then goes to the application's routes. Groups
/// and middleware a module builds on it (`routes.grouped(...)`) run inside the gate and the scope.
struct ModuleRoutes: RoutesBuilder {
    let base: any RoutesBuilder
    let gate: ModuleGate
    let host: ApplicationHost

    func add(_ route: Route) {
        route.responder = RequestScopeResponder(wrapping: route, scopes: host.scopes, gate: gate, host: host)
        base.add(route)
    }
}
