/// Why a module's work escalated: the failure that ended it, and why it was not restarted. It is the
/// `LifecycleError.underlyingError` of a `workFailed` termination, and the reason a
/// quarantine records.
public struct WorkError: Error, Sendable, CustomStringConvertible {
    /// Why the work was not restarted.
    public enum Cause: Sendable, Hashable {
        /// It threw, and its restart type is `.temporary`.
        case failedTemporary
        /// It returned or threw once more than its intensity limit allows.
        case restartsExhausted(restarts: Int, within: Duration)
    }

    /// The module-qualified name of the module that owns the work.
    public let module: String
    /// The work's name within its module.
    public let work: String
    /// Why it was not restarted.
    public let cause: Cause
    /// What it threw last, or `nil` if it returned.
    public let failure: (any Error)?

    /// The module, the work, what it threw and why it was not restarted, with the fix.
    public var description: String {
        let ending = failure.map { "threw \($0)" } ?? "returned while it should run"
        switch cause {
        case .failedTemporary:
            return "work `\(work)` of \(module) \(ending), and its restart type is .temporary. Make it recover "
                + "from the failure, or give it restart .transient to have it restarted."
        case .restartsExhausted(let restarts, let period):
            return "work `\(work)` of \(module) \(ending) after \(restarts) restarts within \(period), the most "
                + "its policy allows. Fix the cause (the journal lists each failure), or raise policy.intensity."
        }
    }
}
