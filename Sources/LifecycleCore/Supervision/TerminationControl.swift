/// See ``ApplicationHost/interruptTermination()``.
struct TerminationControl: Sendable {
    var interrupted = false
    /// The `willTerminate` delivery in progress, if any.
    var delivery: DeliverySupervision.SharedState?
    /// What made the application terminate itself (``ApplicationHost/terminationFailure``).
    var failure: LifecycleError?
}
