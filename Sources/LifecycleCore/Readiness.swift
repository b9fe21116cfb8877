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
        case cancelled
    }

    private struct State {
        var ready: Set<Int> = []
        var all = false
        var never: ApplicationState?
        var waiters: [(id: Int, index: Int?, continuation: CheckedContinuation<Outcome, Never>)] = []
        var nextID = 0
        var cancelledEarly: Set<Int> = []
    }

    private let state = Mutex(State())

    /// Waits until `index` (or, for `nil`, everyone) is ready, readiness becomes impossible, or the waiting
    /// task is cancelled.
    func wait(for index: Int?) async -> Outcome {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Outcome? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return .cancelled }
                    if let never = state.never { return .never(never) }
                    if state.all || index.map(state.ready.contains) == true { return .ready }
                    state.waiters.append((id, index, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let position = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil as CheckedContinuation<Outcome, Never>?
                }
                return state.waiters.remove(at: position).continuation
            }
            waiter?.resume(returning: .cancelled)
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
