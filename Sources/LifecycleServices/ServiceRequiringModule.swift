public import LifecycleCore

/// A module that uses services other modules provide.
///
/// ```swift
/// struct CacheModule: LifecycleModule, ServiceRequiringModule, SetupStage {
///     static let priority: ModulePriority = .normal
///     static let requiredServices = ServiceRequirements(DatabaseClient.self)
///     init(context: LifecycleContext) {}
///
///     func setUp(_ context: LifecycleContext) async throws {
///         let database = try context.services.require(DatabaseClient.self)
///         …
///     }
/// }
/// ```
///
/// Each required service's provider is ordered before this module, exactly as if it were listed in
/// `dependencies`: the module receives forward events after the provider and reverse events before it.
/// A required service that no enabled module provides is a `ManifestError` when the host is built.
public protocol ServiceRequiringModule: LifecycleModule {
    /// The services this module resolves. No default: an undeclared requirement would not be ordered.
    static var requiredServices: ServiceRequirements { get }
}

/// The services a module requires, by type: `ServiceRequirements(DatabaseClient.self, Cache.self)`.
public struct ServiceRequirements: Sendable {
    /// The services, in declared order.
    public let keys: [ServiceKey]

    /// Requires each of `services`.
    public init(_ services: Any.Type...) {
        keys = services.map { ServiceKey($0) }
    }

    /// Requires each service of `keys`.
    public init(keys: [ServiceKey]) {
        self.keys = keys
    }
}
