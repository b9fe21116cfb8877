import LifecycleCore
import LifecycleServices

public final class AccountsModule: LifecycleModule {
    public static let priority: ModulePriority = .normal

    public init(context: LifecycleContext) {}
}

extension AccountsModule: ServiceProvidingModule {
    public static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any AccountDirectory).self) { resolver in
            NameDirectory(names: resolver.launchOptions[AccountNamesKey.self])
        }
    }
}
