/// A value that is settled once and awaited once: the first of several racing parties (a job that
/// completes, a deadline that passes, a waiter that is cancelled) settles it, and the others learn they
/// came too late.
///
/// It is the package's one one-shot reply: the host's answer to an awaited request, a supervised
/// operation's result or timeout, and every other "first of these settles it" meet here. Settling before
/// the waiter arrives is fine: the value is kept until it does.
package final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Value, Never>)
        case settled(Value)
        case taken
    }

    private let state = Locked(State.empty)

    package init() {}

    /// Settles with `value`, unless something settled it first. Returns whether this call settled it.
    @discardableResult
    package func settle(_ value: Value) -> Bool {
        let (accepted, waiter): (Bool, CheckedContinuation<Value, Never>?) = state.withLock { state in
            switch state {
            case .empty:
                state = .settled(value)
                return (true, nil)
            case .waiting(let continuation):
                state = .taken
                return (true, continuation)
            case .settled, .taken:
                return (false, nil)
            }
        }
        waiter?.resume(returning: value)
        return accepted
    }

    /// Whether it was settled.
    package var isSettled: Bool {
        state.withLock { state in
            if case .empty = state { return false }
            if case .waiting = state { return false }
            return true
        }
    }

    /// Whether a waiter waits for the value now.
    package var isWaiting: Bool {
        state.withLock { state in
            if case .waiting = state { return true }
            return false
        }
    }

    /// Waits for the value. One waiter only.
    package func value() async -> Value {
        #if LIFECYCLE_TSAN
        // The settling thread resumes the waiter after releasing the lock, and the sanitizer does not see the
        // runtime hand the task over: taking the lock once more makes the hand-over (everything the settler
        // wrote before settling) visible to it. Sanitizer builds only; the runtime orders it in every build.
        defer { state.withLock { _ in } }
        #endif
        return await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let early: Value? = state.withLock { state in
                guard case .settled(let value) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .taken
                return value
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    /// Waits for the value; if the waiting task is cancelled first, settles with `cancelled()` instead,
    /// so the wait ends at once. Whatever settles later is refused.
    package func value(orOnCancel cancelled: @escaping @Sendable () -> Value) async -> Value {
        await withTaskCancellationHandler {
            await value()
        } onCancel: {
            settle(cancelled())
        }
    }
}
