import Hummingbird
import LifecycleScopes

/// Runs every request in a request scope named `<METHOD> <path>` (`GET /items/7`; the path without its
/// query), which adopts ``RequestTiming`` and ``RequestAudit``: their lines go to the transcript when the
/// scope ends, after the handler answered or threw.
///
/// A request with an `X-Session` header belongs to that session: its request scope is nested in the
/// session's scope (``SessionScopes``), which the session's first request begins and activates, and
/// whose once-action writes `session <id>: welcome`. A session id is 1 to 64 letters, digits, `-`, `_` or
/// `.`; another value is answered 400, still inside a request scope, so it is audited too. A request
/// without the header has a request scope with no parent.
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
    let transcript: Transcript

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let (method, path) = (request.method.rawValue, request.uri.path)
        // README: request-scope-middleware
        let sessionID = request.headers.first { $0.name.canonicalName == Self.sessionHeader }?.value
        let session = await sessionScope(sessionID)  // begun and active; its first request welcomes
        let outcome = RequestOutcome()  // the status, for RequestAudit at the scope's end
        return try await scopes.withScope(
            .request,
            "\(method) \(path)",
            parent: session,
            adopting: RequestTiming(transcript: transcript),
            RequestAudit(method: method, path: path, outcome: outcome, transcript: transcript)
        ) { _ in
            do {
                if let sessionID, !SessionScopes.isValidID(sessionID) {
                    throw HTTPError(.badRequest, message: "X-Session: 1 to 64 letters, digits, '-', '_' or '.'")
                }
                let response = try await next(request, context)
                outcome.record(response.status.code)
                return response
            } catch {
                outcome.record((error as? any HTTPResponseError)?.status.code ?? 500)
                throw error
            }
        }
        // README: end
    }

    /// The scope of session `id`, or `nil` for no id, an invalid one, or after the host terminated.
    private func sessionScope(_ id: String?) async -> Scope? {
        guard let id, SessionScopes.isValidID(id) else { return nil }
        return await sessions.session(id, in: scopes)
    }
}
