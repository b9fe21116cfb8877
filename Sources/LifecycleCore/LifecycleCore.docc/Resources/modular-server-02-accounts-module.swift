import LifecycleCore

public final class AccountsModule: LifecycleModule {
    public static let priority: ModulePriority = .normal

    public init(context: LifecycleContext) {}
}
