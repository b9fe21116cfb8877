/// Where a budgeted call meets its sender: the first of the answer and the deadline settles it, once,
/// whether it comes before or after the sender waits.
package final class Settlement<R: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<R, any Error>)
        case outcome(Result<R, any Error>)
        case finished
    }

    private let state = Locked(State.empty)

    package init() {}

    /// Settles with `result`, unless settled already.
    package func finish(_ result: Result<R, any Error>) {
        let continuation: CheckedContinuation<R, any Error>? = state.withLock { state in
            switch state {
            case .empty:
                state = .outcome(result)
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .outcome, .finished:
                return nil
            }
        }
        continuation?.resume(with: result)
    }

    /// Waits for the settlement.
    package func wait() async throws -> R {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<R, any Error>) in
            let early: Result<R, any Error>? = state.withLock { state in
                if case .outcome(let result) = state {
                    state = .finished
                    return result
                }
                state = .waiting(continuation)
                return nil
            }
            if let early { continuation.resume(with: early) }
        }
    }
}
