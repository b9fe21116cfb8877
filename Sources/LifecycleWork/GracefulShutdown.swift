import LifecycleCore

/// A work run's graceful-shutdown signal: requested once, by the host, and awaited or handled by the
/// work (``WorkContext/gracefulShutdown()``, ``WorkContext/withGracefulShutdownHandler(operation:onGracefulShutdown:)``).
final class GracefulShutdown: Sendable {
    private struct State {
        var requested = false
        var nextID = 0
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
        let (waiters, handlers) = state.withLock { state in
            guard !state.requested else { return ([CheckedContinuation<Void, Never>](), [@Sendable () -> Void]()) }
            state.requested = true
            defer {
                state.waiters = [:]
                state.handlers = [:]
            }
            return (Array(state.waiters.values), Array(state.handlers.values))
        }
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
                    if state.requested || state.cancelledEarly.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    if !state.requested { state.cancelledEarly.insert(id) }
                    return nil as CheckedContinuation<Void, Never>?
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
