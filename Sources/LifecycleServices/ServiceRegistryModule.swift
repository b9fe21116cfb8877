public import LifecycleCore

/// The host's service registry as a participant: it opens the registry when the launch's setup stage
/// begins, creates the eager singletons of each stage before any module receives it, and shuts the
/// singletons down after every module has received `willTerminate`.
///
/// A manifest with services adds it as its first entry, at `ModulePriority.maximum` with no
/// dependencies, so it is first in every forward event and last in every reverse one. It shows in plans
/// as `LifecycleServices.ServiceRegistryModule`.
public struct ServiceRegistryModule: LifecycleModule, SetupStage, InitializeStage, WillTerminate {
    public static let priority: ModulePriority = .maximum
    let registry: ServiceRegistry

    public init(context: LifecycleContext) throws {
        guard let registry = context.launchOptions[ServiceRegistryKey.self] else { throw MissingRegistry() }
        self.registry = registry
    }

    /// Its capability table, as the discovery plugin would write it: the host casts nothing for it.
    static let declaration = DeclaredModule(ServiceRegistryModule.self) { module, hooks in
        let module = module as! ServiceRegistryModule
        hooks.setup(module, synchronously: { try module.setUp($0) })
        hooks.initialize(module, synchronously: { try module.initialize($0) })
        hooks.willTerminate(module)
    }

    public func setUp(_ context: LifecycleContext) throws { try registry.begin(.setup) }

    public func initialize(_ context: LifecycleContext) throws { try registry.begin(.initialize) }

    public func willTerminate(_ context: LifecycleContext) async throws {
        let failures = await registry.terminate()
        guard failures.isEmpty else { throw ServiceShutdownError(failures: failures) }
    }

    /// Thrown when the module is listed by hand instead of through `withServices()`.
    struct MissingRegistry: Error, CustomStringConvertible {
        var description: String {
            "ServiceRegistryModule was created without a registry: do not list it in a manifest; build the host "
                + "from `manifest.withServices()`, which adds it."
        }
    }
}

/// Singletons whose shutdown threw. Every other singleton was still shut down.
public struct ServiceShutdownError: Error, Sendable, CustomStringConvertible {
    /// Each failing service, its provider, and what its shutdown threw, in shutdown order.
    public let failures: [(service: ServiceKey, provider: String, error: any Error)]

    init(failures: [(ServiceKey, String, any Error)]) {
        self.failures = failures.map { (service: $0.0, provider: $0.1, error: $0.2) }
    }

    public var description: String {
        "The shutdown of "
            + failures.map { "service `\($0.service)` (provided by `\($0.provider)`) threw \($0.error)" }
            .joined(separator: "; ")
            + ". The other singletons were shut down."
    }
}
