import ExampleFeatures
import LifecycleCore
import LifecycleScopes

/// A scope action for every request scope: writes `request <METHOD> <path>: ended` when the scope ends,
/// after the handler answered. Discovered by the plugin, like the modules.
struct RequestLogAction: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal

    let transcript: Transcript?

    init(context: LifecycleContext) {
        transcript = context.launchOptions[TranscriptKey.self]
    }

    func willEnd(_ scope: Scope) {
        transcript?.write("request \(scope.name): ended")
    }
}
