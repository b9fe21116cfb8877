/// An action or behavior that threw, or a scope that misbehaved, as its registry reports it
/// (``ScopeRegistry/failures``, ``Scope/failures``, ``ScopeObserver``).
public struct ScopeFailure: Sendable, CustomStringConvertible {
    /// The scope concerned.
    public let scope: ScopeSummary
    /// The event being delivered.
    public let event: ScopeEvent
    /// The action or behavior that failed; `nil` when the failure is the scope's own (a leak).
    public let action: String?
    /// What was thrown, or the ``ScopeError`` that describes it.
    public let error: any Error
    /// `true` when the failure was isolated: reported, and delivery went on. `false` when it failed the
    /// scope (an action with the `.abort` policy at `begin` or `activate`), and for timeouts and leaks.
    public let isolated: Bool

    public var description: String {
        let who = action.map { "\($0) at \(event)" } ?? "\(event)"
        return "\(scope): \(who) \(isolated ? "failed (isolated)" : "failed"): \(error)"
    }
}
