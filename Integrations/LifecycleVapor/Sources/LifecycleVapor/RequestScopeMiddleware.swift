import LifecycleScopes
import Vapor

/// Runs every request in a request scope of the host's ``ScopeRegistry``, named `<METHOD> <path>`
/// (`GET /todos/7`, the path without its query): the scope actions of kind `.request` run at its begin and
/// end, a handler adopts behaviors with `req.modules.scope?.adopt(...)`, and scoped services resolve from
/// `req.modules.services`, one instance per request. The scope ends after the response was made (or the
/// handler threw), and its services' shutdowns run then.
///
/// `Application.useModules(_:configuration:launchOptions:)` adds it to `app.middleware`, at the end: every
/// route, the health routes too, runs inside it, after Vapor's own error middleware.
public struct RequestScopeMiddleware: AsyncMiddleware {
    /// The registry the scopes come from: `host.scopes`.
    public let scopes: ScopeRegistry

    /// A middleware that runs each request in a scope of `scopes`.
    public init(scopes: ScopeRegistry) {
        self.scopes = scopes
    }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await scopes.withScope(.request, "\(request.method.rawValue) \(request.url.path)") { scope in
            request.storage[RequestScopeKey.self] = scope
            return try await next.respond(to: request)
        }
    }
}

/// Where a request keeps its scope.
struct RequestScopeKey: StorageKey {
    typealias Value = Scope
}
