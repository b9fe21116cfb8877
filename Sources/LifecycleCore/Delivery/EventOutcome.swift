/// What came of delivering one event: the combined result, and every hook that threw.
///
/// The host turns it into a result or a ``LifecycleError``.
@usableFromInline
package struct EventOutcome<Result: Sendable>: Sendable {
    /// The event delivered.
    package let event: LifecycleEvent
    /// The combined result of every participant that answered, or the event's default when none did.
    package let result: Result
    /// Every hook that threw, in delivery order.
    package let failures: [HookFailure]
    /// How many hooks were called.
    package let delivered: Int

    @usableFromInline
    package init(event: LifecycleEvent, result: Result, failures: [HookFailure], delivered: Int) {
        self.event = event
        self.result = result
        self.failures = failures
        self.delivered = delivered
    }
}
