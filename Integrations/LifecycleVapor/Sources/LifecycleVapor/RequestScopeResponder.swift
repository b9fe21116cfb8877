import LifecycleCore
import LifecycleScopes
import Vapor

/// One route's responder, run in a request scope of the host's ``ScopeRegistry`` named after the route:
/// `<METHOD> <route>` (`GET /todos/:id`), as OpenTelemetry names a server span, so the name is made once per
/// route, not per request (the concrete path, `req.url.path`, costs a Foundation call each time it is read:
/// half of this responder's own time when it was the name). The scope actions of kind `.request` run at its begin and
/// end, a handler adopts behaviors with `req.modules.scope?.adopt(...)`, and scoped services resolve from
/// `req.modules.services`, one instance per request. The scope ends after the response was made (or the
/// handler threw), and its services' shutdowns run then. A module's route checks its ``ModuleGate`` first:
/// a refused request begins no scope.
///
/// It wraps the route's own responder instead of sitting in `app.middleware`: every `AsyncMiddleware` runs
/// the rest of the chain in a task of its own (1.1–1.35× the cost of a plain Vapor request, measured in
/// `vapor-bench`), while this runs in the task Vapor already starts for an async route handler, and calls
/// the handler without another one. A module's routes get it as they are registered
/// (``VaporModuleContext/routes``); every other route of the application, when the host has launched
/// (``VaporModuleHost/didBootAsync(_:)``).
struct RequestScopeResponder: AsyncResponder {
    /// The route's responder before it was wrapped.
    enum Next: Sendable {
        /// An async handler (`AsyncBasicResponder`, or a chain of async middleware): awaited in this task.
        case awaiting(any AsyncResponder)
        /// A future-returning responder (a handler or middleware of the `EventLoopFuture` kind).
        case future(any Responder)
    }

    let next: Next
    /// The scope's name: `<METHOD> <route>`.
    let name: String
    /// Where the scopes come from: `host.scopes`; `nil` runs the route without one.
    let scopes: ScopeRegistry?
    /// The gate of the module that registered the route; `nil` for the application's own routes.
    let gate: ModuleGate?
    let host: ApplicationHost

    /// Wraps `route`'s responder; `route.responder = RequestScopeResponder(...)` puts it in place.
    init(wrapping route: Route, scopes: ScopeRegistry?, gate: ModuleGate?, host: ApplicationHost) {
        let responder = route.responder
        name = "\(route.method.rawValue) /\(route.path.string)"
        if let responder = responder as? any AsyncResponder {
            next = .awaiting(responder)
        } else {
            next = .future(responder)
        }
        self.scopes = scopes
        self.gate = gate
        self.host = host
    }

    func respond(to request: Request) async throws -> Response {
        if let gate, let refusal = gate.refusal(in: host) { throw refusal }
        guard let scopes else { return try await respondUnscoped(to: request) }
        return try await scopes.withScope(.request, name) { scope in
            request.storage[RequestScopeKey.self] = scope
            return try await respondUnscoped(to: request)
        }
    }

    private func respondUnscoped(to request: Request) async throws -> Response {
        switch next {
        case .awaiting(let responder): try await responder.respond(to: request)
        case .future(let responder): try await responder.respond(to: request).get()
        }
    }
}

extension Route {
    /// Whether the route's responder runs in a request scope already.
    var isScoped: Bool { responder is RequestScopeResponder }
}

/// Where a request keeps its scope.
struct RequestScopeKey: StorageKey {
    typealias Value = Scope
}
