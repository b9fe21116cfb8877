import Synchronization

/// Which participants have finished launching, for ``ApplicationHost/waitUntilReady(file:line:)``.
///
/// A participant is ready when it has finished its last launch stage: its warm-up if it has one, else the
/// initialize stage. The host is ready when the warm-up stage has finished for everyone. If the host
/// terminates first, it will never be ready, and waiters are told so.
final class Readiness: Sendable {
    enum Outcome: Sendable {
        case ready
        case never(ApplicationState)
    }

    private struct State {
        var ready: Set<Int> = []
        var all = false
        var never: ApplicationState?
        var waiters: [(index: Int?, continuation: CheckedContinuation<Outcome, Never>)] = []
    }

    private let state = Mutex(State())

    /// Waits until `index` (or, for `nil`, everyone) is ready, or readiness becomes impossible.
    func wait(for index: Int?) async -> Outcome {
        await withCheckedContinuation { continuation in
            let now: Outcome? = state.withLock { state in
                if let never = state.never { return .never(never) }
                if state.all || index.map(state.ready.contains) == true { return .ready }
                state.waiters.append((index, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    func markReady(_ indices: some Sequence<Int>) {
        resume { state in state.ready.formUnion(indices) }
    }

    func markAllReady() {
        resume { state in state.all = true }
    }

    /// Launch failed or the host terminated before everyone was ready.
    func markNever(_ state: ApplicationState) {
        resume { storage in
            if !storage.all { storage.never = state }
        }
    }

    private func resume(_ update: (inout State) -> Void) {
        let due: [(CheckedContinuation<Outcome, Never>, Outcome)] = state.withLock { state in
            update(&state)
            var due: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
            state.waiters.removeAll { waiter in
                if let never = state.never {
                    due.append((waiter.continuation, .never(never)))
                    return true
                }
                if state.all || waiter.index.map(state.ready.contains) == true {
                    due.append((waiter.continuation, .ready))
                    return true
                }
                return false
            }
            return due
        }
        for (continuation, outcome) in due { continuation.resume(returning: outcome) }
    }
}
