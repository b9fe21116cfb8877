import Synchronization

/// What a request was answered: the status ``RequestScopeMiddleware`` records once the handler has answered
/// or thrown, and ``RequestAudit`` reads when the request scope ends. Made per request by the middleware,
/// and handed to the audit behavior it adopts, since the status is known only after the scope has begun.
final class RequestOutcome: Sendable {
    private let recorded = Mutex<Int?>(nil)

    /// Records the status code of the answer.
    func record(_ status: Int) {
        recorded.withLock { $0 = status }
    }

    /// The status code recorded, or `nil` if the request has not been answered.
    var status: Int? { recorded.withLock { $0 } }
}
