/// Deadlines on a clock, watched by one task: the package's one timer.
///
/// Whatever has a time limit (a hook's budget, a warm-up's, a message's, an interceptor's, a scope's end,
/// a listener's lifetime) arms a deadline here, with what to do when it passes, and disarms it when it
/// finishes first. One task sleeps until the earliest deadline armed. It starts with the first deadline,
/// sleeps on the watchdog's clock, and ends as soon as nothing is armed, so an idle host runs no task and
/// sleeps on no clock. Arming costs a short critical section and a heap entry: no task and no timer of its own. Only a
/// deadline earlier than the one the task sleeps until replaces the task, which then sleeps less.
///
/// When a deadline passes, its `passed` closure is called with the clock's time, in the watchdog's task
/// and outside its lock. It either does what expiring means and returns `nil`, or returns a later
/// deadline to be watched until: a deadline that moves (the hook in progress of a delivery) is read when
/// it is due, not each time it moves. `passed` must be quick and must not wait: it settles a ``OneShot``,
/// cancels a task or starts one. Deadlines that pass together are handled earliest first, then in the
/// order they were armed.
///
/// Generic over its clock, as Hummingbird's drivers are: a host's watchdog runs on the host's configured
/// clock (``HostClock``), so a test that passes a `VirtualClock` moves every time limit of the host.
package final class Watchdog<C: Clock>: Sendable where C.Duration == Duration {
    /// What to do when a deadline passes: expire and return `nil`, or return a later deadline.
    package typealias Passed = @Sendable (_ now: C.Instant) -> C.Instant?

    /// An armed deadline, to disarm.
    package struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct Entry {
        var deadline: C.Instant
        let passed: Passed
        /// Taken off the heap, its `passed` in progress: a `nil` answer or a disarm removes it.
        var firing = false
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var heap = DeadlineHeap<C.Instant>()
        var nextToken: UInt64 = 0
        /// The task that watches, if one runs, and when it means to wake up (`nil` while it is awake).
        var generation = 0
        var task: Task<Void, Never>?
        var running = false
        var wake: C.Instant?

        /// Supersedes the watching task, if one runs: it ends at its next look, or now if it is cancelled.
        /// Returns it, to cancel, if it is known yet (else `launch` cancels it once it is).
        mutating func supersede() -> Task<Void, Never>? {
            generation += 1
            wake = nil
            defer { task = nil }
            return task
        }
    }

    package let clock: C
    private let state = Locked(State())

    package init(clock: C) {
        self.clock = clock
    }

    /// Watches `deadline`: `passed` is called once it has passed, unless ``disarm(_:)`` comes first.
    @discardableResult
    package func arm(at deadline: C.Instant, _ passed: @escaping Passed) -> Token {
        let (token, start, superseded): (UInt64, Int?, Task<Void, Never>?) = state.withLock { state in
            state.nextToken += 1
            let token = state.nextToken
            state.entries[token] = Entry(deadline: deadline, passed: passed)
            state.heap.insert(deadline, token)
            if !state.running {
                state.running = true
                _ = state.supersede()
                return (token, state.generation, nil)
            }
            // The task sleeps past this deadline: a new one replaces it. Awake, it finds the entry itself.
            guard let wake = state.wake, deadline < wake else { return (token, nil, nil) }
            let superseded = state.supersede()
            return (token, state.generation, superseded)
        }
        if let start { launch(start) }
        superseded?.cancel()
        return Token(value: token)
    }

    /// Watches the time `duration` from now.
    @discardableResult
    package func arm(after duration: Duration, _ passed: @escaping Passed) -> Token {
        arm(at: clock.now.advanced(by: duration), passed)
    }

    /// Stops watching: `passed` is not called from now on (a call already in progress may still finish).
    /// Disarming the last deadline ends the watching task, so nothing sleeps on the clock while nothing
    /// is watched (a test that waits for a sleeper on its `VirtualClock` waits for what it armed).
    package func disarm(_ token: Token) {
        let idle: Task<Void, Never>? = state.withLock { state in
            guard state.entries.removeValue(forKey: token.value) != nil else { return nil }
            guard !state.entries.isEmpty else {
                state.heap = DeadlineHeap()
                // Asleep: it ends now. Awake, it finds nothing armed and ends by itself.
                guard state.running, state.wake != nil else { return nil }
                state.running = false
                return state.supersede()
            }
            // Disarmed entries leave the heap when they come to the top; many at once are dropped in bulk.
            if state.heap.count > 2 * state.entries.count + 64 {
                state.heap.compact { state.entries[$0].map { !$0.firing } ?? false }
            }
            return nil
        }
        idle?.cancel()
    }

    /// How many deadlines are armed.
    package var armedCount: Int { state.withLock { $0.entries.count } }

    private func launch(_ generation: Int) {
        // At the highest priority: the watchdog must get a thread even while the work it watches spins, and
        // `Task.yield()` gives way only to tasks of its own priority or higher.
        let task = Task.detached(name: "ModuleLifecycle watchdog", priority: .high) { await self.watch(generation) }
        let superseded = state.withLock { state in
            guard state.generation == generation else { return true }
            state.task = task
            return false
        }
        // Replaced or idle before it was known: it may already sleep, and must not linger on the clock.
        if superseded { task.cancel() }
    }

    private enum Step {
        case fire([(token: UInt64, passed: Passed)], C.Instant)
        case sleep(C.Instant)
        case end
    }

    /// The watching task: fires what is due, sleeps until the next deadline, and ends when none is armed
    /// or a newer task replaced it.
    private func watch(_ generation: Int) async {
        while true {
            let now = clock.now
            let step: Step = state.withLock { state in
                guard state.generation == generation else { return .end }
                var due: [(token: UInt64, passed: Passed)] = []
                while let first = state.heap.first {
                    guard let entry = state.entries[first.token], !entry.firing, entry.deadline == first.due else {
                        state.heap.removeFirst()  // disarmed, or moved
                        continue
                    }
                    guard first.due <= now else { break }
                    state.heap.removeFirst()
                    state.entries[first.token]?.firing = true
                    due.append((first.token, entry.passed))
                }
                if !due.isEmpty {
                    state.wake = nil
                    return .fire(due, now)
                }
                guard let next = state.heap.first?.due else {
                    state.running = false
                    state.wake = nil
                    state.task = nil
                    return .end
                }
                state.wake = next
                return .sleep(next)
            }
            switch step {
            case .end:
                return
            case .fire(let due, let now):
                for (token, passed) in due {
                    let later = passed(now)
                    state.withLock { state in
                        guard state.entries[token] != nil else { return }  // disarmed meanwhile
                        guard let later else {
                            state.entries[token] = nil
                            return
                        }
                        state.entries[token]?.deadline = later
                        state.entries[token]?.firing = false
                        state.heap.insert(later, token)
                    }
                }
            case .sleep(let wake):
                do {
                    try await clock.sleep(until: wake, tolerance: nil)
                } catch {
                    return  // cancelled: a task that wakes earlier replaced this one
                }
            }
        }
    }
}
