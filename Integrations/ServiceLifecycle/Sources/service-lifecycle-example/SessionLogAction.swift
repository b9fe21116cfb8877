import LifecycleCore
import LifecycleScopes

/// A global action for session scopes, registered with the manifest (`withScopes(actions:)`): it writes
/// `session <id>: began` and `session <id>: ended` to the transcript. The host makes it once and shares it
/// between the sessions, so it keeps nothing per session.
struct SessionLogAction: ScopeAction {
    static let kinds: ScopeKinds = [.session]
    static let priority: ModulePriority = .normal

    /// The program's transcript, from ``ExampleServices`` in the launch options; `nil` writes nothing.
    let transcript: Transcript?

    init(context: LifecycleContext) {
        transcript = context.launchOptions[ExampleServicesKey.self]?.transcript
    }

    func didBegin(_ scope: Scope) {
        transcript?.write("session \(scope.name): began")
    }

    func willEnd(_ scope: Scope) {
        transcript?.write("session \(scope.name): ended")
    }
}
