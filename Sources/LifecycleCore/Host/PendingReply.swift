/// The one-shot answer to an awaited request: resolved by the job when it completes, or earlier by the
/// waiting task's cancellation — whichever comes first. The job still runs after a cancellation.
final class PendingReply<Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, LifecycleError>

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var early: Outcome?
        var resolved = false
    }

    private let state = Locked(State())

    /// Waits for the outcome.
    func wait(_ continuation: CheckedContinuation<Outcome, Never>) {
        let early: Outcome? = state.withLock { state in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.resolved = true
            return early
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Resolves the reply, once. Returns `false` if it was already resolved (the waiter was cancelled).
    @discardableResult
    func resolve(_ outcome: Outcome) -> Bool {
        let continuation: CheckedContinuation<Outcome, Never>?
        let accepted: Bool
        (continuation, accepted) = state.withLock { state in
            guard !state.resolved, state.early == nil else { return (nil, false) }
            guard let continuation = state.continuation else {
                state.early = outcome
                return (nil, true)
            }
            state.resolved = true
            state.continuation = nil
            return (continuation, true)
        }
        continuation?.resume(returning: outcome)
        return accepted
    }
}
