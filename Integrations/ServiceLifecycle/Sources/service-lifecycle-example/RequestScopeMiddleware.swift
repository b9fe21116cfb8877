import Hummingbird
import LifecycleScopes

/// Runs every request in a request scope named `<METHOD> <path>` (`GET /items/7`; the path without its
/// query), which adopts ``RequestTiming`` and ``RequestAudit``: their lines go to the request log
/// (``RequestLog``, at `.info`) when the scope ends, after the handler answered or threw.
///
/// A request with an `X-Session` header belongs to that session: its request scope is nested in the
/// session's scope (``SessionScopes``, bounded), which the session's first request begins and activates,
/// and whose once-action logs `session <id>: welcome`. A session id is 1 to 64 letters, digits, `-`, `_` or
/// `.`; another value is answered 400, and a new session when every kept session is in use by a request
/// 503, both still inside a request scope, so they are audited too. A request without the header has a
/// request scope with no parent.
///
/// Add it to the router before the routes: Hummingbird applies a middleware to the routes added after it
/// (and to the paths no route matches).
struct RequestScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The header that names a request's session, `X-Session`, as its canonical (lowercase) name.
    static var sessionHeader: String { "x-session" }

    /// The host's scopes (`host.scopes`).
    let scopes: ScopeRegistry
    /// The session scopes, shared with `SessionModule`, which ends them when the host terminates.
    let sessions: SessionScopes
    /// Where the behaviors write.
    let log: RequestLog

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let (method, path) = (request.method.rawValue, request.uri.path)
        // README: request-scope-middleware
        let sessionID = request.headers.first { $0.name.canonicalName == Self.sessionHeader }?.value
        // The session's scope, begun and active, held until the request is answered (never ended under it);
        // or a refusal: 400 for an invalid id, 503 when every session is in use.
        return try await sessions.withSession(sessionID) { session, refusal in
            let outcome = RequestOutcome()  // the status, for RequestAudit at the scope's end
            return try await scopes.withScope(
                .request,
                "\(method) \(path)",
                parent: session,
                adopting: RequestTiming(log: log),
                RequestAudit(method: method, path: path, outcome: outcome, log: log)
            ) { _ in
                do {
                    if let refusal { throw refusal }
                    let response = try await next(request, context)
                    outcome.record(response.status.code)
                    return response
                } catch {
                    outcome.record((error as? any HTTPResponseError)?.status.code ?? 500)
                    throw error
                }
            }
        }
        // README: end
    }
}
