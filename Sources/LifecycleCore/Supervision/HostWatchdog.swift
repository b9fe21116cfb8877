/// A host's ``Watchdog``, with entry points that are not generic: what the targets built on the host
/// (messaging, routing, scopes, hosting) call.
///
/// A `package` generic is not specialized across modules on this toolchain: called from another target,
/// every call of a `Watchdog<HostClock>` method would look up its types' metadata at run time, which costs
/// more than the call (the router paid 8 µs per opening through ten interceptors). These forward to it
/// from inside `LifecycleCore`, where it is specialized for ``HostClock``.
package struct HostWatchdog: Sendable {
    package typealias Token = Watchdog<HostClock>.Token

    /// The watchdog itself, for `LifecycleCore`'s own use.
    package let base: Watchdog<HostClock>

    package init(_ base: Watchdog<HostClock>) { self.base = base }

    /// A watchdog on `clock`, woken by a Dispatch timer when it is the continuous clock (real time), and
    /// by a task sleeping on it otherwise (a test's `VirtualClock`).
    package init(clock: HostClock) {
        base = Watchdog(clock: clock, waking: clock.time.isContinuous ? .dispatchTimer : .sleepingTask)
    }

    /// The watchdog of contexts that belong to no host, on the continuous clock.
    package static let standalone = HostWatchdog(clock: HostClock(ClockFunctions(ContinuousClock())))

    /// The host's clock.
    package var clock: HostClock { base.clock }

    /// See ``Watchdog/arm(after:_:)``.
    @discardableResult
    package func arm(after duration: Duration, _ passed: @escaping Watchdog<HostClock>.Passed) -> Token {
        base.arm(after: duration, passed)
    }

    /// See ``Watchdog/arm(at:_:tag:)``: allocates nothing.
    @discardableResult
    package func arm(after duration: Duration, _ target: any DeadlineTarget<HostClock.Instant>, tag: Int) -> Token {
        base.arm(at: base.clock.now.advanced(by: duration), target, tag: tag)
    }

    /// See ``Watchdog/disarm(_:)``.
    package func disarm(_ token: Token) { base.disarm(token) }

    /// Runs `operation` within `budget` from now: ``Watchdog/supervise(until:escalation:_:)``, abandoned at
    /// its deadline.
    package func supervise<R: Sendable>(
        within budget: Duration,
        _ operation: @escaping @Sendable () async throws -> R
    ) async -> Supervised<R> {
        await base.supervise(until: base.clock.now.advanced(by: budget), operation)
    }

    /// Runs `operation`, made of steps with budgets of their own, abandoned once a step runs past its
    /// deadline: ``Watchdog/supervise(until:escalation:_:)`` with the deadline of the step in progress
    /// (``StepDeadline``).
    ///
    /// - Returns: How it ended, and the step that ran past its deadline, if one did.
    package func supervise(
        steps operation: @escaping @Sendable (StepDeadline) async throws -> Void
    ) async -> (outcome: Supervised<Void>, overrun: StepDeadline.Step?) {
        let run = SupervisedRun<HostClock, Void>(.abandonAtDeadline)
        let steps = StepDeadline(watchdog: base, run: run)
        run.start { try await operation(steps) }
        let outcome = await run.outcome()
        steps.finish()
        return (outcome, steps.overrun)
    }
}
