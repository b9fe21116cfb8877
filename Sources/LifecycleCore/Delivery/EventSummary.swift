/// What came of delivering one event, as a ``LifecycleInstrument`` is told when it ends.
public struct EventSummary: Sendable, CustomStringConvertible {
    /// The event delivered.
    public let event: LifecycleEvent
    /// The host's state while it was delivered.
    public let state: ApplicationState
    /// When delivery started, on `ContinuousClock`.
    public let start: ContinuousClock.Instant
    /// How long the whole event took.
    public let duration: Duration
    /// How many participants the event's plan held.
    public let planned: Int
    /// Every hook that threw or timed out (a ``HookTimeout``), in the order it happened.
    public let failures: [HookFailure]
    /// Participants the event never reached or gave up on: skipped after a timeout stopped it, abandoned
    /// at the termination deadline or by an interruption.
    public let abandoned: [Participant]
    /// Whether a timeout stopped the event before every participant was reached.
    public let stopped: Bool

    package init(
        event: LifecycleEvent,
        state: ApplicationState,
        start: ContinuousClock.Instant,
        duration: Duration,
        planned: Int,
        failures: [HookFailure],
        abandoned: [Participant],
        stopped: Bool
    ) {
        self.event = event
        self.state = state
        self.start = start
        self.duration = duration
        self.planned = planned
        self.failures = failures
        self.abandoned = abandoned
        self.stopped = stopped
    }

    /// How many of ``failures`` are timeouts.
    public var timeouts: Int { failures.count { $0.error is HookTimeout } }

    public var description: String {
        var text = "\(event.name) in \(state): \(planned) planned, \(duration.microsecondsDescription)"
        if !failures.isEmpty { text += ", \(failures.count) failed" }
        if stopped { text += ", stopped" }
        if !abandoned.isEmpty { text += ", \(abandoned.count) abandoned" }
        return text
    }
}
