import LifecycleCore

/// One run of a work: from the moment its schedule starts it until it stops, through its restarts.
///
/// Its task is a child of the host's work group (``WorkGroup``) and owns one child of its own, the loop
/// that runs the body, restarts it and escalates: so the host can cancel this one work without touching the
/// others (a child of a group cannot be cancelled alone, and keeping an `UnsafeCurrentTask` to cancel it
/// would take an `@unchecked Sendable` wrapper the package allows in one audited primitive only). Stopping
/// climbs graceful → cancelled → abandoned on the host's watchdog, on the host's clock (Docs/Work.md,
/// "Stopping").
final class WorkRun: WorkReadiness, DeadlineTarget {
    typealias Instant = HostClock.Instant

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
        /// Who waits for the stop to finish, and the run's place in its stop plan.
        var onStopped: (observer: any WorkStopObserver, index: Int)?
        /// The deadlines armed for its stop (grace period, then cancellation grace): at most two.
        var grace: HostWatchdog.Token?
        var cancellationGrace: HostWatchdog.Token?
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
    private let state = Locked(State())
    /// Settled when the loop ends or the run is cancelled: the run's task then cancels the loop and waits.
    private let hardStop = OneShot<Void>()
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
        // Counted as pending by the supervisor, for the whole batch at once (``WorkSupervisor/enter``).
        state.withLock { state in
            state.instance = instance
            state.readinessCounted = declaration.reportsReadiness
        }
    }

    /// `Module.work`, as the journal and errors name it.
    var name: String { "\(participant.name).\(declaration.name)" }

    var phase: Phase { state.withLock { $0.phase } }
    var attempts: Int { state.withLock { $0.attempts } }

    private var watchdog: HostWatchdog { lifecycle.watchdog }

    // MARK: - Running

    /// The run's task: the loop as its one child, which it cancels when the run is cancelled (``cancel()``).
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.loop() }
            await hardStop.value(orOnCancel: {})
            group.cancelAll()
        }
        ended()
    }

    private func loop() async {
        // The async frame is kept small: every attempt's bookkeeping is in synchronous helpers, so a run's
        // first task-allocator slab holds the body's frames too (a larger frame cost two slab allocations per
        // run).
        while true {
            guard let (attempt, instance) = beginAttempt() else { break }
            let failure = await attemptBody(attempt, instance)
            guard let delay = afterAttempt(failure) else { break }
            guard await backOff(delay) else {
                note("workStopped", "during its backoff")
                setPhase(.stopped)
                break
            }
        }
        // A work that gave up keeps holding readiness back: the host is not ready without it. The next run
        // of the same work, or the module's removal, releases it.
        if phase != .gaveUp { stopCountingReadiness() }
        state.withLock { $0.instance = nil }
        hardStop.settle(())
    }

    /// The next attempt's number and the instance it runs with; `nil` once the instance was let go.
    private func beginAttempt() -> (Int, any LifecycleModule)? {
        let started: (Int, any LifecycleModule)? = state.withLock { state in
            guard let instance = state.instance else { return nil }
            state.attempts += 1
            state.phase = state.readinessCounted ? .running : .ready
            return (state.attempts, instance)
        }
        guard let (attempt, _) = started else { return nil }
        note(attempt == 1 ? "workStarted" : "workRestarted", attempt == 1 ? "" : "attempt \(attempt)")
        return started
    }

    /// Runs the body once; the error it threw, if any.
    private func attemptBody(_ attempt: Int, _ instance: any LifecycleModule) async -> (any Error)? {
        let context = WorkContext(
            work: declaration.name,
            attempt: attempt,
            lifecycle: lifecycle,
            participant: participant,
            shutdown: shutdown,
            readiness: self
        )
        do {
            try await lifecycle.faults?.strike(participant, .work(declaration.name))
            try await declaration.body(instance, context)
            return nil
        } catch {
            return error
        }
    }

    /// After an attempt: `nil` when the run is over (stopped, finished, or escalated), else the backoff
    /// before the next attempt.
    private func afterAttempt(_ failure: (any Error)?) -> Duration? {
        let policy = declaration.policy
        let result: Result<Void, any Error> = failure.map { .failure($0) } ?? .success(())
        if shutdown.isRequested || Task.isCancelled {
            note("workStopped", result.failureText.map { "threw while stopping: \($0)" } ?? "")
            setPhase(.stopped)
            return nil
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
            return nil
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
            escalate(WorkError(module: participant.name, work: declaration.name, cause: cause, failure: result.failure))
            return nil
        }
        countNotReady()
        setPhase(.restarting)
        note("workRestarting", "in \(delay)")
        return delay
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

    func reportReady() {
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
    /// cancellation grace. `observer` is told once, with `index`: at once if the run has ended already.
    func stop(_ observer: any WorkStopObserver, index stopIndex: Int) {
        let ended = state.withLock { state in
            guard !state.ended else { return true }
            state.onStopped = (observer, stopIndex)
            if state.phase != .gaveUp, state.phase != .finished { state.phase = .stopping }
            return false
        }
        guard !ended else { return observer.runStopped(stopIndex, abandoned: false) }
        shutdown.request()
        let token = watchdog.arm(after: declaration.policy.gracePeriod, self, tag: Self.graceTag)
        keep(token) { $0.grace = token }
    }

    private static let graceTag = 0
    private static let cancellationGraceTag = 1

    func deadlinePassed(_ tag: Int, at now: HostClock.Instant) -> HostClock.Instant? {
        if tag == Self.graceTag { cancel() } else { abandon() }
        return nil
    }

    /// Its grace period passed: cancel it, and abandon it if it does not return within the cancellation grace.
    private func cancel() {
        let proceed = state.withLock { state in
            guard !state.ended, !state.cancelled else { return false }
            state.cancelled = true
            return true
        }
        guard proceed else { return }
        hardStop.settle(())
        note("workCancelled", "it did not stop within \(declaration.policy.gracePeriod)")
        let token = watchdog.arm(after: declaration.policy.cancellationGrace, self, tag: Self.cancellationGraceTag)
        keep(token) { $0.cancellationGrace = token }
    }

    private func abandon() {
        let stopped = state.withLock { state in
            guard !state.ended else { return nil as (observer: any WorkStopObserver, index: Int)? }
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
        stopped.observer.runStopped(stopped.index, abandoned: true)
    }

    /// The run's task returned.
    private func ended() {
        let (stopped, grace, cancellationGrace, already) = state.withLock { state in
            defer {
                state.ended = true
                state.onStopped = nil
                state.grace = nil
                state.cancellationGrace = nil
            }
            return (state.onStopped, state.grace, state.cancellationGrace, state.ended)
        }
        if let grace { watchdog.disarm(grace) }
        if let cancellationGrace { watchdog.disarm(cancellationGrace) }
        guard !already else { return }  // abandoned: it was let go already
        onEnd(self)
        if let stopped { stopped.observer.runStopped(stopped.index, abandoned: false) }
    }

    /// Keeps a deadline to disarm when the run ends (`store` puts it in its slot); disarms it at once if the
    /// run has ended.
    private func keep(_ token: HostWatchdog.Token, _ store: (inout State) -> Void) {
        let ended = state.withLock { state in
            if !state.ended { store(&state) }
            return state.ended
        }
        if ended { watchdog.disarm(token) }
    }

    private func setPhase(_ phase: Phase) { state.withLock { $0.phase = phase } }

    private func note(_ change: String, _ detail: String) {
        link.recordingHost?.noteWork(change, participant, work: declaration.name, detail: detail)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    fileprivate var failureText: String? { failure.map { "\($0)" } }
}

/// Who a stopping ``WorkRun`` tells that it has stopped: its ``WorkStopPlan``'s progress. A reference and an
/// index, not a closure per run.
protocol WorkStopObserver: AnyObject, Sendable {
    func runStopped(_ index: Int, abandoned: Bool)
}
