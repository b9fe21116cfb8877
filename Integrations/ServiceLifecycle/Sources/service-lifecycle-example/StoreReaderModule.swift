import LifecycleCore
import LifecycleServices

/// Provides ``StoreReader``, one per request scope, closed when the request's scope ends. A module of its
/// own because the reader reads the store `StoreModule` provides: a provider that resolved its own service
/// would require itself, a cycle the host refuses.
struct StoreReaderModule: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
    static let priority: ModulePriority = .high
    static let requiredServices = ServiceRequirements(Store.self)

    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.scoped(StoreReader.self) { resolver in
            let log = try resolver.launchOptions[ExampleServicesKey.self].orThrow(Self.self).requestLog
            return StoreReader(store: try resolver.require(Store.self), log: log)
        } shutdown: { reader in
            reader.close()
        }
    }
}
