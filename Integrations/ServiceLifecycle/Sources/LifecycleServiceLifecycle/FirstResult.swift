import Synchronization

/// The first of the values offered from any task, awaited whether or not the waiting task is cancelled.
///
/// The service waits on one of these for the host's `terminate()`: the sequence runs in its own task and
/// offers what it got, and cancellation of the service offers a second value (nothing) once the deadline
/// has passed. Whichever comes first wins; later offers are ignored. Awaiting ``value`` is not cut short
/// by cancellation, which is the point: a cancelled service still waits, but only for as long as its
/// timer allows.
final class FirstResult<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Offers `value`; the first offer wins.
    func offer(_ value: Value) {
        let (waiters, timer) = state.withLock { state -> ([CheckedContinuation<Value, Never>], Task<Void, Never>?) in
            guard state.value == nil else { return ([], nil) }
            state.value = value
            defer {
                state.waiters = []
                state.timer = nil
            }
            return (state.waiters, state.timer)
        }
        timer?.cancel()
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// Offers `value` once `delay` has passed on `clock`, unless another value came first. Only the first
    /// timer started counts.
    func offer(_ value: Value, after delay: Duration, on clock: any Clock<Duration>) {
        let timer = Task {
            do {
                try await clock.sleep(for: delay)
            } catch {
                return  // cancelled: a value came first
            }
            self.offer(value)
        }
        let started = state.withLock { state in
            guard state.value == nil, state.timer == nil else { return false }
            state.timer = timer
            return true
        }
        if !started { timer.cancel() }
    }

    /// The first value offered, once there is one. Cancelling the waiting task does not end the wait.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Value? in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
