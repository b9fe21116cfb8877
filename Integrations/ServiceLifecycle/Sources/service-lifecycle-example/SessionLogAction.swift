import LifecycleCore
import LifecycleScopes

/// A global action for session scopes, registered with the manifest (`withScopes(actions:)`): it logs
/// `session <id>: began` and `session <id>: ended` to the request log (``RequestLog``, at `.info`): a
/// client makes sessions, so their lines are off at the default level. The host makes it once and shares it
/// between the sessions, so it keeps nothing per session.
struct SessionLogAction: ScopeAction {
    static let kinds: ScopeKinds = [.session]
    static let priority: ModulePriority = .normal

    /// The program's request log, from ``ExampleServices`` in the launch options; `nil` writes nothing.
    let log: RequestLog?

    init(context: LifecycleContext) {
        log = context.launchOptions[ExampleServicesKey.self]?.requestLog
    }

    func didBegin(_ scope: Scope) {
        log?.write("session \(scope.name): began")
    }

    func willEnd(_ scope: Scope) {
        log?.write("session \(scope.name): ended")
    }
}
