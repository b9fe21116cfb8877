public import LifecycleCore
public import Testing

/// Why one module may be placed after another, for ``expectPlaced(_:after:because:for:in:sourceLocation:)``.
public enum PlacementReason: Sendable, Hashable, CustomStringConvertible {
    /// It depends on the other (forward events), or the other depends on it (reverse events, the mirror).
    case dependency
    /// Its priority puts it later.
    case priority
    /// The same priority, and the other comes first in the manifest.
    case manifestOrder

    public var description: String {
        switch self {
        case .dependency: "a dependency"
        case .priority: "priority"
        case .manifestOrder: "manifest order"
        }
    }

    fileprivate init(_ placement: PlanExplanation.Placement) {
        switch placement {
        case .dependency, .dependent, .delegate: self = .dependency
        case .priority: self = .priority
        case .tie: self = .manifestOrder
        }
    }
}

/// Checks that `host` delivers `event` to `module` after `other`, and why (``PlacementReason``), from the
/// host's own explanation (`ApplicationHost.explainPlan(for:)`): a test of launch order that says what it
/// relies on.
///
/// ```swift
/// expectPlaced(CacheModule.self, after: DatabaseModule.self, because: .dependency, for: .didFinishLaunching, in: host)
/// ```
///
/// On failure the issue prints the event's whole explained plan.
public func expectPlaced(
    _ module: any LifecycleModule.Type,
    after other: any LifecycleModule.Type,
    because reason: PlacementReason,
    for event: LifecycleEvent,
    in host: ApplicationHost,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let plan = host.explainPlan(for: event)
    let found = plan.reason(for: module.moduleName, comingAfter: other.moduleName)
    guard let found else {
        Issue.record(
            Comment(
                rawValue:
                    "\(module.moduleName) does not receive \(event.name) after \(other.moduleName), or one of them "
                    + "does not receive it at all (or what holds it back is outside this event's plan):\n\(plan)"
            ),
            sourceLocation: sourceLocation
        )
        return
    }
    guard PlacementReason(found) == reason else {
        Issue.record(
            Comment(
                rawValue: "\(module.moduleName) receives \(event.name) after \(other.moduleName) because of "
                    + "\(PlacementReason(found)) (\(found)), not \(reason):\n\(plan)"
            ),
            sourceLocation: sourceLocation
        )
        return
    }
}
