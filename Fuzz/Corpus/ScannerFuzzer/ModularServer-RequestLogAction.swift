import LifecycleCore
import LifecycleScopes

/// Logs every request: `→ GET /greetings/42` when its scope begins, `← GET /greetings/42` when it ends. A
/// global scope action: the discovery plugin finds it, and the host runs it for every request scope.
struct RequestLogAction: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal

    let log: ServerLog

    init(context: LifecycleContext) {
        log = context.launchOptions[ServerLogKey.self]
    }

    func didBegin(_ scope: Scope) async throws { log.write("→ \(scope.name)") }
    func willEnd(_ scope: Scope) async throws { log.write("← \(scope.name)") }
}
