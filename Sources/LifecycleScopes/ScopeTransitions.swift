import LifecycleCore

/// The steps of a scope's lifecycle (``ScopeState``), each delivered to its actions and adoptions.
///
/// One step at a time: a step claims the scope, delivers, and settles it. A step requested meanwhile fails
/// with ``ScopeError/Code/transitionInProgress``; an adoption made meanwhile joins at the settle. A step
/// requested while an adoption is being caught up waits for it: adopting never makes a step fail.
extension Scope {
    /// Begins an idle scope: `didBegin` forward. The scope is in flight (``ScopeRegistry/inFlight(_:)``)
    /// from here until it ends.
    ///
    /// - Throws: ``ScopeError/Code/invalidTransition`` if it is not idle; ``ScopeError/Code/actionFailed`` if
    ///   an action with the `.abort` policy threw: those that received `begin` before it then receive
    ///   `end`, and the scope has ended.
    public func begin() async throws(ScopeError) {
        let (_, adoptions) = try await claim(.begin)
        var run = DeliveryRun(.begin, observer: observer)
        await deliverForward(adoptions, run: &run)
        if let abort = run.abort {
            record(run.failures)
            // A rollback that overruns the end budget is in `failures`; the caller learns why the step failed.
            try? await endSequence(deactivateLimit: 0, endLimit: abort.position, adoptions: adoptions)
            throw actionFailed(abort.failure)
        }
        await settle(.inactive, failures: run.failures)
    }

    /// Activates an inactive scope: `didActivate` forward; ``activations`` counts it.
    ///
    /// - Throws: ``ScopeError/Code/invalidTransition`` if it is not inactive; ``ScopeError/Code/actionFailed``
    ///   if an action with the `.abort` policy threw: those that received `activate` before it then receive
    ///   `deactivate`, every action receives `end`, and the scope has ended.
    public func activate() async throws(ScopeError) {
        let (_, adoptions) = try await claim(.activate)
        var run = DeliveryRun(.activate, observer: observer)
        await deliverForward(adoptions, run: &run)
        if let abort = run.abort {
            record(run.failures)
            let positions = actions.count + adoptions.positions
            try? await endSequence(deactivateLimit: abort.position, endLimit: positions, adoptions: adoptions)
            throw actionFailed(abort.failure)
        }
        await settle(.active, failures: run.failures)
    }

    /// Deactivates an active scope: `willDeactivate` in reverse. Failures are reported and never stop it.
    ///
    /// - Throws: ``ScopeError/Code/invalidTransition`` if it is not active.
    public func deactivate() async throws(ScopeError) {
        let (_, adoptions) = try await claim(.deactivate)
        var run = DeliveryRun(.deactivate, observer: observer)
        await deliverReverse(adoptions, run: &run)
        await settle(.inactive, failures: run.failures)
    }

    /// Ends the scope: an active scope receives `willDeactivate` first, then every action `willEnd`, both in
    /// reverse; then what was stored in it (scoped services) is released, newest first. Failures are
    /// reported and never stop it. It leaves the registry's list, and nothing is delivered afterwards.
    ///
    /// With an ``endBudget``, the registry's watchdog watches it: if it has not finished within the budget,
    /// the watchdog reports ``ScopeError/Code/endTimedOut`` naming the action still running, and delivers
    /// the rest of the end itself, without waiting for it. This method then throws that error once the
    /// stuck action returns.
    ///
    /// - Throws: ``ScopeError/Code/invalidTransition`` if it has ended; ``ScopeError/Code/endTimedOut``.
    public func end() async throws(ScopeError) {
        let (from, adoptions) = try await claim(.end)
        // A scope that never began delivers no event, but still releases what was stored in it.
        let positions = from == .idle ? 0 : actions.count + adoptions.positions
        try await endSequence(
            deactivateLimit: from == .active ? positions : 0,
            endLimit: positions,
            adoptions: adoptions
        )
    }

    // MARK: Claiming and settling

    /// Claims the scope for `event`: at once, unless an adoption is being caught up (then it waits for it).
    /// Inlined, as ``settle(_:adding:failures:)``: an async call of its own would cost each step a frame.
    @inline(__always)
    private func claim(_ event: ScopeEvent) async throws(ScopeError) -> (from: ScopeState, adoptions: Adoptions) {
        while true {
            switch claimNow(event) {
            case .claimed(let state, let adoptions): return (state, adoptions)
            case .refused(let error): throw error
            case .waitForCatchUp: await waitForCatchUp()
            }
        }
    }

