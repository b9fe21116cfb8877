import Accounts
import LifecycleCore
import LifecycleServices

struct GreetingsModule: LifecycleModule {
    static let priority: ModulePriority = .normal

    init(context: LifecycleContext) {}
}

extension GreetingsModule: ServiceRequiringModule {
    static let requiredServices = ServiceRequirements((any AccountDirectory).self)
}
