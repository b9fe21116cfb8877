import Dispatch

/// Deadlines on a clock, all watched by one waker: the package's one timer.
///
/// Whatever has a time limit (a hook's budget, a warm-up's, a message's, an interceptor's, a scope's end,
/// a listener's lifetime, the runner's shutdown limit) arms a deadline here, with what to do when it
/// passes, and disarms it when it finishes first. Arming costs a short critical section and a heap entry:
/// no task and no timer of its own. Arming with a ``DeadlineTarget`` (an object and a tag) allocates
/// nothing; arming with a closure allocates its context.
///
/// When a deadline passes, what it was armed with is called with the clock's time, outside the lock. It
/// either does what expiring means and returns `nil`, or returns a later deadline to be watched until: a
/// deadline that moves (the hook in progress of a delivery) is read when it is due, not each time it
/// moves. It must be quick and must not wait: it settles a ``OneShot``, cancels a task or starts one.
/// Deadlines that pass together are handled earliest first, then in the order they were armed.
///
/// Generic over its clock, as Hummingbird's drivers are: a host's watchdog runs on the host's configured
/// clock (``HostClock``), so a test that passes a `VirtualClock` moves every time limit of the host. How
/// it wakes up is ``Waking``: a Dispatch timer for a clock that runs in real time, a task sleeping on the
/// clock for any other.
package final class Watchdog<C: Clock>: Sendable where C.Duration == Duration {
    /// What to do when a deadline passes: expire and return `nil`, or return a later deadline.
    package typealias Passed = @Sendable (_ now: C.Instant) -> C.Instant?

    /// How a watchdog wakes up when a deadline is due.
    package enum Waking: Sendable {
        /// A task sleeps on the clock until the earliest deadline; a deadline earlier than that one replaces
        /// it, and it ends as soon as nothing is armed, so nothing sleeps on the clock then (a test waiting
        /// for a sleeper on its `VirtualClock` waits for what it armed). Works with any clock.
        case sleepingTask
        /// A Dispatch timer, rescheduled in place, no task: for a clock that runs in real time, as the
        /// continuous clock does. Deadlines pass on a Dispatch thread, so they are met even while every
        /// cooperative thread is busy. Its instants are mapped to Dispatch time by their distance from now.
        case dispatchTimer
    }

    /// An armed deadline, to disarm.
    package struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private enum Callback {
        case closure(Passed)
        case target(any DeadlineTarget<C.Instant>, Int)

        func call(_ now: C.Instant) -> C.Instant? {
            switch self {
            case .closure(let passed): passed(now)
            case .target(let target, let tag): target.deadlinePassed(tag, at: now)
            }
        }
    }

    private struct Entry {
        var deadline: C.Instant
        let callback: Callback
        /// Taken off the heap, its callback in progress: a `nil` answer or a disarm removes it.
        var firing = false
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var heap = DeadlineHeap<C.Instant>()
        var nextToken: UInt64 = 0
        /// The sleeping task, under ``Waking/sleepingTask``: which one is current, the task, whether one
        /// runs, and when it means to wake up (`nil` while it is awake).
        var generation = 0
        var task: Task<Void, Never>?
        var running = false
        /// When the waker is due: the sleeping task's wake-up, or the Dispatch timer's deadline.
        var wake: C.Instant?

        /// Supersedes the sleeping task, if one runs: it ends at its next look, or now if it is cancelled.
        /// Returns it, to cancel, if it is known yet (else `launch` cancels it once it is).
        mutating func supersede() -> Task<Void, Never>? {
            generation += 1
            wake = nil
            defer { task = nil }
            return task
        }
    }

    package let clock: C
    private let waking: Waking
    private let state = Locked(State())
    /// The Dispatch timer, under ``Waking/dispatchTimer``.
    private let timer: DispatchSource?

    package init(clock: C, waking: Waking = .sleepingTask) {
        self.clock = clock
        self.waking = waking
        switch waking {
        case .sleepingTask:
            timer = nil
        case .dispatchTimer:
            // A `DispatchSource` is a `DispatchSourceTimer` on every platform; the class is `Sendable`.
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .userInitiated)) as? DispatchSource
            self.timer = timer
        }
        timer?.setEventHandler { [weak self] in self?.timerFired() }
        timer?.activate()
    }

    deinit {
        timer?.cancel()
    }

    /// Watches `deadline`: `passed` is called once it has passed, unless ``disarm(_:)`` comes first.
    @discardableResult
    package func arm(at deadline: C.Instant, _ passed: @escaping Passed) -> Token {
        arm(deadline, .closure(passed))
    }

    /// Watches the time `duration` from now.
    @discardableResult
    package func arm(after duration: Duration, _ passed: @escaping Passed) -> Token {
        arm(clock.now.advanced(by: duration), .closure(passed))
    }

    /// Watches `deadline`: `target` is told, with `tag`, once it has passed, unless ``disarm(_:)`` comes
    /// first. Allocates nothing.
    @discardableResult
    package func arm(at deadline: C.Instant, _ target: any DeadlineTarget<C.Instant>, tag: Int = 0) -> Token {
        arm(deadline, .target(target, tag))
    }

    private func arm(_ deadline: C.Instant, _ callback: Callback) -> Token {
        let (token, start, superseded): (UInt64, Int?, Task<Void, Never>?) = state.withLock { state in
            state.nextToken += 1
            let token = state.nextToken
            state.entries[token] = Entry(deadline: deadline, callback: callback)
            state.heap.insert(deadline, token)
            if let timer {
                // Rescheduled under the lock, so two arms racing cannot leave the later deadline scheduled.
                if state.wake.map({ deadline < $0 }) ?? true {
                    state.wake = deadline
                    schedule(timer, at: deadline)
                }
                return (token, nil, nil)
            }
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

    /// Stops watching: nothing is called for it from now on (a call already in progress may still finish).
    /// Under ``Waking/sleepingTask``, disarming the last deadline ends the sleeping task.
    package func disarm(_ token: Token) {
        let idle: Task<Void, Never>? = state.withLock { state in
            guard state.entries.removeValue(forKey: token.value) != nil else { return nil }
            guard !state.entries.isEmpty else {
                state.heap.removeAll()
                // A Dispatch timer fires once more and finds nothing. An asleep task ends now; awake, it finds
                // nothing armed and ends by itself.
                guard timer == nil, state.running, state.wake != nil else { return nil }
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

    // MARK: Firing

    /// Takes every deadline due at `now` off the heap; the earliest one still to come, if none is due.
    private func takeDue(_ state: inout State, at now: C.Instant) -> [(token: UInt64, callback: Callback)] {
        var due: [(token: UInt64, callback: Callback)] = []
        while let first = state.heap.first {
            guard let entry = state.entries[first.token], !entry.firing, entry.deadline == first.due else {
                state.heap.removeFirst()  // disarmed, or moved
                continue
            }
            guard first.due <= now else { break }
            state.heap.removeFirst()
            state.entries[first.token]?.firing = true
            due.append((first.token, entry.callback))
        }
        return due
    }

    /// Calls what the due deadlines were armed with, and watches the later deadlines they return.
    private func fire(_ due: [(token: UInt64, callback: Callback)], at now: C.Instant) {
        for (token, callback) in due {
            let later = callback.call(now)
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
    }

    // MARK: Waking with a Dispatch timer

    private func schedule(_ timer: DispatchSource, at deadline: C.Instant) {
        let wait = max(clock.now.duration(to: deadline), .zero)
        let (seconds, attoseconds) = wait.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        (timer as any DispatchSourceTimer).schedule(
            deadline: .now() + .nanoseconds(nanoseconds),
            leeway: .nanoseconds(0)
        )
    }

    /// The Dispatch timer's handler: fires what is due, then schedules the next deadline, if any. Dispatch
    /// runs one handler of a source at a time.
    private func timerFired() {
        guard let timer else { return }
        while true {
            let now = clock.now
            let due = state.withLock { state in
                state.wake = nil
                return takeDue(&state, at: now)
            }
            if !due.isEmpty {
                fire(due, at: now)
                continue
            }
            // Early (Dispatch time and the clock may drift apart), or nothing left: schedule what remains.
            state.withLock { state in
                guard let next = state.heap.first?.due else { return }
                if state.wake.map({ next < $0 }) ?? true {
                    state.wake = next
                    schedule(timer, at: next)
                }
            }
            return
        }
    }

    // MARK: Waking with a sleeping task

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
        case fire([(token: UInt64, callback: Callback)], C.Instant)
        case sleep(C.Instant)
        case end
    }

    /// The sleeping task: fires what is due, sleeps until the next deadline, and ends when none is armed
    /// or a newer task replaced it.
    private func watch(_ generation: Int) async {
        while true {
            let now = clock.now
            let step: Step = state.withLock { state in
                guard state.generation == generation else { return .end }
                let due = takeDue(&state, at: now)
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
                fire(due, at: now)
            case .sleep(let wake):
                do {
                    try await clock.sleep(until: wake, tolerance: nil)
                } catch {
                    return  // cancelled: a task that wakes earlier replaced this one, or nothing is armed
                }
            }
        }
    }
}

/// An object told when a deadline it armed on a ``Watchdog`` has passed: arming one allocates nothing, as
/// a closure's context would.
package protocol DeadlineTarget<Instant>: AnyObject, Sendable {
    associatedtype Instant: InstantProtocol
    /// The deadline armed with `tag` passed at `now`: expire and return `nil`, or return a later deadline.
    func deadlinePassed(_ tag: Int, at now: Instant) -> Instant?
}
