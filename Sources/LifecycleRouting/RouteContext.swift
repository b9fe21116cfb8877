public import LifecycleCore

/// What an interceptor or a route's handler receives besides the intent: the host's lifecycle context,
/// its router, and how the intent was reached.
public struct RouteContext: Sendable {
    /// The intent being judged or served.
    public let intent: RouteIntent
    /// The host's context: its launch options, its event emitter, its state.
    public let lifecycle: LifecycleContext
    /// The router, to open further intents.
    public let router: Router
    /// The intents that led to this one.
    let link: RouteChainLink?

    /// The intents that led to this one, outermost first: switches, restarts, and intents opened by
    /// handlers. Empty for an intent opened directly.
    public var chain: [String] { link?.descriptions ?? [] }

    /// The host's state now.
    public var applicationState: ApplicationState { lifecycle.applicationState }

    /// The host, while it exists: what a command route of a CLI host launches or runs.
    public var host: ApplicationHost? { router.host }
}