    private enum Claim {
        case claimed(ScopeState, Adoptions)
        case refused(ScopeError)
        /// An adoption is being caught up: not a step, so the step waits for it instead of failing.
        case waitForCatchUp
    }

    private func claimNow(_ event: ScopeEvent) -> Claim {
        core.withLock { core in
            switch core.busy {
            case .catchingUp? where ScopeStack.catchingUp != ObjectIdentifier(self):
                return .waitForCatchUp
            case .catchingUp?, .step?:
                // A step of its own, or a hook of the catch-up in progress asking for one: waiting would
                // wait for itself.
                let running: ScopeEvent? = if case .step(let running)? = core.busy { running } else { nil }
                let error = ScopeError(
                    .transitionInProgress,
                    scope: summary(state: core.state),
                    event: event,
                    state: core.state,
                    running: running
                )
                return .refused(error)
            case nil:
                break
            }
            guard core.state.after(event) != nil else {
                let error = ScopeError(
                    .invalidTransition,
                    scope: summary(state: core.state),
                    event: event,
                    state: core.state
                )
                return .refused(error)
            }
            core.busy = .step(event)
            if event == .activate { core.activations += 1 }
            if event == .begin { core.slot = registry.enter(summary(state: .inactive)) }
            return .claimed(core.state, core.adoptions)
        }
    }

