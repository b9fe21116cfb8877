/// Where a scope is in its lifecycle.
///
/// ```
/// idle ──begin──▶ inactive ◀──deactivate── active
///                    │ └───────activate──────▶ │
///                    └──end──▶ ended ◀──end────┘   (ending an active scope deactivates it first)
/// ```
///
/// Any other step is a ``ScopeError/Code/invalidTransition`` naming the scope, the step and the state;
/// a step requested while another one runs is a ``ScopeError/Code/transitionInProgress``. Ending a scope
/// that never began (`idle`) delivers nothing.
public enum ScopeState: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Made, not begun: actions have received nothing yet.
    case idle
    /// Begun, not active.
    case inactive
    /// Active.
    case active
    /// Ended: nothing is delivered any more.
    case ended

    /// The state `event` leads to from this one, or `nil` when the step is not allowed.
    public func after(_ event: ScopeEvent) -> ScopeState? {
        switch (self, event) {
        case (.idle, .begin): .inactive
        case (.inactive, .activate): .active
        case (.active, .deactivate): .inactive
        case (.idle, .end), (.inactive, .end), (.active, .end): .ended
        default: nil
        }
    }

    public var description: String { rawValue }
}
