import LifecycleCore

/// A clock whose time moves only when a test advances it, so tests of time limits run instantly and
/// deterministically.
///
/// Given to a host as `Configuration.clock`, it times every limit of the host and of what is built on it:
/// hook budgets and the terminate deadline, message budgets, interceptor budgets, scope end budgets,
/// listeners' lifetimes, `HostRunner`'s drain delay and shutdown limit, and `HostLiveness`'s interval. They
/// are all deadlines on the host's one watchdog, which sleeps on this clock only while something is armed:
/// ``waitForSleepers(_:)`` returns once what the test started is being watched.
///
/// ```swift
/// let clock = VirtualClock()
/// let host = try ApplicationHost(manifest: manifest, configuration: .init(clock: clock, hookBudget: .seconds(1)))
/// let launch = Task { try await host.launch() }
/// await clock.waitForSleepers(1)   // the host's watchdog is waiting on the budget
/// clock.advance(by: .seconds(2))   // the hook in progress is now over budget
/// ```
public final class VirtualClock: Clock, Sendable {
    /// A point on a ``VirtualClock``: the time since the clock was created.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        public let offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
        /// Sleeps cancelled before they registered: they must not register afterwards.
        var cancelledEarly: Set<Int> = []
        var sleepCalls = 0
    }

    private let state = Locked(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// How many times anything has slept on this clock, cancelled sleeps included.
    public var totalSleepCalls: Int { state.withLock { $0.sleepCalls } }

    /// Suspends until the clock has been advanced to `deadline`, or the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer {
                state.nextID += 1
                state.sleepCalls += 1
            }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Now { case wait, resume, cancel }
                let now: Now = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return .cancel }
                    if deadline <= state.now { return .resume }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .wait
                }
                switch now {
                case .wait: break
                case .resume: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let cancelled: Sleeper? = state.withLock { state in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)  // not registered yet: refuse it when it tries
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` (negative durations are ignored) and wakes every sleeper whose
    /// deadline has passed, earliest deadline first. Time jumps straight to the end: sleepers woken here all
    /// see the final time.
    public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        let due: [Sleeper] = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on the clock: the moment to advance it.
    public func waitForSleepers(_ count: Int) async {
        while sleeperCount < count { await Task.yield() }
    }
}
