/// The order in which work stops when several works stop at once (termination, leaving the active state).
///
/// Either way a work stops only after the works that come after it, as hooks of reverse events run: the
/// difference is whether unrelated works wait for each other.
public enum WorkStopOrder: Sendable, Hashable {
    /// One work at a time, in the reverse of the order they run in (modules' delivery order, then each
    /// module's declaration order): each is asked to stop once the one after it has stopped. What
    /// swift-service-lifecycle's `ServiceGroup` and OTP do. The default.
    case reverse
    /// Dependents first: a work is asked to stop once every work of the modules that depend on its module
    /// (directly or through others) and its module's later works have stopped. Works with no dependency
    /// between them stop together, so a thousand independent works stop in about the time of the slowest,
    /// not of all of them in a row.
    case dependentsFirst
}
