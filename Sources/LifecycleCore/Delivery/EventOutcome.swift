/// What came of delivering one event: the combined result, and every hook that threw.
public struct EventOutcome<Result: Sendable>: Sendable {
    /// The event delivered.
    public let event: LifecycleEvent
    /// The combined result of every participant that answered, or the event's default when none did.
    public let result: Result
    /// Every hook that threw, in delivery order.
    public let failures: [HookFailure]
    /// How many hooks were called.
    public let delivered: Int

    package init(event: LifecycleEvent, result: Result, failures: [HookFailure], delivered: Int) {
        self.event = event
        self.result = result
        self.failures = failures
        self.delivered = delivered
    }
}
