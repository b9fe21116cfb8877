/// A module that sets its own time budget for some events, overriding the host's.
///
/// ```swift
/// struct MigrationsModule: LifecycleModule, TimeBudgetedModule, DidFinishLaunching {
///     static let priority: ModulePriority = .high
///     static func budget(for event: LifecycleEvent) -> Duration? {
///         event == .didFinishLaunching ? .seconds(120) : nil  // nil: the host's budget applies
///     }
///     …
/// }
/// ```
public protocol TimeBudgetedModule: LifecycleModule {
    /// The most time one of this module's hooks may take for `event`, or `nil` for the host's budget.
    static func budget(for event: LifecycleEvent) -> Duration?
}
