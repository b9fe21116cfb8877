/// An event of a scope's lifecycle, delivered to its actions and behaviors.
///
/// `begin` and `activate` go forward: global actions by priority, highest first, then the scope's own
/// adoptions in the order they were added. `deactivate` and `end` go in reverse, the exact mirror.
public enum ScopeEvent: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The scope has begun: `didBegin`.
    case begin
    /// The scope has become active: `didActivate`.
    case activate
    /// The scope is about to become inactive: `willDeactivate`.
    case deactivate
    /// The scope is about to end: `willEnd`.
    case end

    /// Whether the event is delivered in reverse order (`deactivate`, `end`).
    public var isTeardown: Bool { self == .deactivate || self == .end }

    public var description: String { rawValue }
}
