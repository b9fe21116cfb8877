#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ApplicationHost {
    // MARK: - Processing (runs on the actor, one request at a time)

    var currentState: ApplicationState { mailbox.state }

    func setState(_ state: ApplicationState) {
        guard !instruments.isEmpty else { return mailbox.setState(state) }
        let old = currentState
        mailbox.setState(state)
        if old != state { for instrument in instruments { instrument.stateChanged(from: old, to: state) } }
    }

    /// Processes a request whose result nobody reads: awaited transitions and posted requests.
    func process(_ request: HostRequest, file: String, line: Int) async -> Result<Void, LifecycleError> {
        switch request.kind {
        case .launch:
            return await runLaunch(file: file, line: line).map { _ in () }
        case .openURL(let url):
            return await runOpenURL(url, file: file, line: line).map { _ in () }
        case .register(let module):
            return await runRegister(module.type, file: file, line: line).map { _ in () }
        case .remove(let module):
            return await runRemove(module.type, file: file, line: line)
        case .reloadModules:
            return await runReloadModules(nil, file: file, line: line).map { _ in () }
        case .releaseQuarantine(let module):
            return await runReleaseQuarantine(module.type, file: file, line: line).map { _ in () }
        case .quarantine(let module, let reason):
            await runQuarantine(module.type, reason: reason)
            return .success(())
        case .custom, .idle, .waitTerminated:
            // A custom event travels its typed path (`deliverCustom`): `HostRequest.custom` only names it,
            // without the payload. Reached only when such a request is posted.
            return .failure(
                LifecycleError(code: .invalidRequest, request: request, state: currentState, file: file, line: line)
            )
        case .terminate:
            if HostStateMachine.allows(request, in: currentState) {
                warmUpControl?.stop()
                readiness.markNever(.terminated)
            }
            return await run(request, file: file, line: line)
        case .enterForeground, .enterBackground, .resignActive, .becomeActive, .memoryWarning:
            return await run(request, file: file, line: line)
        }
    }

    /// Asks ``HostStateMachine`` whether `request` is allowed in the current state, then delivers each
    /// step's event in the state the step names (what a hook reads from ``state``), and ends in the
    /// transition's final state.
    private func run(_ request: HostRequest, file: String, line: Int) async -> Result<Void, LifecycleError> {
        guard let plan = HostStateMachine.transition(for: request, from: currentState) else {
            return .failure(invalidTransition(request, file, line))
        }
        var failures: [HookFailure] = []
        var abandonedWork: [String] = []
        for step in plan.steps {
            let event = step.event
            // Work bound to a state stops before the event that leaves it (Docs/Work.md, "Where work sits").
            switch event {
            case .willResignActive: abandonedWork += await leaveWork(.active)
            case .willTerminate: abandonedWork += await leaveWork(nil)
            default: break
            }
            setState(step.state)
            let delivery = await deliver(
                event,
                deadline: event == .willTerminate ? configuration.terminateDeadline : nil,
                interruptible: event == .willTerminate
            )
            failures += delivery.outcome.failures
            if !delivery.abandoned.isEmpty {
                setState(plan.final)
                var error = LifecycleError(
                    code: delivery.interrupted ? .interrupted : .deadlineExceeded,
                    request: request,
                    state: plan.final,
                    failures: failures,
                    file: file,
                    line: line
                )
                error.abandoned = delivery.abandoned
                error.abandonedWork = abandonedWork
                return .failure(error)
            }
            if event == .didBecomeActive { enterWork(.active) }
            if delivery.stopped {
                // A timeout under `.fail`: the request ends here. Termination cannot stay half done.
                if plan.final == .terminated { setState(.terminated) }
                return .failure(timedOut(request, failures, file, line))
            }
        }
        setState(plan.final)
        if !abandonedWork.isEmpty {
            var error = LifecycleError(
                code: .deadlineExceeded,
                request: request,
                state: plan.final,
                failures: failures,
                file: file,
                line: line
            )
            error.abandonedWork = abandonedWork
            return .failure(error)
        }
        return failures.isEmpty ? .success(()) : .failure(hookFailed(request, failures, result: nil, file, line))
    }

    func runLaunch(file: String, line: Int) async -> Result<LaunchResult, LifecycleError> {
        guard let transition = HostStateMachine.transition(for: .launch, from: currentState) else {
            return .failure(invalidTransition(.launch, file, line))
        }
        // The launch events, while `launching`; then launch is through, and the rest follows.
        let launchSteps = transition.steps.prefix { $0.state == .launching }
        setState(.launching)
        // Whose failure aborts launch: a module's own policy, else the host's.
        let hostAborts = configuration.launchFailurePolicy == .abort
        let dispatcher = self.dispatcher  // one read of the roster, not one per participant
        let aborters = Set(
            dispatcher.participants.filter { (dispatcher.failurePolicy(of: $0).map { $0 == .abort }) ?? hostAborts }
                .map(\.id)
        )
        let scope: DeliveryScope = aborters.isEmpty ? .all : .untilFailureOf(aborters)
        var failures: [HookFailure] = []
        var results: [Bool] = []
        for (pass, event) in launchSteps.map(\.event).enumerated() {
            if event == .warmUp {
                guard configuration.didFinishLaunchingWaitsForWarmUp else { continue }
                let warmUp = await runWarmUp(aborters: aborters, background: false, contexts: requestContext)
                failures += warmUp.failures
                if let failure = warmUp.stop {
                    // Every participant passed initialize: all but the failing one are rolled back.
                    let reached = participants.map(\.id).filter { $0 != failure.participant.id }
                    return .failure(await rollBack(reached: Set(reached), failures: failures, file: file, line: line))
                }
                continue
            }
            let delivery = await deliver(event, scope: scope)
            let outcome = delivery.outcome
            failures += outcome.failures
            if event.resultRule != .none { results.append(outcome.result) }
            // Abort on a failure of an aborting participant; a timeout under `.fail` aborts launch as a whole.
            let aborting = outcome.failures.first { aborters.contains($0.participant.id) }
            if let failure = delivery.stopped ? outcome.failures.last : aborting {
                // Launch reached everyone before the failing participant; in later passes, everyone had
                // already passed the first. The failing participant threw, so it cleans up itself.
                let failed = failure.participant.id
                let order = participants.map(\.id)
                let reached = pass == 0 ? Array(order.prefix { $0 != failed }) : order.filter { $0 != failed }
                return .failure(await rollBack(reached: Set(reached), failures: failures, file: file, line: line))
            }
            if WorkBoundary.launchStages.contains(event) { enterWork(.launched(event)) }
        }
        // Launch is through: with warm-up done in place, everyone is ready now, not before, so a waiter is
        // never told "ready" by a launch that `didFinishLaunching` then aborts.
        if configuration.didFinishLaunchingWaitsForWarmUp { readiness.markAllReady() }
        for step in transition.steps.dropFirst(launchSteps.count) {
            setState(step.state)
            failures += await deliver(step.event).outcome.failures
            if step.event == .didBecomeActive { enterWork(.active) }
        }
        setState(transition.final)
        if !configuration.didFinishLaunchingWaitsForWarmUp { startWarmUpInBackground(aborters: aborters) }
        let result = LaunchResult(willFinishLaunching: results[0], didFinishLaunching: results[1])
        guard failures.isEmpty else {
            var error = hookFailed(.launch, failures, result: nil, file, line)
            error.launchResult = result
            return .failure(error)
        }
        return .success(result)
    }

    /// Delivers `willTerminate` to the participants in `reached`, in reverse order, and terminates.
    private func rollBack(reached: Set<Int>, failures: [HookFailure], file: String, line: Int) async -> LifecycleError {
        warmUpControl?.stop()
        readiness.markNever(.terminated)
        let rollback = HostStateMachine.rollback
        var rolledBack: [Participant] = []
        var abandoned: [Participant] = []
        var rollbackFailures: [HookFailure] = []
        // Work a launch stage started stops first, as before any willTerminate.
        let abandonedWork = await leaveWork(nil)
        for step in rollback.steps {
            setState(step.state)
            rolledBack += plan(for: step.event).filter { reached.contains($0.id) }
            let delivery = await deliver(
                step.event,
                scope: .only(reached),
                deadline: configuration.terminateDeadline,
                interruptible: true
            )
            rollbackFailures += delivery.outcome.failures
            abandoned += delivery.abandoned
        }
        setState(rollback.final)
        var error = LifecycleError(
            code: .launchAborted,
            request: .launch,
            state: rollback.final,
            failures: failures + rollbackFailures,
            rolledBack: rolledBack,
            file: file,
            line: line
        )
        error.abandoned = abandoned
        error.abandonedWork = abandonedWork
        return error
    }

    func runOpenURL(_ url: URL, file: String, line: Int) async -> Result<Bool, LifecycleError> {
        let request = HostRequest.open(url)
        guard HostStateMachine.allows(request, in: currentState) else {
            return .failure(invalidTransition(request, file, line))
        }
        mailbox.setEventInProgress(.openURL)
        let dispatcher = self.dispatcher
        let observer = self.observer
        let delivery = await limited(
            .openURL,
            dispatcher: dispatcher,
            direct: { await dispatcher.open(url, observer: observer, from: 0, supervisor: nil) },
            combine: { booleanResult(.openURL, $0) },
            run: { from, supervisor, observer in
                _ = await dispatcher.open(url, observer: observer, from: from, supervisor: supervisor)
            }
        )
        mailbox.setEventInProgress(nil)
        return settle(request, delivery, result: delivery.outcome.result, file, line)
    }

    func deliverCustom<E: CustomEvent>(_ event: E, file: String, line: Int) async -> Result<E.Result, LifecycleError> {
        let lifecycleEvent = LifecycleEvent(custom: E.self)
        let request = HostRequest.custom(lifecycleEvent)
        guard HostStateMachine.allows(request, in: currentState) else {
            return .failure(invalidTransition(request, file, line))
        }
        mailbox.setEventInProgress(lifecycleEvent)
        let dispatcher = self.dispatcher
        let observer = self.observer
        let delivery = await limited(
            lifecycleEvent,
            dispatcher: dispatcher,
            direct: { await dispatcher.deliver(event, observer: observer, from: 0, supervisor: nil) },
            combine: { answers in
                answers.compactMap { $0 as? E.Result }.reduce(nil) { soFar, next in
                    soFar.map { E.Result.combine($0, next) } ?? next
                }
                    ?? E.Result.unanswered
            },
            run: { from, supervisor, observer in
                _ = await dispatcher.deliver(event, observer: observer, from: from, supervisor: supervisor)
            }
        )
        mailbox.setEventInProgress(nil)
        return settle(request, delivery, result: delivery.outcome.result as? Bool, file, line)
    }

    /// The result of an event delivered in place (open-URL, custom): its combined value, or the one error
    /// its delivery earned — `timedOut` if a timeout stopped it, else `hookFailed` listing every failure.
    private func settle<R: Sendable>(
        _ request: HostRequest,
        _ delivery: LimitedDelivery<R>,
        result: Bool?,
        _ file: String,
        _ line: Int
    ) -> Result<R, LifecycleError> {
        let failures = delivery.outcome.failures
        if delivery.stopped {
            return .failure(timedOut(request, failures, file, line))
        }
        guard failures.isEmpty else { return .failure(hookFailed(request, failures, result: result, file, line)) }
        return .success(delivery.outcome.result)
    }

    /// Delivers a built-in event without an argument, under the time limits.
    func deliver(
        _ event: LifecycleEvent,
        scope: DeliveryScope = .all,
        deadline: Duration? = nil,
        interruptible: Bool = false
    ) async -> LimitedDelivery<Bool> {
        mailbox.setEventInProgress(event)
        defer { mailbox.setEventInProgress(nil) }
        let dispatcher = self.dispatcher
        let observer = self.observer
        return await limited(
            event,
            dispatcher: dispatcher,
            scope: scope,
            deadline: deadline,
            interruptible: interruptible,
            direct: { await dispatcher.deliver(event, scope: scope, observer: observer, from: 0, supervisor: nil) },
            combine: { booleanResult(event, $0) },
            run: { from, supervisor, observer in
                _ = await dispatcher.deliver(
                    event,
                    scope: scope,
                    observer: observer,
                    from: from,
                    supervisor: supervisor
                )
            }
        )
    }

}

/// The combined result of a built-in event from its participants' answers.
private func booleanResult(_ event: LifecycleEvent, _ answers: [any Sendable]) -> Bool {
    guard case .anyTrue(let whenUnanswered) = event.resultRule else { return false }
    let bools = answers.compactMap { $0 as? Bool }
    return bools.isEmpty ? whenUnanswered : bools.contains(true)
}
