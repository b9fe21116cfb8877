extension ApplicationHost {
    // MARK: - Late registration and removal

    /// Creates a module of type `module`, adds it to the participants, and brings it up to the host's
    /// current state before it receives any other event.
    ///
    /// Like every request, registration waits its turn in the host's queue. Then:
    /// 1. The module is checked and created: it must not be a participant already, must be enabled in this
    ///    environment, and every module it depends on must be a participant.
    /// 2. It joins the delivery order as if listed after every module already there: its dependencies
    ///    first, then priority, then the older modules first. It receives every later event in that place.
    /// 3. Catch-up: it alone receives the events that brought the host to its state.
    ///
    /// | host state   | catch-up                                                                  |
    /// |--------------|---------------------------------------------------------------------------|
    /// | `notRunning` | nothing: it launches with the others                                      |
    /// | `active`     | `willFinishLaunching`, the three stages, `didFinishLaunching`, `didBecomeActive` |
    /// | `inactive`   | the launch events and stages                                              |
    /// | `background` | the launch events and stages, then `didEnterBackground`                   |
    ///
    /// Warm-up runs as one hook, in order; if a background warm-up is still running, it first waits for
    /// the module's dependencies to warm up. Each hook runs under its budget and is journaled. Hooks read
    /// the host's current state from ``LifecycleContext/applicationState``. Until catch-up is over, the
    /// module is not ready (``waitUntilReady(_:file:line:)``).
    ///
    /// From inside a hook, post ``HostRequest/register(_:)`` instead of awaiting this.
    ///
    /// - Returns: The new participant.
    /// - Throws: ``LifecycleError/Code/registrationFailed`` if the module cannot join (nothing changed), or
    ///   if a catch-up launch event throws under an aborting launch policy or times out under `.fail` (the
    ///   module is taken out again, as launch's failing participant would be);
    ///   ``LifecycleError/Code/hookFailed`` if other catch-up hooks failed or timed out and the module
    ///   stays; ``LifecycleError/Code/invalidTransition`` while terminating or terminated.
    @discardableResult
    public nonisolated func register(
        _ module: any LifecycleModule.Type,
        file: String = #fileID,
        line: Int = #line
    ) async throws(LifecycleError) -> Participant {
        let request = HostRequest.register(module)
        return try await perform(request, file: file, line: line) { host in
            await host.runRegister(module, file: file, line: line)
        }
    }

    /// Takes the module of type `module` down from the host's state and removes it from the participants.
    ///
    /// Like every request, removal waits its turn in the host's queue. Then the module alone receives the
    /// teardown events for the host's state, in order, and is dropped; it receives nothing afterwards.
    ///
    /// | host state   | teardown                                                 |
    /// |--------------|----------------------------------------------------------|
    /// | `notRunning` | nothing                                                  |
    /// | `active`     | `willResignActive`, `didEnterBackground`, `willTerminate` |
    /// | `inactive`   | `didEnterBackground`, `willTerminate`                    |
    /// | `background` | `willTerminate`                                          |
    ///
    /// `willTerminate` runs under ``Configuration/terminateDeadline``. A teardown hook that throws or times
    /// out, under any policy, does not cut the teardown short, and the module is removed all the same. A
    /// background warm-up still running drops the module: its hook is cancelled, or never starts. A module may
    /// remove itself by posting ``HostRequest/remove(_:)`` from one of its hooks: the event in progress
    /// completes first.
    ///
    /// - Throws: ``LifecycleError/Code/removalFailed`` if `module` is not a participant or a module that
    ///   stays depends on it (nothing changed); ``LifecycleError/Code/hookFailed`` or
    ///   ``LifecycleError/Code/deadlineExceeded`` if teardown hooks failed (the module is removed);
    ///   ``LifecycleError/Code/invalidTransition`` while terminating or terminated.
    public nonisolated func remove(
        _ module: any LifecycleModule.Type,
        file: String = #fileID,
        line: Int = #line
    ) async throws(LifecycleError) {
        let request = HostRequest.remove(module)
        try await perform(request, file: file, line: line) { host in
            await host.runRemove(module, file: file, line: line)
        }
    }

    /// Registers `module` and catches it up. `offReason`: what the module is listed as if its catch-up takes
    /// it out again (a reload keeps it among the disabled modules then); `nil` drops it altogether.
    func runRegister(
        _ module: any LifecycleModule.Type,
        offReason: String? = nil,
        file: String,
        line: Int
    ) async -> Result<Participant, LifecycleError> {
        let request = HostRequest.register(module)
        let state = currentState
        guard let catchUp = HostStateMachine.transition(for: request, from: state) else {
            return .failure(invalidTransition(request, file, line))
        }
        let before = dispatcher
        let added: (dispatcher: any LifecycleDispatcher, participant: Participant)
        do {
            added = try before.adding(module)
        } catch {
            var refusal = LifecycleError(
                code: .registrationFailed,
                request: request,
                state: state,
                file: file,
                line: line
            )
            refusal.underlyingError = error
            return .failure(refusal)
        }
        replaceDispatcher(added.dispatcher)
        let participant = added.participant
        guard !catchUp.steps.isEmpty else { return .success(participant) }  // not launched: it launches with all

        readiness.markPending(participant.id)
        let aborts =
            added.dispatcher.failurePolicy(of: participant).map { $0 == .abort }
            ?? (configuration.launchFailurePolicy == .abort)
        var failures: [HookFailure] = []
        for event in catchUp.steps.map(\.event) {
            if event == .warmUp {
                // A warm-up still running in the background may not have reached this module's
                // dependencies yet: like any warm-up, this one starts only after theirs.
                for dependency in added.dispatcher.dependencies(of: participant) {
                    _ = await readiness.wait(for: dependency)
                }
            }
            let delivery = await deliver(event, scope: .only([participant.id]))
            failures += delivery.outcome.failures
            // As in launch: a launch event's failure takes the module out under `abort`, and its timeout
            // under `.fail`. Failures after launch (didBecomeActive, didEnterBackground) leave it in.
            guard HostStateMachine.launchEvents.contains(event),
                delivery.stopped || (aborts && !delivery.outcome.failures.isEmpty)
            else {
                continue
            }
            // It failed its own launch: it cleans up itself, like launch's failing participant, and leaves
            // again. Nobody else saw it.
            replaceDispatcher((try? added.dispatcher.removing(module, reason: offReason).dispatcher) ?? before)
            degradedModules.removeAll { $0 == participant }
            readiness.markGone(participant.id, in: state)
            var error = LifecycleError(
                code: .registrationFailed,
                request: request,
                state: currentState,
                failures: failures,
                file: file,
                line: line
            )
            error.catchUpTimedOut = delivery.stopped
            return .failure(error)
        }
        // Caught up: its work starts as the host's started at each point passed (Docs/Work.md).
        for stage in WorkBoundary.launchStages { enterWork(.launched(stage), participants: [participant.id]) }
        if state == .active { enterWork(.active, participants: [participant.id]) }
        readiness.markReady([participant.id])
        return failures.isEmpty
            ? .success(participant) : .failure(hookFailed(request, failures, result: nil, file, line))
    }

    /// Takes `module` down and out. With a `reason`, it is switched off (listed among the disabled modules,
    /// and a reload can bring it back) rather than removed.
    func runRemove(
        _ module: any LifecycleModule.Type,
        reason: String? = nil,
        file: String,
        line: Int
    ) async -> Result<Void, LifecycleError> {
        let request = HostRequest.remove(module)
        let state = currentState
        guard let teardown = HostStateMachine.transition(for: request, from: state) else {
            return .failure(invalidTransition(request, file, line))
        }
        let removed: (dispatcher: any LifecycleDispatcher, participant: Participant)
        do {
            removed = try dispatcher.removing(module, reason: reason)
        } catch {
            var refusal = LifecycleError(code: .removalFailed, request: request, state: state, file: file, line: line)
            refusal.underlyingError = error
            return .failure(refusal)
        }
        let participant = removed.participant
        var failures: [HookFailure] = []
        var abandoned: [Participant] = []
        // Its work stops before its first teardown event, as the host's stops before willResignActive.
        let abandonedWork = await leaveWork(nil, participants: [participant.id])
        for event in teardown.steps.map(\.event) {
            let delivery = await deliver(
                event,
                scope: .only([participant.id]),
                deadline: event == .willTerminate ? configuration.terminateDeadline : nil
            )
            failures += delivery.outcome.failures
            abandoned += delivery.abandoned
            // The module leaves whatever happens, so a failure or a timeout (even under `.fail`) does not
            // cut its teardown short: it still receives every remaining event.
        }
        replaceDispatcher(removed.dispatcher)
        degradedModules.removeAll { $0 == participant }
        warmUpControl?.leave(participant.id)
        readiness.markGone(participant.id, in: state)
        // After its teardown, whose failures were counted: the instance is gone, and so are its failures.
        quarantineLedger.forget(participant)
        if !abandoned.isEmpty || !abandonedWork.isEmpty {
            var error = LifecycleError(
                code: .deadlineExceeded,
                request: request,
                state: currentState,
                failures: failures,
                file: file,
                line: line
            )
            error.abandoned = abandoned
            error.abandonedWork = abandonedWork
            return .failure(error)
        }
        return failures.isEmpty ? .success(()) : .failure(hookFailed(request, failures, result: nil, file, line))
    }
}
