import FeatureA
import LifecycleCore

// A refined protocol and a base class from another module.
struct RecommendationsModule: FeatureModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

final class AuditService: BaseService {}

// Cannot be registered: the build prints a warning with this file and line.
private struct HiddenModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}
