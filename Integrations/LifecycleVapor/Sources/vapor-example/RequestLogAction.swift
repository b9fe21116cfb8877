import ExampleFeatures
import LifecycleCore
import LifecycleScopes
import Logging

/// A scope action for every request scope: logs `request <METHOD> <path>: ended` when the scope ends, after
/// the handler answered. Discovered by the plugin, like the modules.
///
/// A per-request line goes through swift-log at `.debug`, under the label ``label``: off at Vapor's default
/// levels (`info` in development, `notice` in production), on with `--log debug` or `LOG_LEVEL=debug`. The
/// entry point sends this label to the transcript (``TranscriptLogHandler``).
struct RequestLogAction: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    /// The logger label of the per-request lines.
    static let label = "vapor-example.requests"

    let logger = Logger(label: Self.label)

    init(context: LifecycleContext) {}

    func willEnd(_ scope: Scope) {
        logger.debug("request \(scope.name): ended")
    }
}
