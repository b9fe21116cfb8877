import Accounts
import LifecycleCore
import LifecycleMessaging
import LifecycleRouting
import LifecycleServices

/// Greets accounts by name, at `GET /greetings/:account`. It reads names from the ``AccountDirectory``
/// service and tells ``AccountsModule`` of each visit, without knowing how either is done.
struct GreetingsModule: LifecycleModule {
    static let priority: ModulePriority = .normal

    init(context: LifecycleContext) {}
}

extension GreetingsModule: ServiceRequiringModule {
    static let requiredServices = ServiceRequirements((any AccountDirectory).self)
}

extension GreetingsModule: RouteServing {
    static func serveRoutes(_ routes: inout RouteHandlers<GreetingsModule>) {
        routes.on(Greet.self) { _, greet, context in
            let directory = try context.lifecycle.services(for: Self.self).require((any AccountDirectory).self)
            guard let name = await directory.name(of: greet.account) else { throw UnknownAccount(id: greet.account) }
            let messages = context.lifecycle.messages(from: Self.self)
            let visits = try await messages.send(RecordVisit(account: greet.account), to: AccountsModule.self)
            return "hello, \(name)! (visit \(visits))"
        }
    }
}
