import LifecycleCore
import LifecycleMessaging
import LifecycleRouting
import LifecycleServices
import Synchronization

/// Owns the accounts: provides the ``AccountDirectory`` service, counts the visits that ``RecordVisit``
/// messages report, and serves `GET /accounts/:id`.
///
/// A final class, so it can hold its mutable state behind a `Mutex`. The host creates one per host, so the
/// counts belong to one host, never to the process.
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

extension AccountsModule: RouteServing {
    public static func serveRoutes(_ routes: inout RouteHandlers<AccountsModule>) {
        routes.on(ShowAccount.self) { module, show, context in
            let directory = try context.lifecycle.services.require((any AccountDirectory).self)
            guard let name = await directory.name(of: show.id) else { throw UnknownAccount(id: show.id) }
            let visits = module.visits.withLock { $0[show.id, default: 0] }
            return "account \(show.id): \(name), \(visits) visit(s)"
        }
    }
}
