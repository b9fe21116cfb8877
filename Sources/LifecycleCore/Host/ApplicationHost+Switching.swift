extension ApplicationHost {
    // MARK: - Switching modules on and off: reload and quarantine

    /// The switches the current modules were chosen with (``ModuleSwitches``).
    public nonisolated var moduleSwitches: ModuleSwitches { dispatcher.switches }

    /// The quarantined modules, in the order they were quarantined (``QuarantinePolicy``).
    public nonisolated var quarantinedModules: [QuarantineRecord] { quarantineLedger.records }

    /// Turns modules on and off to match `switches` — by default, the launch options' switches with the
    /// modules file read again — and releases every quarantined module.
    ///
    /// Like every request, it waits its turn in the host's queue. Then:
    /// 1. The switches are checked against the host's modules; a file that cannot be read, a line that is not
    ///    a switch, or a name that is no module throws ``LifecycleError/Code/reconfigurationFailed``, and
    ///    nothing changes.
    /// 2. Modules that are now off are taken down and out as ``remove(_:file:line:)`` would, dependents
    ///    first: each alone receives the teardown events for the host's state, under its budgets. A module
    ///    that depends on a module that is off is off too (the one rule for dependents), and
    ///    ``disabledModules`` says why each one is off.
    /// 3. Modules that are now on are created and caught up as ``register(_:file:line:)`` would,
    ///    dependencies first. One that cannot join stays off, listed in ``ModuleChanges/refused``.
    ///
    /// Each change is a journal note (`switchedOff`, `switchedOn`) with its reason, among the teardown and
    /// catch-up deliveries it made.
    ///
    /// - Returns: What changed.
    /// - Throws: ``LifecycleError/Code/reconfigurationFailed`` (nothing changed);
    ///   ``LifecycleError/Code/hookFailed`` when teardown or catch-up hooks failed (the changes were made:
    ///   ``LifecycleError/moduleChanges``); ``LifecycleError/Code/invalidTransition`` while terminating or
    ///   terminated.
    @discardableResult
    public nonisolated func reloadModules(
        _ switches: ModuleSwitches? = nil,
        file: String = #fileID,
        line: Int = #line
    ) async throws(LifecycleError) -> ModuleChanges {
        try await perform(.reloadModules, file: file, line: line) { host in
            await host.runReloadModules(switches, file: file, line: line)
        }
    }

    /// Brings the quarantined module `module` back: it is created anew and caught up with the host's state,
    /// as a reload turning it on would, with the modules that were off because they depend on it.
    ///
    /// - Throws: ``LifecycleError/Code/reconfigurationFailed`` if `module` is not quarantined;
    ///   ``LifecycleError/Code/hookFailed`` if catch-up hooks failed.
    @discardableResult
    public nonisolated func releaseQuarantine(
        _ module: any LifecycleModule.Type,
        file: String = #fileID,
        line: Int = #line
    ) async throws(LifecycleError) -> ModuleChanges {
        try await perform(.releaseQuarantine(module), file: file, line: line) { host in
            await host.runReleaseQuarantine(module, file: file, line: line)
        }
    }

    func runReloadModules(
        _ switches: ModuleSwitches?,
        file: String,
        line: Int
    ) async -> Result<ModuleChanges, LifecycleError> {
        let request = HostRequest.reloadModules
        guard HostStateMachine.allows(request, in: currentState) else {
            return .failure(invalidTransition(request, file, line))
        }
        let chosen: ModuleSwitches
        do {
            chosen = try switches ?? ModuleSwitches.load(from: context.launchOptions)
            // Checked before anything is released, so a broken file changes nothing at all.
            _ = try dispatcher.switchPlan(switches: chosen, quarantined: [:])
        } catch {
            return .failure(refused(request, error, file, line))
        }
        for record in quarantineLedger.releaseAll() { note("released", record.module, "by reloadModules()") }
        return await reconcile(request, switches: chosen, file: file, line: line)
    }

    func runReleaseQuarantine(
        _ module: any LifecycleModule.Type,
        file: String,
        line: Int
    ) async -> Result<ModuleChanges, LifecycleError> {
        let request = HostRequest.releaseQuarantine(module)
        guard HostStateMachine.allows(request, in: currentState) else {
            return .failure(invalidTransition(request, file, line))
        }
        let name = module.moduleName
        guard quarantineLedger.release(name) else {
            let quarantined = quarantineLedger.records.map(\.module)
            let error = ModuleSwitchesError(
                source: "releaseQuarantine(_:)",
                problem: "`\(name)` is not quarantined",
                fix: quarantined.isEmpty
                    ? "no module is quarantined" : "quarantined now: \(quarantined.joined(separator: ", "))"
            )
            return .failure(refused(request, error, file, line))
        }
        note("released", name, "by releaseQuarantine(_:)")
        return await reconcile(request, switches: dispatcher.switches, file: file, line: line)
    }

    /// Quarantines `module` for `reason` now (its work failed past its policy): it is taken out as hook
    /// failures past the quarantine policy would take it out.
    func runQuarantine(_ module: any LifecycleModule.Type, reason: String) async {
        guard let participant = dispatcher.participant(of: module) else { return }
        let policy = configuration.quarantine ?? .standard
        if quarantineLedger.quarantine(participant, reason: reason, policy: policy) { await quarantineDueModules() }
    }

    /// Counts hook failures towards quarantine. Called with every delivery's failures; costs nothing when
    /// there are none.
    func countTowardsQuarantine(_ failures: [HookFailure]) {
        guard !failures.isEmpty else { return }
        let state = currentState
        guard state != .terminating, state != .terminated else { return }
        let hostPolicy = configuration.quarantine
        let dispatcher = self.dispatcher
        let now = time.now()
        for failure in failures {
            // The program's delegate is not a module: it is never quarantined.
            guard let type = dispatcher.moduleType(of: failure.participant) else { continue }
            let policy = (type as? any QuarantinePolicyModule.Type).map { $0.quarantinePolicy } ?? hostPolicy
            guard let policy else { continue }
            if quarantineLedger.count(failure, policy: policy, now: now) { quarantineDue = true }
        }
    }

    /// Takes out the modules that crossed their quarantine threshold during the request just processed,
    /// before the next request starts. Its errors go to ``Configuration/onUnobservedError``.
    func quarantineDueModules() async {
        quarantineDue = false
        let dispatcher = self.dispatcher
        let due = quarantineLedger.takeDue { dispatcher.moduleType(of: $0) != nil }
        guard !due.isEmpty else { return }
        let state = currentState
        guard state == .notRunning || state.isRunning else { return }
        for (_, record) in due { note("quarantined", record.module, record.reason) }
        let (file, line) = ("quarantine", 0)
        if case .failure(let error) = await reconcile(
            .reloadModules,
            switches: dispatcher.switches,
            file: file,
            line: line
        ) {
            configuration.onUnobservedError(error)
        }
    }

    /// Turns the modules to `switches` and the ledger's quarantines: one mechanism for reloads, quarantines
    /// and releases. Takes the modules now off down and out, dependents first, then brings those now on in,
    /// dependencies first, each as `remove` and `register` would.
    private func reconcile(
        _ request: HostRequest,
        switches: ModuleSwitches,
        file: String,
        line: Int
    ) async -> Result<ModuleChanges, LifecycleError> {
        var plan: ModuleSwitchPlan
        do {
            plan = try dispatcher.switchPlan(switches: switches, quarantined: quarantineLedger.reasons)
            // A reload that changes nothing (most SIGHUPs) rebuilds nothing and tells the preparations nothing.
            if plan.off.isEmpty, plan.on.isEmpty, dispatcher.switches == plan.switches,
                dispatcher.disabledModules.elementsEqual(plan.disabled, by: { $0 == $1 })
            {
                return .success(ModuleChanges())
            }
            // Recorded first, so a registration in between is judged against the new switches.
            replaceDispatcher(try dispatcher.applying(plan))
        } catch {
            return .failure(refused(request, error, file, line))
        }
        var changes = ModuleChanges()
        var failures: [HookFailure] = []
        for (type, reason) in plan.off {
            let outcome = await runRemove(type, reason: reason, file: file, line: line)
            if case .failure(let error) = outcome, error.code == .removalFailed {
                // Dependents go first, so only a module registered in between can be refused; it stays on.
                changes.refused.append(ModuleChanges.Change(module: type.moduleName, reason: "\(error)"))
                plan.disabled.removeAll { $0.name == type.moduleName }
                continue
            }
            if case .failure(let error) = outcome { failures += error.failures }
            changes.turnedOff.append(ModuleChanges.Change(module: type.moduleName, reason: reason))
            note("switchedOff", type.moduleName, reason)
        }
        for type in plan.on {
            let name = type.moduleName
            switch await runRegister(type, offReason: "its catch-up failed", file: file, line: line) {
            case .success:
                changes.turnedOn.append(name)
                note("switchedOn", name, "by \(request)")
            case .failure(let error) where error.code == .hookFailed:
                failures += error.failures
                changes.turnedOn.append(name)
                note("switchedOn", name, "by \(request), with failing catch-up hooks")
            case .failure(let error):
                failures += error.failures
                let why = "it could not join: \(error)"
                changes.refused.append(ModuleChanges.Change(module: name, reason: why))
                plan.disabled.append((name, why))
                note("refused", name, why)
            }
        }
        do {
            replaceDispatcher(try dispatcher.applying(plan))
        } catch {
            return .failure(refused(request, error, file, line))
        }
        guard failures.isEmpty else {
            var error = hookFailed(request, failures, result: nil, file, line)
            error.moduleChanges = changes
            return .failure(error)
        }
        return .success(changes)
    }

    private func refused(_ request: HostRequest, _ error: any Error, _ file: String, _ line: Int) -> LifecycleError {
        var refusal = LifecycleError(
            code: .reconfigurationFailed,
            request: request,
            state: currentState,
            file: file,
            line: line
        )
        refusal.underlyingError = error
        return refusal
    }

    /// A journal note about `module`, when the host keeps a journal, and the same for the instruments.
    private func note(_ name: String, _ module: String, _ text: String) {
        for instrument in instruments { instrument.moduleChanged(name, module: module, reason: text) }
        guard let journal else { return }
        let participant =
            dispatcher.participants.first { $0.name == module } ?? Participant(name: module, priority: nil, id: -1)
        journal.note(name, participant, text, at: .now)
    }
}
