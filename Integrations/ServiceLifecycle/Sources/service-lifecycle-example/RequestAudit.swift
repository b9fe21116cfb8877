import LifecycleScopes

/// A request scope's audit: when the scope ends, it logs `audit <METHOD> <path> <status>`, and
/// ` session <id>` for a request of a session, to the request log (``RequestLog``, at `.info`). The middleware gives it the method and path, and the
/// ``RequestOutcome`` it records the status in; the session is the scope's parent, which the audit keeps
/// when the scope begins.
struct RequestAudit: ScopeBehavior {
    /// The request's method, such as `GET`.
    let method: String
    /// The request's path, without its query.
    let path: String
    /// Where the middleware records the status.
    let outcome: RequestOutcome
    /// Where the line goes.
    let log: RequestLog
    /// The session the request belongs to: the name of the scope's parent if it is a session scope, kept
    /// at `didBegin`.
    private(set) var session: String?

    /// An audit of `method` `path`, whose status `outcome` will hold, that writes to `log`.
    init(method: String, path: String, outcome: RequestOutcome, log: RequestLog) {
        self.method = method
        self.path = path
        self.outcome = outcome
        self.log = log
    }

    mutating func didBegin(_ scope: Scope) {
        session = scope.parent.flatMap { $0.kind == .session ? $0.name : nil }
    }

    func willEnd(_ scope: Scope) {
        log.write(
            "audit \(method) \(path) \(outcome.status.map(String.init) ?? "unanswered")\(session.map { " session \($0)" } ?? "")"
        )
    }
}
