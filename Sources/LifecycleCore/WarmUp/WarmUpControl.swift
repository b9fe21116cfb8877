/// One warm-up stage in flight: its hooks, each in a runner task, and one watchdog for all their budgets.
///
/// Runners schedule the stage themselves. A runner that finishes a hook reports it (journal or observer),
/// records a failure, marks the participant ready and starts the dependents that were waiting only for
/// it, in delivery order: each in a runner task of its own, but the last, which it runs itself next. So
/// no step waits for the host actor, and a chain of modules that become ready one after another runs in
/// one task. A hook of an aborting participant that throws stops the stage.
///
/// Each budgeted hook's deadline is armed on the host's watchdog when the hook starts and disarmed when it
/// returns. Past it, the hook is abandoned (its runner cancelled) and handed to the stage on the host
/// actor, which degrades the module and then stops the stage (`.fail`, aborting module) or counts the
/// hook finished.
///
/// The stage can also be stopped from outside (terminate, rollback): stopping cancels every hook in
/// flight and disarms their deadlines; nothing starts afterwards, and a hook that returns is not reported. A hook
/// whose return was taken before the stop is reported; the stage ends once those reports are done.
final class WarmUpControl: DeadlineTarget, Sendable {
    typealias Call = @Sendable () async throws -> Void

    /// A hook the watchdog abandoned, for the stage to handle.
    struct Timeout: Sendable {
        let position: Int
        let budget: Duration
        let elapsed: Duration
        /// The hook's wall-clock start, for its record.
        let wallStart: Duration
    }

    /// The most runners kept idle, waiting for released hooks, instead of ending.
    private static let idleRunners = 16

    private let state: Locked<State>
    /// Serializes calls of an observer other than the journal, as when the host reported each step; counts
    /// them. (Not `Locked<Void>`: under the sanitizer build a zero-sized value shares its address with the
    /// lock's mutex pointer, and the sanitizer takes the two for one variable.)
    private let observing = Locked(0)
    private let plan: [Participant]
    private let graph: WarmUpGraph
    private let budgets: [Duration?]
    private let aborting: [Bool]
    private let call: @Sendable (Int) -> Call
    private let journal: DeliveryJournal?
    /// The stage's context in the journal (see `DeliveryJournal.openContext(_:plan:)`), while it runs.
    private let journalContext: Int
    /// The journal's origin to the clock's wall origin.
    private let journalShift: Duration
    private let observer: DeliveryObserver?
    private let readiness: Readiness
    private let time: ClockFunctions
    private let watchdog: Watchdog<HostClock>
    /// Each participant's position in the stage's plan, by participant id (`-1`: not in the plan).
    private let positions: [Int]

    /// A stage over `plan` (the warm-up implementers in delivery order) ordered by `graph`, each hook under
    /// its budget; `aborting` marks the positions whose failure stops the stage. Each hook call is
    /// journaled in `journal`, else reported to `observer`.
    init(
        plan: [Participant],
        graph: WarmUpGraph,
        budgets: [Duration?],
        aborting: [Bool],
        call: @escaping @Sendable (Int) -> Call,
        journal: DeliveryJournal?,
        observer: DeliveryObserver?,
        readiness: Readiness,
        time: ClockFunctions,
        watchdog: Watchdog<HostClock>
    ) {
        let count = plan.count
        self.state = Locked(
            State(
                waiting: (0..<count).map(graph.waitCount(of:)),
                running: Array(repeating: false, count: count),
                finished: Array(repeating: false, count: count),
                left: Array(repeating: false, count: count),
                started: Array(repeating: .zero, count: count),
                wallStarts: Array(repeating: .zero, count: count),
                runnerOf: Array(repeating: -1, count: count),
                watches: Array(repeating: nil, count: count)
            )
        )
        self.plan = plan
        self.graph = graph
        self.budgets = budgets
        self.aborting = aborting
        self.call = call
        self.journal = journal
        self.journalContext = journal?.openContext(.warmUp, plan: plan) ?? -1
        self.journalShift = journal.map { $0.origin.duration(to: time.wallOrigin) } ?? .zero
        self.observer = observer
        self.readiness = readiness
        self.time = time
        self.watchdog = watchdog
        var positions = [Int](repeating: -1, count: (plan.lazy.map(\.id).max() ?? -1) + 1)
        for index in plan.indices { positions[plan[index].id] = index }
        self.positions = positions
    }

    // MARK: Starting

