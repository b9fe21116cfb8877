/// The bookkeeping of one warm-up stage, kept under ``WarmUpControl``'s lock: what waits, what runs in
/// which runner, the deadlines in flight, and what starting or stopping leaves to do outside the lock.
extension WarmUpControl {
    struct State {
        /// How many warm-ups each position still waits for.
        var waiting: [Int]
        /// Whether each position's hook is in flight: started, and neither returned, abandoned, left nor
        /// stopped.
        var running: [Bool]
        /// Whether each position counts as finished: its hook returned or timed out, or it left.
        var finished: [Bool]
        var finishedCount = 0
        /// The positions of participants removed from the host during the stage.
        var left: [Bool]
        /// When each hook started, on the configured clock and on the wall clock.
        var started: [Duration]
        var wallStarts: [Duration]
        /// The runner task each position runs in, as an index into `runners`.
        var runnerOf: [Int]
        /// Runner tasks, once created; `cancelRequested` marks one to cancel as soon as it is.
        var runners: [Task<Void, Never>?] = []
        var cancelRequested: [Bool] = []
        /// The host watchdog's deadline of each budgeted hook in flight, once armed.
        var watches: [Watchdog<HostClock>.Token?]
        /// Hooks abandoned on a timeout that the stage has not taken yet, and the stage waiting.
        var timeouts: [Timeout] = []
        var stage: Waiter?
        /// Runners waiting for a hook, with their slots: a released hook goes to one of them before a new
        /// runner task is made for it.
        var idle: [(runner: Int, waiter: RunnerWaiter)] = []
        /// Runners between taking a hook's return and finishing its report.
        var reporting = 0
        var failures: [(Int, HookFailure)] = []
        var stopFailure: HookFailure?
        var stopped = false
        var fromOutside = true

        /// Whether the stage is over: every hook finished or the stage stopped, and no report is pending.
        var isOver: Bool { (stopped || finishedCount == finished.count) && reporting == 0 }

        /// The stage, taken out, if it waits and has something to do.
        mutating func stageToWake() -> Waiter? {
            guard stage != nil, isOver || (!timeouts.isEmpty && !stopped) else { return nil }
            defer { stage = nil }
            return stage
        }

        /// A new runner slot.
        mutating func newRunner() -> Int {
            runners.append(nil)
            cancelRequested.append(false)
            return runners.count - 1
        }

        /// Takes the hook at `position` out of flight, returning its runner to cancel if it is known (else
        /// it is cancelled once it is).
        mutating func abandon(_ position: Int) -> Task<Void, Never>? {
            running[position] = false
            let runner = runnerOf[position]
            if let task = runners[runner] { return task }
            cancelRequested[runner] = true
            return nil
        }

        /// Puts the hook at `position` in flight in an idle runner, else in a new one, from `now`.
        mutating func place(
            _ position: Int,
            at now: Duration,
            wall: Duration,
            budget: Duration?,
            _ starts: inout Starts
        ) {
            if let (runner, waiter) = idle.popLast() {
                begin(position, in: runner, at: now, wall: wall, budget: budget, &starts)
                starts.runs.append(.handOff(position, waiter))
            } else {
                let runner = newRunner()
                begin(position, in: runner, at: now, wall: wall, budget: budget, &starts)
                starts.runs.append(.spawn(position, runner))
            }
        }

        /// Once the stage is over, lets the idle runners go.
        mutating func releaseIdleIfOver(_ starts: inout Starts) {
            guard stopped || finishedCount == finished.count, !idle.isEmpty else { return }
            starts.released += idle.map(\.waiter)
            idle.removeAll()
        }

        /// Puts the hook at `position` in flight in runner slot `runner`, from `now`, and notes in `starts`
        /// the deadline to arm on the host's watchdog, if it has a budget.
        mutating func begin(
            _ position: Int,
            in runner: Int,
            at now: Duration,
            wall: Duration,
            budget: Duration?,
            _ starts: inout Starts
        ) {
            running[position] = true
            started[position] = now
            wallStarts[position] = wall
            runnerOf[position] = runner
            guard let budget else { return }
            starts.addDeadline(position, due: now + budget)
        }

        /// Takes the hook at `position` out of flight's deadline, to disarm.
        mutating func takeWatch(_ position: Int) -> Watchdog<HostClock>.Token? {
            defer { watches[position] = nil }
            return watches[position]
        }

        /// Stops the stage, returning every task to cancel and every deadline to disarm.
        mutating func stop() -> Stopped {
            stopped = true
            var stop = Stopped()
            for position in running.indices where running[position] {
                if let task = abandon(position) { stop.tasks.append(task) }
            }
            stop.watches = watches.compactMap { $0 }
            watches = watches.map { _ in nil }
            return stop
        }
    }

    /// What stopping the stage under the lock leaves to do outside it.
    struct Stopped {
        var tasks: [Task<Void, Never>] = []
        var watches: [Watchdog<HostClock>.Token] = []

        func carryOut(on watchdog: Watchdog<HostClock>) {
            for task in tasks { task.cancel() }
            for watch in watches { watchdog.disarm(watch) }
        }
    }

    /// The stage waiting on the host actor. A class, so the state holds a plain optional reference (a
    /// checked continuation's layout is resilient: every optional check of one would go through its
    /// witnesses).
    final class Waiter: Sendable {
        let continuation: CheckedContinuation<Void, Never>
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    }

    /// What starting hooks under the lock leaves to do outside it.
    struct Starts {
        enum Run {
            /// Run the hook at the position in a new runner task, in the slot.
            case spawn(Int, Int)
            /// Hand the hook at the position to an idle runner.
            case handOff(Int, RunnerWaiter)
        }

        /// Hooks to start, in delivery order.
        var runs: [Run] = []
        /// Idle runners to let go: the stage is over.
        var released: [RunnerWaiter] = []
        /// Deadlines to arm on the host's watchdog: the hooks started with a budget, and when each is due.
        /// The first apart: most steps start one hook, and an array would cost an allocation each time.
        var deadline: (position: Int, due: Duration)?
        var moreDeadlines: [(position: Int, due: Duration)] = []

        mutating func addDeadline(_ position: Int, due: Duration) {
            if deadline == nil { deadline = (position, due) } else { moreDeadlines.append((position, due)) }
        }
    }

    /// An idle runner, waiting for a hook to run, or `nil` to end. A class, so the state holds a plain
    /// reference.
    final class RunnerWaiter: Sendable {
        let continuation: CheckedContinuation<Int?, Never>
        init(_ continuation: CheckedContinuation<Int?, Never>) { self.continuation = continuation }
    }
}
