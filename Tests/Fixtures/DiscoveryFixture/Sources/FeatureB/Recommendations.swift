import FeatureA
import LifecycleCore

// A refined protocol and a base class from another module, and a dependency across targets: despite its
// higher priority, it starts after FeatureA's SearchModule.
struct RecommendationsModule: FeatureModule, DependentModule {
    static let priority: ModulePriority = .high + 100
    static let dependencies: [any LifecycleModule.Type] = [SearchModule.self]
    init(context: LifecycleContext) {}
}

final class AuditService: BaseService {}

// Cannot be registered: the build prints a warning with this file and line.
private struct HiddenModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}
