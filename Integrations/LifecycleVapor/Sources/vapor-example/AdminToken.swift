import Vapor

/// Guards the operator's routes: a request must carry `Authorization: Bearer <token>`, with the token from
/// the environment variable `ADMIN_TOKEN`. Without it, the admin routes answer 403 to everyone.
struct AdminToken: Middleware {
    let token: String?

    /// A guard that accepts `token`; none when it is `nil` or empty.
    init(_ token: String?) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    }

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard let token, request.headers.bearerAuthorization?.token == token else {
            return request.eventLoop.makeFailedFuture(Abort(.forbidden, reason: "admin token required"))
        }
        return next.respond(to: request)
    }
}
