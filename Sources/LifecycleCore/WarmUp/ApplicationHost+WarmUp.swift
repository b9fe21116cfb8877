extension ApplicationHost {
    // MARK: - Warm-up

    /// Runs the warm-up stage in the background, after launch; its failures go to
    /// ``Configuration/onUnobservedError``, and ``waitUntilReady(file:line:)`` tells when it is over.
    /// `terminate()` stops it.
    func startWarmUpInBackground(aborters: Set<Int>) {
        // The launch's: its instruments' events belong to the launch that started them.
        let contexts = requestContext
        Task {
            let warmUp = await self.runWarmUp(aborters: aborters, background: true, contexts: contexts)
            // Failures are reported before readiness changes, so a waiter that wakes up finds them there.
            defer {
                if warmUp.stop != nil { self.readiness.markNever(self.currentState) }
                if warmUp.completed { self.readiness.markAllReady() }
            }
            if !warmUp.failures.isEmpty {
                let code: LifecycleError.Code = warmUp.stop?.error is HookTimeout ? .timedOut : .hookFailed
                self.configuration.onUnobservedError(
                    LifecycleError(
                        code: code,
                        request: .launch,
                        state: self.currentState,
                        failures: warmUp.failures,
                        file: #fileID,
                        line: #line
                    )
                )
            }
        }
    }

    /// Runs every warm-up hook, concurrently: a module starts as soon as every warm-up implementer it
    /// depends on (directly or through modules without warm-up) has finished, in delivery order among
    /// those ready together. Each hook runs under its budget.
    ///
    /// Warm-up stops — nothing more starts, hooks in flight are cancelled and abandoned — when a hook of
    /// an aborting participant fails, when a hook times out under `.fail`, or when ``warmUpControl`` is
    /// stopped (terminate, rollback). Otherwise a failed or timed-out warm-up counts as finished, so its
    /// dependents still start. A participant is marked ready when its warm-up finishes, never when it
    /// stopped the stage.
    ///
    /// - Returns: Every failure in delivery order, the one that stopped the stage, if any, and whether the
    ///   stage completed (neither stopped by a failure nor from outside). The caller marks the host ready:
    ///   launch once `didFinishLaunching` is through, a background stage once its failures are reported.
    ///   The instruments, if any, see the stage as one event, under `contexts` (the launch's).
    func runWarmUp(
        aborters: Set<Int>,
        background: Bool,
        contexts: [(any Sendable)?]
    ) async -> (failures: [HookFailure], stop: HookFailure?, completed: Bool) {
        // Held for the whole stage: a module registered or removed meanwhile does not change its plan.
        let dispatcher = self.dispatcher
        guard !instruments.isEmpty, !dispatcher.plan(for: .warmUp).isEmpty else {
            return await runWarmUp(dispatcher, aborters: aborters, background: background)
        }
        let state = currentState
        let start = instrumentEventStarted(.warmUp, state: state, contexts: contexts)
        let warmUp = await runWarmUp(dispatcher, aborters: aborters, background: background)
        instrumentEventFinished(
            EventSummary(
                event: .warmUp,
                state: state,
                start: start,
                duration: .now - start,
                planned: dispatcher.plan(for: .warmUp).count,
                failures: warmUp.failures,
                abandoned: [],
                stopped: warmUp.stop != nil
            ),
            contexts: contexts
        )
        return warmUp
    }

    /// ``runWarmUp(aborters:background:contexts:)`` with the dispatcher opened once: it is asked something for every
    /// participant, and each call through the existential would copy it.
    private func runWarmUp<Dispatcher: LifecycleDispatcher>(
        _ dispatcher: Dispatcher,
        aborters: Set<Int>,
        background: Bool
    ) async -> (failures: [HookFailure], stop: HookFailure?, completed: Bool) {
        let participants = dispatcher.participants
        let plan = dispatcher.plan(for: .warmUp)
        let graph = WarmUpGraph(plan: plan, participants: participants, dependencies: dispatcher.dependencies(of:))
        readiness.markReady(graph.withoutWarmUp)
        guard !plan.isEmpty else { return ([], nil, true) }
        if !background { mailbox.setEventInProgress(.warmUp) }
        defer { if !background { mailbox.setEventInProgress(nil) } }

        let fallback = configuration.eventBudgets[.warmUp] ?? configuration.hookBudget
        let control = WarmUpControl(
            plan: plan,
            graph: graph,
            budgets: plan.map { dispatcher.moduleBudget($0, for: .warmUp) ?? fallback },
            aborting: aborters.isEmpty
                ? Array(repeating: false, count: plan.count) : plan.map { aborters.contains($0.id) },
            call: { dispatcher.warmUpCall(at: $0) },
            journal: journalOnly,
            observer: journalOnly == nil ? observer : nil,
            readiness: readiness,
            time: time,
            watchdog: watchdog
        )
        warmUpControl = control
        if !background { activitySource.withLock { $0 = .warmUp(control) } }
        defer { if !background { activitySource.withLock { $0 = nil } } }
        control.startReady()

        // Runners start dependents and report on their own; the stage handles what needs the host:
        // timeouts, which degrade a module and may stop the stage.
        let timeoutStops = configuration.timeoutPolicy == .fail
        while true {
            let timeouts = await control.nextTimeouts()
            if timeouts.isEmpty { break }  // every hook finished, or the stage stopped
            for late in timeouts where !control.hasLeft(late.position) {
                let participant = plan[late.position]
                let timeout = HookTimeout(
                    participant: participant.name,
                    event: .warmUp,
                    budget: late.budget,
                    elapsed: late.elapsed
                )
                control.report(timeout, of: late.position, since: late.wallStart)
                if !degradedModules.contains(participant) { degradedModules.append(participant) }
                control.settle(
                    late.position,
                    HookFailure(participant: participant, event: .warmUp, error: timeout),
                    stopping: timeoutStops || aborters.contains(participant.id)
                )
            }
        }
        if !control.isStopped { control.finishing() }
        control.stop()  // cancels what is still in flight, and disarms its deadlines
        control.close()
        if warmUpControl === control { warmUpControl = nil }
        let (failures, stop) = control.outcome
        countTowardsQuarantine(failures)
        let completed = stop == nil && !control.wasStoppedFromOutside
        return (failures, stop, completed)
    }

}