    private func waitForCatchUp() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = core.withLock { core in
                guard core.busy == .catchingUp else { return true }
                core.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Ends a step: records `failures`, sets `state`, catches up what was adopted meanwhile, and frees the
    /// scope for the next step. Inlined, with the catch-ups out of line: most steps have none.
    @inline(__always)
    func settle(_ state: ScopeState, adding caughtUp: [any AdoptionBox] = [], failures: [ScopeFailure]) async {
        record(failures)
        let pending = settleNow(state, adding: caughtUp)
        if !pending.isEmpty { await catchUpPending(pending, to: state) }
    }

    /// Sets `state` and adds `added`; frees the scope unless adoptions are pending, and returns those.
    private func settleNow(_ state: ScopeState, adding added: [any AdoptionBox]) -> [any AdoptionBox] {
        let (pending, waiters): ([any AdoptionBox], [CheckedContinuation<Void, Never>]) = core.withLock { core in
            // The list has a begun scope as inactive from the start: only later steps change it.
            let listedChange = core.state != state && core.state != .idle
            core.state = state
            core.adoptions.append(contentsOf: added)
            core.adoptions.compact()
            if core.pending.isEmpty {
                core.busy = nil
                if listedChange, let slot = core.slot { registry.update(slot, to: state) }
                defer { core.waiters = [] }
                return ([], core.waiters)
            }
            defer { core.pending = [] }
            return (core.pending, [])
        }
        for waiter in waiters { waiter.resume() }
        return pending
    }

    /// Catches up the adoptions made during a step, and those made meanwhile, then frees the scope.
    private func catchUpPending(_ first: [any AdoptionBox], to state: ScopeState) async {
        var pending = first
        while !pending.isEmpty {
            for box in pending { await catchUp(box, to: state) }
            pending = settleNow(state, adding: pending)
        }
    }

    private func actionFailed(_ failure: ScopeFailure) -> ScopeError {
        ScopeError(
            .actionFailed,
            scope: summary(state: .ended),
            event: failure.event,
            action: failure.action,
            underlying: failure.error
        )
    }

    // MARK: The end

    /// Delivers `deactivate` to positions below `deactivateLimit` and `end` to positions below `endLimit`,
    /// both down the positions, then runs the cleanups; under the watchdog if the scope has a budget.
    func endSequence(deactivateLimit: Int, endLimit: Int, adoptions: Adoptions) async throws(ScopeError) {
        let ending = core.withLock { core in
            let ending = Ending(
                deactivateLimit: deactivateLimit,
                endLimit: endLimit,
                adoptions: adoptions,
                cleanups: core.cleanups.isEmpty ? [] : core.cleanups.reversed()
            )
            core.ending = ending
            return ending
        }
        // On the host's watchdog: past the budget, the end is taken over in a task of its own, so one stuck end
        // never delays another, and the task ending the scope finds its remaining steps claimed. An end with
        // nothing to deliver and nothing to release runs no code of anyone's and cannot overrun: unwatched.
        let idle = deactivateLimit == 0 && endLimit == 0 && ending.cleanups.isEmpty
        let watchdog = endBudget == nil || idle ? nil : registry.watchdog
        let watch = endBudget.flatMap { budget in watchdog.map { registry.endWatch.watch(self, budget: budget, on: $0) }
        }
        var run = DeliveryRun(.deactivate, claims: .original, observer: observer)
        await deliverEnd(ending, run: &run)
        if let watch, let watchdog { registry.endWatch.unwatch(self, watch, on: watchdog) }
        record(run.failures)
        guard !run.lostClaim, finishSteps(run.step) else {
            let (event, action) = step(run.step - 1, of: ending)
            throw ScopeError(
                .endTimedOut,
                scope: summary(state: .ended),
                event: event,
                action: action,
                budget: endBudget
            )
        }
        finishEnd()
    }

    private func deliverEnd(_ ending: Ending, run: inout DeliveryRun) async {
        run.event = .deactivate
        run.limit = ending.deactivateLimit
        await deliverReverse(ending.adoptions, run: &run)
        run.event = .end
        run.limit = ending.endLimit
        await deliverReverse(ending.adoptions, run: &run)
        run.limit = .max
        for cleanup in ending.cleanups where run.admits(0, in: self) {
            do {
                try await cleanup.run()
                run.delivered(to: cleanup.name, in: self)
            } catch {
                run.failed(cleanup.name, policy: .isolate, error: error, at: 0, in: self)
            }
        }
    }

    /// The event and action of step `step` of `ending`.
    private func step(_ step: Int, of ending: Ending) -> (ScopeEvent, String) {
        if step < 0 { return (ending.deactivateLimit > 0 ? .deactivate : .end, "the end's first action") }
        if step < ending.deactivateLimit {
            return (.deactivate, actionName(at: ending.deactivateLimit - 1 - step, ending.adoptions))
        }
        let endStep = step - ending.deactivateLimit
        if endStep < ending.endLimit { return (.end, actionName(at: ending.endLimit - 1 - endStep, ending.adoptions)) }
        let cleanup = endStep - ending.endLimit
        return (.end, cleanup < ending.cleanups.count ? ending.cleanups[cleanup].name : "a cleanup")
    }

    /// The scope has ended: out of the registry's list, its values dropped, adoptions still pending given
    /// nothing (the scope they asked for is over).
    func finishEnd() {
        core.withLock { core in
            core.state = .ended
            core.busy = nil
            core.ending = nil
            // Nothing is delivered any more: letting go of the adoptions breaks the cycle of one that holds
            // its scope.
            core.adoptions = Adoptions()
            core.pending = []
            core.values = [:]
            core.cleanups = []
            if let slot = core.slot { registry.leave(slot) }
            core.slot = nil
        }
    }

    /// Called by the watchdog when the end overran its budget: reports it, ends the scope, and delivers the
    /// steps the task ending the scope has not claimed.
    func takeOverEnd() async {
        guard let first = takeRemainingSteps() else { return }
        guard let ending = core.withLock({ $0.ending }) else { return }
        let (event, action) = step(first - 1, of: ending)
        let error = ScopeError(
            .endTimedOut,
            scope: summary(state: .ended),
            event: event,
            action: action,
            budget: endBudget
        )
        let failure = ScopeFailure(scope: summary, event: event, action: action, error: error, isolated: false)
        observer?.scope(self, delivered: event, to: action, failure: failure)
        record([failure])
        // The scope has ended for everyone from here: it leaves the list and takes no step, even if what is left
        // of its end gets stuck as well (that would delay only the deliveries after it).
        core.withLock { core in
            core.state = .ended
            core.busy = nil
            if let slot = core.slot { registry.leave(slot) }
            core.slot = nil
        }
        var run = DeliveryRun(.deactivate, claims: .takeover(from: first), observer: observer)
        await deliverEnd(ending, run: &run)
        record(run.failures)
        finishEnd()
    }
}
