import LifecycleCore

struct GreetingsModule: LifecycleModule {
    static let priority: ModulePriority = .normal

    init(context: LifecycleContext) {}
}
