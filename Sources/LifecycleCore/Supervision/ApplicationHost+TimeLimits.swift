extension ApplicationHost {
    // MARK: - Time limits

    /// ``limited(_:dispatcher:scope:deadline:interruptible:direct:combine:run:instrumented:)`` between the
    /// instruments' `eventStarted` and `eventFinished`; an event nobody implements is no event to them.
    private func instrumentedDelivery<R: Sendable>(
        _ event: LifecycleEvent,
        dispatcher: any LifecycleDispatcher,
        scope: DeliveryScope,
        deadline: Duration?,
        interruptible: Bool,
        direct: () async -> EventOutcome<R>,
        combine: @escaping ([any Sendable]) -> R,
        run:
            @escaping @Sendable (_ from: Int, _ supervisor: any DeliverySupervisor, _ observer: DeliveryObserver?) async
            -> Void
    ) async -> LimitedDelivery<R> {
        let planned = dispatcher.plan(for: event).count
        let state = currentState
        let start = planned > 0 ? instrumentEventStarted(event, state: state) : nil
        let delivery = await limited(
            event,
            dispatcher: dispatcher,
            scope: scope,
            deadline: deadline,
            interruptible: interruptible,
            direct: direct,
            combine: combine,
            run: run,
            instrumented: true
        )
        if let start {
            instrumentEventFinished(
                EventSummary(
                    event: event,
                    state: state,
                    start: start,
                    duration: .now - start,
                    planned: planned,
                    failures: delivery.outcome.failures,
                    abandoned: delivery.abandoned,
                    stopped: delivery.stopped
                )
            )
        }
        return delivery
    }

    /// Delivers an event under its time budgets.
    ///
    /// With no budget and no deadline, `direct` delivers inline, as fast as the proxy can. Otherwise one
    /// runner task walks the participants (still one inline loop) while one watchdog sleeps until the
    /// current hook's deadline (with no hook in progress, it waits for the next call). A hook past its
    /// budget is abandoned — the runner is cancelled and superseded, so it stops when that hook returns, if
    /// ever — its module is marked degraded, and a new runner goes on from the next participant (or the
    /// request stops, under `.fail` or when launch aborts on failure). Past the overall `deadline`,
    /// everything not yet done is abandoned.
    ///
    /// When the journal is the only listener, the supervisor journals each call itself and the journal
    /// takes the calls when touched (see `JournalSource`); otherwise the fan-out reports to the observer.
    ///
    /// The host's instruments, if any, are told when the event starts and how it ended: delivery goes
    /// through ``instrumentedDelivery(_:dispatcher:scope:deadline:interruptible:direct:combine:run:)``,
    /// which comes back here with `instrumented` set. A host without instruments pays one check.
    func limited<R: Sendable>(
        _ event: LifecycleEvent,
        dispatcher: any LifecycleDispatcher,
        scope: DeliveryScope = .all,
        deadline: Duration? = nil,
        interruptible: Bool = false,
        direct: () async -> EventOutcome<R>,
        combine: @escaping ([any Sendable]) -> R,
        run:
            @escaping @Sendable (_ from: Int, _ supervisor: any DeliverySupervisor, _ observer: DeliveryObserver?) async
            -> Void,
        instrumented: Bool = false
    ) async -> LimitedDelivery<R> {
        if !instrumented, !instruments.isEmpty {
            return await instrumentedDelivery(
                event,
                dispatcher: dispatcher,
                scope: scope,
                deadline: deadline,
                interruptible: interruptible,
                direct: direct,
                combine: combine,
                run: run
            )
        }
        let plan = dispatcher.plan(for: event)
        // Read once: each read of `configuration` copies it (and retains what it holds).
        let fallback = configuration.eventBudgets[event] ?? configuration.hookBudget
        let shortestOwn = dispatcher.shortestModuleBudget(for: event)
        let injection = context.faults
        // An interruptible delivery (termination) is always supervised: the supervisor is what stops it. So
        // is one in a host that injects faults: the supervisor is what asks for them.
        guard interruptible || deadline != nil || fallback != nil || shortestOwn != nil || injection != nil else {
            let outcome = await direct()
            countTowardsQuarantine(outcome.failures)
            return LimitedDelivery(outcome: outcome, stopped: false, abandoned: [])
        }
        // A hook's budget is looked up when the watchdog needs it: about once per event, not once per hook.
        let budgets = Budgets(plan: plan, event: event, fallback: fallback, dispatcher: dispatcher)
        // No hook can run past its budget sooner than this after it starts.
        let shortest = earliest(fallback, shortestOwn)
        let inScope: (Participant) -> Bool = { participant in
            if case .only(let allowed) = scope { return allowed.contains(participant.id) }
            return true
        }
        let stoppers: Set<Int>
        if case .untilFailureOf(let set) = scope { stoppers = set } else { stoppers = [] }

        // With nobody but the journal listening, the supervisor journals each call, and the fan-out is
        // given no observer: it then builds no DeliveryRecord and reads no clock of its own.
        let time = self.time
        let journaling = journalOnly.map { journal in
            DeliverySupervision.Journaling(
                journal: journal,
                context: journal.openContext(event, plan: plan),
                event: event,
                time: time
            )
        }
        let observer = journaling == nil ? self.observer : nil
        let shared = DeliverySupervision.SharedState(
            count: plan.count,
            tracksAnswered: deadline != nil || interruptible,
            keepsAnswers: event.resultRule != .none,
            journaling: journaling
        )
        // It keeps the calls it journals until the journal takes them, at the latest when it is detached.
        if let journaling {
            journaling.journal.attach(shared)
        }
        defer {
            if let journaling {
                journaling.journal.detach(shared)
                journaling.journal.closeContext(journaling.context)
            }
        }
        activitySource.withLock { $0 = .delivery(plan: plan, shared: shared) }
        defer { activitySource.withLock { $0 = nil } }
        if interruptible {
            let interrupted = termination.withLock { control in
                control.delivery = shared
                return control.interrupted
            }
            if interrupted { shared.interrupt() }
        }
        defer {
            if interruptible { termination.withLock { $0.delivery = nil } }
        }
        let absoluteDeadline = deadline.map { time.now() + $0 }
        var from = 0
        var generation = 0
        var timeouts: [(position: Int, failure: HookFailure)] = []
        var abandoned: [Participant] = []
        var stopped = false
        let watchdog = self.watchdog
        let faults: (@Sendable (Int) -> InjectedFault?)?
        if let injection {
            faults = { @Sendable position in injection.fault(plan[position], .hook(event)) }
        } else {
            faults = nil
        }
        supervision: while from < plan.count {
            let ending = OneShot<WatchEnding>()
            let arm = Self.arming(
                watchdog,
                shared,
                budgets: budgets,
                shortest: shortest,
                deadline: absoluteDeadline,
                ending: ending
            )
            let supervisor = DeliverySupervision(
                time: time,
                shared: shared,
                generation: generation,
                arm: arm,
                faults: faults
            )
            let start = from
            // The runner walks the participants from `start`, inline; it is abandoned, not awaited, if one of
            // its hooks runs past its budget (Docs/Failures.md, "Time limits").
            let runner = Task { @Sendable in
                await run(start, supervisor, observer)
                // A superseded runner leaves the ending to the watchdog, which reports the timeout: if it
                // said `.finished`, the host would take the event as complete and skip the rest.
                if supervisor.isCurrent { ending.settle(.finished) }
            }
            let end = await ending.value()
            if let watch = shared.takeWatch() { watchdog.disarm(watch) }
            switch end {
            case .finished:
                break supervision
            case .timedOut(let position, let elapsed, let wallStart, let next):
                runner.cancel()
                generation = next
                let participant = plan[position]
                let timeout = HookTimeout(
                    participant: participant.name,
                    event: event,
                    budget: budgets[position] ?? .zero,
                    elapsed: elapsed
                )
                timeouts.append((position, HookFailure(participant: participant, event: event, error: timeout)))
                report(timeout, of: participant, since: wallStart)
                if !degradedModules.contains(participant) { degradedModules.append(participant) }
                if stoppers.contains(participant.id) || configuration.timeoutPolicy == .fail {
                    stopped = true
                    break supervision
                }
                from = position + 1
            case .deadline(let position, let elapsed, let wallStart):
                runner.cancel()
                if let position {
                    let participant = plan[position]
                    let timeout = HookTimeout(
                        participant: participant.name,
                        event: event,
                        budget: deadline ?? .zero,
                        elapsed: elapsed
                    )
                    timeouts.append((position, HookFailure(participant: participant, event: event, error: timeout)))
                    report(timeout, of: participant, since: wallStart ?? time.wallNow() - elapsed)
                }
                abandoned = shared.unanswered(from..<plan.count).filter { inScope(plan[$0]) }.map { plan[$0] }
                break supervision
            }
        }
        var interrupted = false
        if abandoned.isEmpty, !stopped, shared.wasInterrupted {
            // The runner stopped before the hooks not yet started; a timeout's hook answered as failed.
            let timedOut = Set(timeouts.map(\.position))
            abandoned = shared.unanswered(0..<plan.count).filter { !timedOut.contains($0) && inScope(plan[$0]) }
                .map { plan[$0] }
            interrupted = !abandoned.isEmpty
        }
        shared.finish()
        let answers = shared.answers
        var failures = answers.compactMap { answer in
            answer.failure.map {
                (answer.position, HookFailure(participant: plan[answer.position], event: event, error: $0))
            }
        }
        failures += timeouts
        failures.sort { $0.0 < $1.0 }
        let outcome = EventOutcome(
            event: event,
            result: combine(answers.filter { $0.failure == nil }.compactMap(\.answer)),
            failures: failures.map(\.1),
            delivered: shared.answeredCount + timeouts.count
        )
        countTowardsQuarantine(outcome.failures)
        return LimitedDelivery(outcome: outcome, stopped: stopped, abandoned: abandoned, interrupted: interrupted)
    }

    /// Tells the journal and ``Configuration/onDelivery`` about a hook abandoned on a timeout: it never
    /// completes, so the fan-out cannot.
    private func report(_ timeout: HookTimeout, of participant: Participant, since start: Duration) {
        observer?(
            DeliveryRecord(
                event: timeout.event,
                participant: participant,
                start: time.wall(start),
                duration: timeout.elapsed,
                result: nil,
                error: timeout
            )
        )
    }

    /// How a runner arms the host's watchdog when its first hook starts (`nil` when nothing is timed: an
    /// interruptible delivery with no budget and no deadline). The watchdog then reads the hook in progress
    /// when it is due (``check(_:at:budgets:shortest:deadline:ending:)``), not each time a hook starts.
    private static func arming(
        _ watchdog: Watchdog<HostClock>,
        _ shared: DeliverySupervision.SharedState,
        budgets: Budgets,
        shortest: Duration?,
        deadline: Duration?,
        ending: OneShot<WatchEnding>
    ) -> (@Sendable (_ start: Duration) -> Watchdog<HostClock>.Token?)? {
        guard deadline != nil || shortest != nil else { return nil }
        return { start in
            let first = earliest(deadline, shortest.map { start + $0 }) ?? start
            return watchdog.arm(at: HostClock.Instant(offset: first)) { now in
                check(shared, at: now.offset, budgets: budgets, shortest: shortest, deadline: deadline, ending: ending)
                    .map(HostClock.Instant.init(offset:))
            }
        }
    }

    /// The watchdog's look at one supervised run, when it is due: reports the overall deadline, or the
    /// hook in progress if it is past its budget, and otherwise returns when to look again. That is the
    /// hook's own deadline, or sooner: no hook can start and overrun within less than the shortest budget.
    /// Looks up one budget per look: about once per event in practice, since hooks take microseconds and
    /// budgets seconds.
    private static func check(
        _ shared: DeliverySupervision.SharedState,
        at now: Duration,
        budgets: Budgets,
        shortest: Duration?,
        deadline: Duration?,
        ending: OneShot<WatchEnding>
    ) -> Duration? {
        if let deadline, now >= deadline {
            let current = shared.stopAll()
            ending.settle(
                .deadline(current?.position, current.map { now - $0.start } ?? .zero, wallStart: current?.wallStart)
            )
            return nil
        }
        var next = earliest(deadline, shortest.map { now + $0 })
        if let current = shared.current, let budget = budgets[current.position] {
            let due = current.start + budget
            guard now >= due else { return min(next ?? due, due) }
            // Expire only if that hook is still running: a hook that just returned is not abandoned.
            if let generation = shared.expire(position: current.position) {
                ending.settle(
                    .timedOut(
                        current.position,
                        now - current.start,
                        wallStart: current.wallStart,
                        generation: generation
                    )
                )
                next = nil
            }
        }
        return next
    }

}

