/// How many instances of a service exist, and when they are created. The same three lifetimes as .NET's
/// `IServiceCollection`: singleton, scoped and transient (see `Docs/Services.md`).
public enum ServiceLifetime: Sendable, Hashable, CustomStringConvertible {
    /// One instance per host, created on first resolution (`eager: nil`) or at a launch stage, shut down
    /// after every module has received `willTerminate`, in reverse creation order.
    case singleton(eager: EagerStage?)
    /// One instance per scope (a request, a session, a job: `LifecycleScopes`), created on its first
    /// resolution in that scope and never shared with another, shut down at that scope's end, after the
    /// scope's end actions, newest first.
    case scoped
    /// A new value for every resolution; the registry keeps none and shuts none down.
    case transient

    /// One instance per host, created on first resolution.
    public static var singleton: ServiceLifetime { .singleton(eager: nil) }

    /// The launch stage at which an eager singleton is created: first thing in that stage, before any
    /// module receives it: overrides first, in the order they were made, then by provider in manifest order.
    /// A factory's own requirements are created on demand, first.
    public enum EagerStage: String, Sendable, Hashable, CaseIterable {
        /// The `setup` stage, the first in which services can be resolved.
        case setup
        /// The `initialize` stage.
        case initialize
    }

    public var description: String {
        switch self {
        case .singleton(eager: nil): "singleton"
        case .singleton(eager: let stage?): "singleton (eager at \(stage.rawValue))"
        case .scoped: "scoped"
        case .transient: "transient"
        }
    }
}
