import LifecycleCore

// The conformance lives in another file than the type.
extension AnalyticsModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) { self = .enabled }
}
