import LifecycleCore

public struct SearchModule: FeatureModule {
    public static let priority: ModulePriority = .high
    public init(context: LifecycleContext) {}
}

enum Payments {
    struct Gateway: ModuleAlias {
        static let priority: ModulePriority = .normal + 10
        init(context: LifecycleContext) {}
    }
}

// Sendable here: Swift requires it in the declaring file; the module conformance lives in another file.
enum AnalyticsModule: Sendable {
    case enabled
}

#if DEBUG
struct DebugMenuModule: LifecycleModule {
    static let priority: ModulePriority = .minimum
    init(context: LifecycleContext) {}
}
#endif
