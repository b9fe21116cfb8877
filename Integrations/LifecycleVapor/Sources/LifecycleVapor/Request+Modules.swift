import LifecycleCore
import LifecycleScopes
import LifecycleServices
import Vapor

extension Request {
    /// The request's view of the modules: its scope, and the services it resolves.
    public var modules: RequestModules { RequestModules(request: self) }
}

/// What a Vapor handler reaches of the modules: `req.modules`.
///
///     app.get("todos") { req in
///         try req.modules.services.require(TodoStore.self).all()
///     }
public struct RequestModules: Sendable {
    let request: Request

    /// The request's scope, begun before the route's handler ran; `nil` outside one (a route registered
    /// after the host launched).
    public var scope: Scope? { request.storage[RequestScopeKey.self] }

    /// The application's host, or `nil` when it runs none.
    public var host: VaporModuleHost? { request.application.modules }

    /// The services a handler resolves: the request scope's (scoped services, one instance per request,
    /// singletons from the host), or the host's outside a scope.
    ///
    /// - Throws: ``VaporModulesError/notConfigured(path:)`` when the application runs no host.
    public var services: ServiceResolver {
        get throws(VaporModulesError) {
            if let scope { return scope.services }
            guard let host else { throw .notConfigured(path: request.url.path) }
            return host.host.context.services
        }
    }
}
