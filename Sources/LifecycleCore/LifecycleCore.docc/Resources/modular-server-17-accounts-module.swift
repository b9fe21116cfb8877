import LifecycleCore
import LifecycleMessaging
import LifecycleServices
import Synchronization

public final class AccountsModule: LifecycleModule {
    public static let priority: ModulePriority = .normal

    /// How many visits each account has had, by account id.
    let visits = Mutex<[Int: Int]>([:])

    public init(context: LifecycleContext) {}
}

extension AccountsModule: ServiceProvidingModule {
    public static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any AccountDirectory).self) { resolver in
            NameDirectory(names: resolver.launchOptions[AccountNamesKey.self])
        }
    }
}

extension AccountsModule: MessageReceiving {
    public static func receiveMessages(_ handlers: inout MessageHandlers<AccountsModule>) {
        handlers.on(RecordVisit.self) { module, visit, _ in
            module.visits.withLock { visits in
                visits[visit.account, default: 0] += 1
                return visits[visit.account, default: 0]
            }
        }
    }
}