    /// Starts every hook that waits for nobody, each in a runner task, in delivery order.
    func startReady() {
        let (now, wall) = time.nowAndWall()
        let starts: Starts = state.withLock { state in
            var starts = Starts()
            for position in plan.indices where state.waiting[position] == 0 && !state.left[position] {
                state.place(position, at: now, wall: wall, budget: budgets[position], &starts)
            }
            return starts
        }
        launch(starts)
    }

    /// Starts the hooks, lets the runners go and arms the deadlines, as `starts` asks.
    private func launch(_ starts: Starts) {
        if let deadline = starts.deadline { arm(deadline.position, due: deadline.due) }
        for deadline in starts.moreDeadlines { arm(deadline.position, due: deadline.due) }
        var spawned: [(runner: Int, task: Task<Void, Never>)] = []
        for run in starts.runs {
            switch run {
            case .spawn(let position, let runner):
                spawned.append((runner, Task { await self.run(position, in: runner) }))
            case .handOff(let position, let waiter):
                waiter.continuation.resume(returning: position)
            }
        }
        for waiter in starts.released { waiter.continuation.resume(returning: nil) }
        if !spawned.isEmpty {
            let cancelled: [Task<Void, Never>] = state.withLock { state in
                var cancelled: [Task<Void, Never>] = []
                for (runner, task) in spawned {
                    state.runners[runner] = task
                    if state.cancelRequested[runner] { cancelled.append(task) }
                }
                return cancelled
            }
            for task in cancelled { task.cancel() }
        }
    }

    /// Arms the deadline of the hook at `position` on the host's watchdog, unless the hook is no longer in
    /// flight by then.
    private func arm(_ position: Int, due: Duration) {
        let token = watchdog.arm(at: HostClock.Instant(offset: due), self, tag: position)
        let armed = state.withLock { state in
            guard state.running[position], !state.stopped else { return false }
            state.watches[position] = token
            return true
        }
        if !armed { watchdog.disarm(token) }
    }

    // MARK: Running

    /// A runner task: runs the hook at `position`, then the dependent its return leaves to this runner,
    /// and so on; with none, waits idle for a hook released elsewhere, and ends with the stage.
    private func run(_ position: Int, in runner: Int) async {
        var position = position
        while true {
            let failure: (any Error)?
            do {
                try await call(position)()
                failure = nil
            } catch {
                failure = error
            }
            switch finish(position, in: runner, failure: failure) {
            case .run(let next):
                position = next
            case .idle:
                guard let next = await waitIdle(runner) else { return }
                position = next
            case .end:
                return  // its hook was abandoned (and it may be cancelled), or the stage stopped
            }
        }
    }

    /// What a runner does after a hook.
    private enum Next {
        case run(Int)
        case idle
        case end
    }

