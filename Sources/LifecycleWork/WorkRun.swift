import LifecycleCore

/// One run of a work: from the moment its schedule starts it until it stops, through its restarts.
///
/// Its task is a child of the host's work group (``WorkGroup``) and owns one child of its own, the loop
/// that runs the body, restarts it and escalates: so the host can cancel this one work without touching
/// the others. Stopping climbs graceful → cancelled → abandoned on the host's watchdog, on the host's
/// clock (Docs/Work.md, "Stopping").
final class WorkRun: Sendable {
    /// Where a run is, for ``WorkStatus``.
    enum Phase: Sendable, Hashable {
        case running, ready, restarting, stopping, stopped, finished, gaveUp, abandoned
    }

    private struct State {
        var phase = Phase.running
        var attempts = 0
        var history = RestartHistory()
        /// Whether the host counts this run as not ready yet (``ApplicationHost/markWorkPending(_:)``).
        var readinessCounted = false
        /// The body's task has returned, or the run was abandoned.
        var ended = false
        var cancelled = false
        /// Who waits for the stop to finish.
        var onStopped: (@Sendable (_ abandoned: Bool) -> Void)?
        var tokens: [HostWatchdog.Token] = []
        /// The module instance the body runs with; let go once the run has ended, since the run itself may
        /// be kept (for the status, by the batch it started in) after its module is gone.
        var instance: (any LifecycleModule)?
    }

    let participant: Participant
    /// The work's place among its module's declarations.
    let index: Int
    let declaration: WorkDeclaration
    private let lifecycle: LifecycleContext
    private let link: HostLink
    private let shutdown = GracefulShutdown()
    /// Settled when the loop ends or the run is cancelled: the run's task then cancels the loop and waits.
    private let hardStop = OneShot<Void>()
    private let state = Locked(State())
    /// Called once, when the run has ended (or was abandoned).
    private let onEnd: @Sendable (WorkRun) -> Void

    init(
        participant: Participant,
        index: Int,
        declaration: WorkDeclaration,
        instance: any LifecycleModule,
        lifecycle: LifecycleContext,
        link: HostLink,
        onEnd: @escaping @Sendable (WorkRun) -> Void
    ) {
        self.participant = participant
        self.index = index
        self.declaration = declaration
        self.lifecycle = lifecycle
        self.link = link
        self.onEnd = onEnd
        state.withLock { state in
            state.instance = instance
            state.readinessCounted = declaration.reportsReadiness
        }
        if declaration.reportsReadiness { link.host?.markWorkPending(participant.id) }
    }

    /// `Module.work`, as the journal and errors name it.
    var name: String { "\(participant.name).\(declaration.name)" }

    var phase: Phase { state.withLock { $0.phase } }
    var attempts: Int { state.withLock { $0.attempts } }

    private var watchdog: HostWatchdog { lifecycle.watchdog }

    // MARK: - Running

