import LifecycleWork
import Synchronization

/// The jobs the demo's ``QueueConsumerModule`` consumes: a queue the demo fills, which keeps what arrives
/// while the consumer is paused in the background.
public final class DemoJobQueue: Sendable {
    private struct State {
        var pending: [String] = []
        var inFlight = 0
        var waiter: CheckedContinuation<String?, Never>?
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Adds a job.
    public func enqueue(_ job: String) {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard let waiter = state.waiter else {
                state.pending.append(job)
                return nil
            }
            state.waiter = nil
            state.inFlight += 1
            return waiter
        }
        waiter?.resume(returning: job)
    }

    /// The jobs waiting for the consumer.
    public var waiting: Int { state.withLock { $0.pending.count } }

    /// Returns once no job waits and none is being processed.
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                guard state.pending.isEmpty, state.inFlight == 0 else {
                    state.idleWaiters.append(continuation)
                    return false
                }
                return true
            }
            if idle { continuation.resume() }
        }
    }

    /// The next job, or `nil` once the work is asked to stop.
    func next(_ context: WorkContext) async -> String? {
        await context.withGracefulShutdownHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                // Read under the queue's lock, so a stop requested meanwhile either is seen here or finds
                // the waiter to wake.
                let now: String?? = state.withLock { state in
                    if context.isShuttingDown { return .some(nil) }
                    guard !state.pending.isEmpty else {
                        state.waiter = continuation
                        return nil
                    }
                    state.inFlight += 1
                    return .some(state.pending.removeFirst())
                }
                if let now { continuation.resume(returning: now) }
            }
        } onGracefulShutdown: {
            let waiter = self.state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// The consumer finished a job it took with ``next(_:)``.
    func done() {
        let idle = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.inFlight -= 1
            guard state.pending.isEmpty, state.inFlight == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in idle { waiter.resume() }
    }
}
