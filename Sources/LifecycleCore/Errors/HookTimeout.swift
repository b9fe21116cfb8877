/// The failure recorded for a hook that ran past its budget: it names the module, the event, the budget
/// and the time it had run when the host gave up waiting.
///
/// The hook is not stopped — Swift cannot stop a task — but it is cancelled and abandoned: its result, if
/// it ever returns, is ignored, and the module is marked degraded.
public struct HookTimeout: Error, Sendable, Hashable, CustomStringConvertible {
    /// The module (or delegate) whose hook ran too long.
    public let participant: String
    /// The event being delivered.
    public let event: LifecycleEvent
    /// The budget that applied.
    public let budget: Duration
    /// How long the hook had run when it was abandoned.
    public let elapsed: Duration

    package init(participant: String, event: LifecycleEvent, budget: Duration, elapsed: Duration) {
        self.participant = participant
        self.event = event
        self.budget = budget
        self.elapsed = elapsed
    }

    public var description: String {
        "`\(participant)` exceeded its \(budget) budget in \(event.name) (abandoned after \(elapsed)); raise the "
            + "budget with TimeBudgetedModule or configuration.eventBudgets, or make the hook return sooner"
    }
}
