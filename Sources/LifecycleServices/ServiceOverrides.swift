import LifecycleCore

/// Changes to who provides which service, applied when a host is built: a fake in a test, or the choice
/// between two modules that provide the same service.
///
/// ```swift
/// let manifest = ModuleManifest.discovered.withServices { overrides in
///     overrides.replace(DatabaseClient.self) { _ in InMemoryDatabase() }
/// }
/// ```
public struct ServiceOverrides: Sendable {
    enum Change: Sendable {
        /// A factory of the test's, instead of any module's provision. The closure makes the service's
        /// slot afresh for each registry, as a provider's `provideServices` does.
        case replace(ServiceKey, makeSlot: @Sendable () -> any AnyServiceSlot)
        /// Of the modules that provide the service, this one serves it.
        case choose(ServiceKey, provider: ObjectIdentifier, name: String)

        var key: ServiceKey {
            switch self {
            case .replace(let key, _): key
            case .choose(let key, _, _): key
            }
        }
    }

    /// The changes, the latest for a service last.
    private(set) var changes: [Change] = []

    /// No change.
    public init() {}

    /// Serves `service` with `factory` instead of the module that provides it, as a singleton (or as
    /// `lifetime` says). No module needs to provide it; every module that requires it is still ordered after
    /// its provider, if there is one.
    public mutating func replace<S: Sendable>(
        _ service: S.Type,
        lifetime: ServiceLifetime = .singleton,
        with factory: @escaping @Sendable (ServiceResolver) throws -> S
    ) {
        let key = ServiceKey(service)
        changes.append(
            .replace(key) {
                ServiceSlot(key: key, providerType: nil, lifetime: lifetime, factory: factory, shutdown: nil)
            }
        )
    }

    /// Serves `service` from `provider` where several modules provide it.
    public mutating func choose<S>(_ provider: any ServiceProvidingModule.Type, for service: S.Type) {
        changes.append(.choose(ServiceKey(service), provider: ObjectIdentifier(provider), name: provider.moduleName))
    }

    /// Both sets of changes; `other`'s win where both change one service.
    func merged(with other: ServiceOverrides) -> ServiceOverrides {
        var merged = self
        merged.changes += other.changes
        return merged
    }

    /// The last change of each service, in the order those changes were made.
    var latest: [Change] {
        var seen: Set<ServiceKey> = []
        return changes.reversed().filter { seen.insert($0.key).inserted }.reversed()
    }

    /// The last change of each service, by service.
    var byService: [ServiceKey: Change] {
        Dictionary(latest.map { ($0.key, $0) }) { _, last in last }
    }
}