/// The earlier of two times, either of which may be missing: without an array, on the path of every event.
private func earliest(_ a: Duration?, _ b: Duration?) -> Duration? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}

/// The time budget of each hook of one delivery, looked up when needed: the watchdog needs one or two per
/// event, while looking them all up would cost a dispatcher call per participant.
private struct Budgets: Sendable {
    let plan: [Participant]
    let event: LifecycleEvent
    /// The configuration's budget for the event, which a module's own budget overrides.
    let fallback: Duration?
    let dispatcher: any LifecycleDispatcher

    /// The budget of the hook at `position` of the plan.
    subscript(position: Int) -> Duration? { dispatcher.moduleBudget(plan[position], for: event) ?? fallback }
}

/// What a delivery under time limits produced.
struct LimitedDelivery<R: Sendable> {
    var outcome: EventOutcome<R>
    /// A timeout stopped the request (`.fail`, or launch aborting on failure).
    var stopped: Bool
    /// Participants abandoned at the overall deadline, or skipped after an interruption.
    var abandoned: [Participant]
    /// ``ApplicationHost/interruptTermination()`` skipped the participants in `abandoned`.
    var interrupted = false
}

/// How a watchdog or a runner ended one supervised run.
private enum WatchEnding: Sendable {
    case finished
    /// The hook at the position was expired after running the duration (from the wall-clock instant);
    /// its runner is already superseded by `generation`.
    case timedOut(Int, Duration, wallStart: Duration, generation: Int)
    /// The overall deadline passed; everything is superseded. The hook in progress, if any.
    case deadline(Int?, Duration, wallStart: Duration?)
}