    /// Waits, as an idle runner, for a released hook to run; `nil` once the stage is over (or if enough
    /// runners wait already).
    private func waitIdle(_ runner: Int) async -> Int? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            let waits = state.withLock { state in
                guard !state.stopped, state.finishedCount < state.finished.count,
                    state.idle.count < Self.idleRunners
                else { return false }
                state.idle.append((runner, RunnerWaiter(continuation)))
                return true
            }
            if !waits { continuation.resume(returning: nil) }
        }
    }

    /// The hook at `position` returned: reports it, and, unless the stage stopped meanwhile, counts it
    /// finished, marks its participant ready and starts the dependents it released. Returns the one this
    /// runner runs next, if any.
    ///
    /// The call is reported between two steps under the stage's lock: taking the return, and the rest. So
    /// the report comes before any of its dependents', and the two runner threads do not wait on each
    /// other's report. With nobody to report to, it is one step.
    private func finish(_ position: Int, in runner: Int, failure: (any Error)?) -> Next {
        let (now, wall) = time.nowAndWall()
        let hookFailure = failure.map { HookFailure(participant: plan[position], event: .warmUp, error: $0) }
        let reports = journal != nil || observer != nil
        if reports {
            let taken: (elapsed: Duration, wallStart: Duration, watch: Watchdog<HostClock>.Token?)? = state.withLock {
                state in
                guard state.running[position] else { return nil }  // abandoned, left, or stopped: not reported
                state.running[position] = false
                state.reporting += 1
                return (now - state.started[position], state.wallStarts[position], state.takeWatch(position))
            }
            guard let taken else { return .end }
            if let watch = taken.watch { watchdog.disarm(watch) }
            record(position, wallStart: taken.wallStart, elapsed: taken.elapsed, error: failure)
        }
        var next: Int?
        var watch: Watchdog<HostClock>.Token?
        let outcome: (Starts, Stopped, Waiter?, stopped: Bool)? =
            state.withLock { state in
                if reports {
                    state.reporting -= 1
                } else {
                    guard state.running[position] else { return nil }  // abandoned, left, or stopped
                    state.running[position] = false
                    watch = state.takeWatch(position)
                }
                var starts = Starts()
                var cancelled = Stopped()
                // Removed meanwhile: it counts as finished already, whatever its hook did.
                if !state.stopped, !state.finished[position] {
                    if let hookFailure {
                        state.failures.append((position, hookFailure))
                        if aborting[position] {
                            state.stopFailure = hookFailure
                            state.fromOutside = false
                            cancelled = state.stop()
                        }
                    }
                    if !state.stopped {
                        let ready = count(position, &state)
                        for (index, dependent) in ready.enumerated() {
                            let budget = budgets[dependent]
                            if index == ready.count - 1 {
                                // The last one ready continues in this runner.
                                state.begin(dependent, in: runner, at: now, wall: wall, budget: budget, &starts)
                                next = dependent
                            } else {
                                state.place(dependent, at: now, wall: wall, budget: budget, &starts)
                            }
                        }
                    }
                } else if let hookFailure, state.stopped, !state.finished[position] {
                    // Taken before the stage stopped: its failure is reported with the others.
                    state.failures.append((position, hookFailure))
                }
                state.releaseIdleIfOver(&starts)
                return (starts, cancelled, state.stageToWake(), state.stopped)
            }
        if let watch { watchdog.disarm(watch) }
        guard let (starts, cancelled, stage, stopped) = outcome else { return .end }
        cancelled.carryOut(on: watchdog)
        stage?.continuation.resume()
        launch(starts)
        if let next { return .run(next) }
        return stopped ? .end : .idle
    }

    /// Counts the hook at `position` finished and marks its participant ready; returns the dependents
    /// that waited only for it, in delivery order. Called under the lock (readiness has its own, never
    /// held while taking this one).
    private func count(_ position: Int, _ state: inout State) -> [Int] {
        state.finished[position] = true
        state.finishedCount += 1
        readiness.markReady(plan[position].id)
        var ready: [Int] = []
        for dependent in graph.dependents(of: position) {
            state.waiting[dependent] -= 1
            if state.waiting[dependent] == 0, !state.left[dependent] { ready.append(dependent) }
        }
        return ready
    }

    /// Reports one hook call: to the journal directly, else to the observer, one call at a time.
    private func record(_ position: Int, wallStart: Duration, elapsed: Duration, error: (any Error)?) {
        if let journal {
            journal.record(
                context: journalContext,
                at: position,
                startOffset: wallStart + journalShift,
                duration: elapsed,
                result: nil,
                error: error
            )
        } else if let observer {
            let record = DeliveryRecord(
                event: .warmUp,
                participant: plan[position],
                start: time.wall(wallStart),
                duration: elapsed,
                result: nil,
                error: error
            )
            observing.withLock { reports in
                observer(record)
                reports += 1
            }
        }
    }

    // MARK: Timeouts

    /// The host's watchdog found the hook at `position` past its deadline at `now`: abandons it if it is
    /// still in flight (cancelling its runner), and hands it to the stage.
    func deadlinePassed(_ position: Int, at now: HostClock.Instant) -> HostClock.Instant? {
        expire(position, at: now.offset)
        return nil
    }

    private func expire(_ position: Int, at now: Duration) {
        let (runner, stage): (Task<Void, Never>?, Waiter?) = state.withLock { state in
            guard !state.stopped, state.running[position] else { return (nil, nil) }
            state.watches[position] = nil
            let runner = state.abandon(position)
            state.timeouts.append(
                Timeout(
                    position: position,
                    budget: budgets[position] ?? .zero,
                    elapsed: now - state.started[position],
                    wallStart: state.wallStarts[position]
                )
            )
            return (runner, state.stageToWake())
        }
        runner?.cancel()
        stage?.continuation.resume()
    }

    /// The hooks abandoned on a timeout since the last call, in the order they were; waits for one. Empty
    /// once the stage is over: every hook finished, or the stage stopped.
    func nextTimeouts() async -> [Timeout] {
        while true {
            let timeouts: [Timeout]? = state.withLock { state in
                if !state.timeouts.isEmpty, !state.stopped {
                    defer { state.timeouts.removeAll() }
                    return state.timeouts
                }
                return state.isOver ? [] : nil
            }
            if let timeouts { return timeouts }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    guard state.isOver || (!state.timeouts.isEmpty && !state.stopped) else {
                        state.stage = Waiter(continuation)
                        return false
                    }
                    return true
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Reports a timeout of the hook at `position` like a hook call, one report at a time.
    func report(_ timeout: HookTimeout, of position: Int, since wallStart: Duration) {
        if let journal {
            journal.record(
                context: journalContext,
                at: position,
                startOffset: wallStart + journalShift,
                duration: timeout.elapsed,
                result: nil,
                error: timeout
            )
        } else {
            record(position, wallStart: wallStart, elapsed: timeout.elapsed, error: timeout)
        }
    }

    /// The stage handled the timeout of the hook at `position`: records `failure`, then stops the stage
    /// if `stopping`, else counts the hook finished, so its dependents start.
    func settle(_ position: Int, _ failure: HookFailure, stopping: Bool) {
        let (starts, cancelled): (Starts, Stopped) = state.withLock { state in
            guard !state.stopped, !state.finished[position] else { return (Starts(), Stopped()) }
            state.failures.append((position, failure))
            if stopping {
                state.stopFailure = failure
                state.fromOutside = false
                let cancelled = state.stop()
                var starts = Starts()
                state.releaseIdleIfOver(&starts)
                return (starts, cancelled)
            }
            let (now, wall) = time.nowAndWall()
            var starts = Starts()
            for dependent in count(position, &state) {
                state.place(dependent, at: now, wall: wall, budget: budgets[dependent], &starts)
            }
            state.releaseIdleIfOver(&starts)
            return (starts, Stopped())
        }
        cancelled.carryOut(on: watchdog)
        launch(starts)
    }

    // MARK: Leaving and stopping

    /// The participant `id` was removed from the host: cancel its hook if it runs, never start it, and
    /// count it as finished so the stage can end.
    func leave(_ id: Int) {
        guard id < positions.count, positions[id] >= 0 else { return }
        let position = positions[id]
        let (cancelled, starts, stage): (Stopped, Starts, Waiter?) =
            state.withLock { state in
                guard !state.stopped else { return (Stopped(), Starts(), nil) }
                state.left[position] = true
                var cancelled = Stopped()
                if state.running[position] {
                    cancelled.tasks = state.abandon(position).map { [$0] } ?? []
                    cancelled.watches = state.takeWatch(position).map { [$0] } ?? []
                }
                guard !state.finished[position] else { return (cancelled, Starts(), nil) }
                // Counted finished without being ready. Its dependents have left already (a module others
                // depend on cannot be removed), so this starts nothing in practice.
                state.finished[position] = true
                state.finishedCount += 1
                let (now, wall) = time.nowAndWall()
                var starts = Starts()
                for dependent in graph.dependents(of: position) {
                    state.waiting[dependent] -= 1
                    guard state.waiting[dependent] == 0, !state.left[dependent] else { continue }
                    state.place(dependent, at: now, wall: wall, budget: budgets[dependent], &starts)
                }
                state.releaseIdleIfOver(&starts)
                return (cancelled, starts, state.stageToWake())
            }
        cancelled.carryOut(on: watchdog)
        stage?.continuation.resume()
        launch(starts)
    }

    /// The hooks in flight, in plan order, with when each started on the configured clock.
    var inFlight: [(participant: Participant, start: Duration)] {
        state.withLock { state in
            state.running.indices.filter { state.running[$0] }.map { (plan[$0], state.started[$0]) }
        }
    }

    func hasLeft(_ position: Int) -> Bool { state.withLock { $0.left[position] } }

    var isStopped: Bool { state.withLock { $0.stopped } }
    var wasStoppedFromOutside: Bool { state.withLock { $0.stopped && $0.fromOutside } }

    /// Every failure in delivery order, and the one that stopped the stage, if any.
    var outcome: (failures: [HookFailure], stop: HookFailure?) {
        state.withLock { state in (state.failures.sorted { $0.0 < $1.0 }.map(\.1), state.stopFailure) }
    }

    /// Cancels everything in flight and disarms its deadlines, and wakes the stage. Idempotent.
    func stop() {
        let (stopped, starts, stage): (Stopped, Starts, Waiter?) = state.withLock { state in
            let stopped = state.stop()
            var starts = Starts()
            state.releaseIdleIfOver(&starts)
            return (stopped, starts, state.stageToWake())
        }
        stopped.carryOut(on: watchdog)
        launch(starts)  // lets the idle runners go
        stage?.continuation.resume()
    }

    /// Marks the coming `stop()` as the stage's own ending (not a stop from outside).
    func finishing() { state.withLock { $0.fromOutside = false } }

    /// The stage is over and stopped: nothing more is journaled in its context.
    func close() {
        journal?.closeContext(journalContext)
    }
}
