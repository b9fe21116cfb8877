/// See ``ApplicationHost/interruptTermination()``.
struct TerminationControl: Sendable {
    var interrupted = false
    /// The `willTerminate` delivery in progress, if any.
    var delivery: DeliverySupervision.SharedState?
}
