/// The deadline of a supervised operation made of steps with budgets of their own, such as an interceptor
/// chain: each step sets the deadline when it begins and clears it when it ends
/// (``HostWatchdog/supervise(steps:)``). On the host's clock: it is not generic, so the router's calls of
/// it, once per interceptor, are direct.
///
/// The watchdog is armed when the first step begins and reads the step in progress when it is due: a step
/// past its deadline starts the escalation; otherwise it is looked at again at that step's deadline. With
/// no step in progress, nothing is watched until the next one begins.
package final class StepDeadline: DeadlineTarget, Sendable {
    package typealias C = HostClock

    /// A step: what it is called, and how long it may take.
    package struct Step: Sendable, Equatable {
        package let name: String
        package let budget: Duration

        package init(name: String, budget: Duration) {
            self.name = name
            self.budget = budget
        }
    }

    private struct State {
        var current: (step: Step, deadline: C.Instant)?
        /// The watchdog's entry, while one is armed: which one, and when it is due.
        var armed: (generation: Int, at: C.Instant)?
        var generation = 0
        var token: Watchdog<C>.Token?
        /// The step that ran past its deadline, if one did.
        var overrun: Step?
        var finished = false
    }

    private let watchdog: Watchdog<C>
    private let run: any StepEscalating
    private let state = Locked(State())

    init(watchdog: Watchdog<C>, run: some StepEscalating) {
        self.watchdog = watchdog
        self.run = run
    }

    /// The step `step` begins now. Arms the watchdog if nothing is armed, or re-arms it if this step is due
    /// sooner than what is armed (a short budget after a long one).
    package func begin(_ step: Step) {
        let deadline = watchdog.clock.now.advanced(by: step.budget)
        let (arm, replaced): (Int?, Watchdog<C>.Token?) = state.withLock { state in
            state.current = (step, deadline)
            guard !state.finished, state.armed.map({ deadline < $0.at }) ?? true else { return (nil, nil) }
            state.generation += 1
            state.armed = (state.generation, deadline)
            defer { state.token = nil }
            return (state.generation, state.token)
        }
        if let replaced { watchdog.disarm(replaced) }
        guard let generation = arm else { return }
        let token = watchdog.arm(at: deadline, self, tag: generation)
        let stale: Bool = state.withLock { state in
            guard !state.finished, state.armed?.generation == generation else { return true }
            state.token = token
            return false
        }
        if stale { watchdog.disarm(token) }
    }

    /// The step in progress ended. `true` if it had run past its deadline by then: the operation is
    /// abandoned already, and must not act on what the step did.
    package func end() -> Bool {
        state.withLock { state in
            state.current = nil
            return state.overrun != nil
        }
    }

    /// The step that ran past its deadline, if one did.
    package var overrun: Step? { state.withLock { $0.overrun } }

    /// The operation is over: nothing is watched any more.
    func finish() {
        let token: Watchdog<C>.Token? = state.withLock { state in
            state.finished = true
            state.armed = nil
            defer { state.token = nil }
            return state.token
        }
        if let token { watchdog.disarm(token) }
    }

    private enum Look {
        case stop
        case later(C.Instant)
        case overrun
    }

    /// The watchdog's look, when the entry of `generation` is due.
    package func deadlinePassed(_ generation: Int, at now: C.Instant) -> C.Instant? {
        if run.isEscalating { return run.escalate(at: now) }
        let look: Look = state.withLock { state in
            guard !state.finished, state.armed?.generation == generation else { return .stop }  // replaced
            guard let current = state.current else {
                // Nothing to watch until the next step begins, which arms anew.
                state.armed = nil
                state.token = nil
                return .stop
            }
            guard now >= current.deadline else {
                state.armed?.at = current.deadline
                return .later(current.deadline)
            }
            state.overrun = current.step
            return .overrun
        }
        switch look {
        case .stop: return nil
        case .later(let deadline): return deadline
        case .overrun: return run.escalate(at: now)
        }
    }
}

/// What a ``StepDeadline`` escalates: its supervised run.
protocol StepEscalating: Sendable {
    var isEscalating: Bool { get }
    func escalate(at now: HostClock.Instant) -> HostClock.Instant?
}

extension SupervisedRun: StepEscalating where C == HostClock {}
