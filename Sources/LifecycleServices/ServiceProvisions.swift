/// The services one module provides, filled in by ``ServiceProvidingModule/provideServices(_:)``.
///
/// Each provision ties a service type to a factory that returns it, so a resolution is typed end to end:
/// `require(DatabaseClient.self)` returns the `any DatabaseClient` this factory made.
public struct ServiceProvisions: Sendable {
    var provisions: [ServiceProvision] = []

    init() {}

    /// Provides `service` as one instance per host, made by `factory` on first resolution, or at the
    /// launch stage `eager` when it is set. `shutdown`, if given, runs once after every module received
    /// `willTerminate`; singletons shut down in reverse creation order.
    ///
    /// `factory` receives a resolver for the services it needs itself; declare them in
    /// ``ServiceRequiringModule/requiredServices`` so the host orders their providers first.
    public mutating func singleton<S: Sendable>(
        _ service: S.Type,
        eager: ServiceLifetime.EagerStage? = nil,
        _ factory: @escaping @Sendable (ServiceResolver) throws -> S,
        shutdown: (@Sendable (S) async throws -> Void)? = nil
    ) {
        provisions.append(
            ServiceProvision(key: ServiceKey(service), lifetime: .singleton(eager: eager)) { provider in
                ServiceSlot(
                    key: ServiceKey(service),
                    provider: provider,
                    lifetime: .singleton(eager: eager),
                    factory: factory,
                    shutdown: shutdown
                )
            }
        )
    }

    /// Provides `service` as a new value per resolution, made by `factory`.
    public mutating func transient<S: Sendable>(
        _ service: S.Type,
        _ factory: @escaping @Sendable (ServiceResolver) throws -> S
    ) {
        provisions.append(
            ServiceProvision(key: ServiceKey(service), lifetime: .transient) { provider in
                ServiceSlot(
                    key: ServiceKey(service),
                    provider: provider,
                    lifetime: .transient,
                    factory: factory,
                    shutdown: nil
                )
            }
        )
    }
}

/// One provided service, before a registry makes its slot.
struct ServiceProvision: Sendable {
    let key: ServiceKey
    let lifetime: ServiceLifetime
    /// Makes the service's slot for one registry, naming `provider`.
    let makeSlot: @Sendable (_ provider: String) -> any AnyServiceSlot
}
