import LifecycleCore

/// A work run's graceful-shutdown signal: requested once, by the host, and awaited or handled by the
/// work (``WorkContext/gracefulShutdown()``, ``WorkContext/withGracefulShutdownHandler(operation:onGracefulShutdown:)``).
final class GracefulShutdown: Sendable {
    private struct State {
        var requested = false
        var nextID = 0
        /// The first waiter, apart from the others: a work almost always has one, which then costs no
        /// dictionary.
        var first: (id: Int, continuation: CheckedContinuation<Void, Never>)?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var handlers: [Int: @Sendable () -> Void] = [:]
        /// Waits cancelled before they began waiting.
        var cancelledEarly: Set<Int> = []
    }

    private let state = Locked(State())

    /// Whether shutdown was requested.
    var isRequested: Bool { state.withLock { $0.requested } }

    /// Requests shutdown: wakes every waiter and runs every handler, once.
    func request() {
        let (first, waiters, handlers) = state.withLock {
            state -> (CheckedContinuation<Void, Never>?, [CheckedContinuation<Void, Never>], [@Sendable () -> Void]) in
            guard !state.requested else { return (nil, [], []) }
            state.requested = true
            defer {
                state.first = nil
                state.waiters = [:]
                state.handlers = [:]
            }
            return (
                state.first?.continuation,
                state.waiters.isEmpty ? [] : Array(state.waiters.values),
                state.handlers.isEmpty ? [] : Array(state.handlers.values)
            )
        }
        first?.resume()
        for waiter in waiters { waiter.resume() }
        for handler in handlers { handler() }
    }

    /// Returns once shutdown is requested, or the waiting task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.requested || (!state.cancelledEarly.isEmpty && state.cancelledEarly.remove(id) != nil) {
                        return true
                    }
                    if state.first == nil {
                        state.first = (id, continuation)
                    } else {
                        state.waiters[id] = continuation
                    }
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let first = state.first, first.id == id {
                    state.first = nil
                    return first.continuation
                }
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    if !state.requested { state.cancelledEarly.insert(id) }
                    return nil
                }
                return waiter
            }
            waiter?.resume()
        }
    }

    /// Runs `handler` when shutdown is requested (at once if it was); returns the registration to remove,
    /// or `nil` when it ran already.
    func onRequest(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let id: Int? = state.withLock { state in
            guard !state.requested else { return nil }
            defer { state.nextID += 1 }
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        if id == nil { handler() }
        return id
    }

    func removeHandler(_ id: Int) {
        state.withLock { _ = $0.handlers.removeValue(forKey: id) }
    }
}