    /// The run's task: the loop as its one child, which it cancels when the run is cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.loop() }
            await hardStop.value(orOnCancel: {})
            group.cancelAll()
        }
        ended()
    }

    private func loop() async {
        let policy = declaration.policy
        while true {
            let started: (attempt: Int, instance: any LifecycleModule)? = state.withLock { state in
                guard let instance = state.instance else { return nil }
                state.attempts += 1
                state.phase = state.readinessCounted ? .running : .ready
                return (state.attempts, instance)
            }
            guard let (attempt, instance) = started else { break }
            note(attempt == 1 ? "workStarted" : "workRestarted", attempt == 1 ? "" : "attempt \(attempt)")
            let context = WorkContext(
                module: participant.name,
                work: declaration.name,
                attempt: attempt,
                lifecycle: lifecycle,
                shutdown: shutdown,
                ready: { [weak self] in self?.reportReady() }
            )
            let result: Result<Void, any Error>
            do {
                try await declaration.body(instance, context)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            if shutdown.isRequested || Task.isCancelled {
                note("workStopped", result.failureText.map { "threw while stopping: \($0)" } ?? "")
                setPhase(.stopped)
                break
            }
            if let failure = result.failureText { note("workFailed", failure) }
            let restarts =
                switch (policy.restart, result) {
                case (.permanent, _), (.transient, .failure): true
                default: false
                }
            guard restarts else {
                if case .failure(let error) = result {
                    escalate(
                        WorkError(
                            module: participant.name,
                            work: declaration.name,
                            cause: .failedTemporary,
                            failure: error
                        )
                    )
                } else {
                    note("workFinished", "")
                    setPhase(.finished)
                }
                break
            }
            let now = watchdog.clock.now.offset
            let delay = state.withLock { state in
                state.history.restart(at: now, policy: policy, random: Double.random(in: 0..<1))
            }
            guard let delay else {
                let cause = WorkError.Cause.restartsExhausted(
                    restarts: policy.intensity.maxRestarts,
                    within: policy.intensity.period
                )
                escalate(
                    WorkError(module: participant.name, work: declaration.name, cause: cause, failure: result.failure)
                )
                break
            }
            countNotReady()
            setPhase(.restarting)
            note("workRestarting", "in \(delay)")
            guard await backOff(delay) else {
                note("workStopped", "during its backoff")
                setPhase(.stopped)
                break
            }
        }
        // A work that gave up keeps holding readiness back: the host is not ready without it. The next run
        // of the same work, or the module's removal, releases it.
        if phase != .gaveUp { stopCountingReadiness() }
        hardStop.settle(())
    }

    /// Waits `delay` on the host's clock; `false` if shutdown was requested or the task cancelled first.
    private func backOff(_ delay: Duration) async -> Bool {
        guard delay > .zero else { return !shutdown.isRequested && !Task.isCancelled }
        let wake = OneShot<Bool>()
        let token = watchdog.arm(after: delay) { _ in
            wake.settle(true)
            return nil
        }
        let handler = shutdown.onRequest { wake.settle(false) }
        let elapsed = await wake.value(orOnCancel: { false })
        watchdog.disarm(token)
        if let handler { shutdown.removeHandler(handler) }
        return elapsed && !shutdown.isRequested
    }

    /// The work failed and is not restarted: its policy's escalation.
    private func escalate(_ error: WorkError) {
        setPhase(.gaveUp)
        note("workGaveUp", "\(error)")
        guard let host = link.host else { return }
        switch declaration.policy.escalation {
        case .ignore:
            break
        case .quarantineModule:
            host.quarantine(participant, reason: "\(error)")
        case .terminateApplication:
            var failure = LifecycleError(
                code: .workFailed,
                request: .terminate,
                state: host.state,
                file: "LifecycleWork/\(participant.name).\(declaration.name)",
                line: 0
            )
            failure.underlyingError = error
            host.terminate(dueTo: failure)
        }
    }

    // MARK: - Readiness

    private func reportReady() {
        let counted = state.withLock { state in
            guard state.readinessCounted else { return false }
            state.readinessCounted = false
            if state.phase == .running { state.phase = .ready }
            return true
        }
        guard counted else { return }
        link.host?.markWorkReady(participant.id)
        note("workReady", "")
    }

    /// A restart: not ready until it says so again.
    private func countNotReady() {
        guard declaration.reportsReadiness else { return }
        let count = state.withLock { state in
            defer { state.readinessCounted = true }
            return !state.readinessCounted
        }
        if count { link.host?.markWorkPending(participant.id) }
    }

    /// Stops holding the host's readiness back: the run stopped, or a new run of the work replaces it.
    func stopCountingReadiness() {
        let counted = state.withLock { state in
            defer { state.readinessCounted = false }
            return state.readinessCounted
        }
        if counted { link.host?.markWorkReady(participant.id) }
    }

    // MARK: - Stopping

    /// Stops the run: asks it to stop, cancels it after its grace period, abandons it after the
    /// cancellation grace. `stopped` is called once: at once if the run has ended already.
    func stop(_ stopped: @escaping @Sendable (_ abandoned: Bool) -> Void) {
        let ended = state.withLock { state in
            guard !state.ended else { return true }
            state.onStopped = stopped
            if state.phase != .gaveUp, state.phase != .finished { state.phase = .stopping }
            return false
        }
        guard !ended else { return stopped(false) }
        shutdown.request()
        keep(
            watchdog.arm(after: declaration.policy.gracePeriod) { [self] _ in
                cancel()
                return nil
            }
        )
    }

    /// Its grace period passed: cancel it, and abandon it if it does not return within the cancellation grace.
    private func cancel() {
        let proceed = state.withLock { state in
            guard !state.ended, !state.cancelled else { return false }
            state.cancelled = true
            return true
        }
        guard proceed else { return }
        note("workCancelled", "it did not stop within \(declaration.policy.gracePeriod)")
        hardStop.settle(())
        keep(
            watchdog.arm(after: declaration.policy.cancellationGrace) { [self] _ in
                abandon()
                return nil
            }
        )
    }

    private func abandon() {
        let stopped = state.withLock { state in
            guard !state.ended else { return nil as (@Sendable (Bool) -> Void)? }
            state.ended = true
            state.phase = .abandoned
            state.instance = nil
            defer { state.onStopped = nil }
            return state.onStopped
        }
        guard let stopped else { return }
        note("workAbandoned", "it ignored cancellation for \(declaration.policy.cancellationGrace)")
        stopCountingReadiness()
        onEnd(self)
        stopped(true)
    }

    /// The run's task returned.
    private func ended() {
        let (stopped, tokens, already): ((@Sendable (Bool) -> Void)?, [HostWatchdog.Token], Bool) = state.withLock {
            state in
            defer {
                state.ended = true
                state.onStopped = nil
                state.tokens = []
                state.instance = nil
            }
            return (state.onStopped, state.tokens, state.ended)
        }
        for token in tokens { watchdog.disarm(token) }
        guard !already else { return }  // abandoned: it was let go already
        onEnd(self)
        stopped?(false)
    }

    /// Keeps a deadline to disarm when the run ends; disarms it at once if the run has ended.
    private func keep(_ token: HostWatchdog.Token) {
        let ended = state.withLock { state in
            if !state.ended { state.tokens.append(token) }
            return state.ended
        }
        if ended { watchdog.disarm(token) }
    }

    private func setPhase(_ phase: Phase) { state.withLock { $0.phase = phase } }

    private func note(_ change: String, _ detail: String) {
        link.host?.noteWork(change, participant, work: declaration.name, detail: detail)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    fileprivate var failureText: String? { failure.map { "\($0)" } }
}
