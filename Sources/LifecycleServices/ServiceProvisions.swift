public import LifecycleCore

/// The services one module provides, filled in by ``ServiceProvidingModule/provideServices(_:)``.
///
/// Each provision ties a service type to a factory that returns it, so a resolution is typed end to end:
/// `require(DatabaseClient.self)` returns the `any DatabaseClient` this factory made.
///
/// The methods are `@inlinable`: compiled in the provider's module, where the service type is concrete,
/// they make its slot without looking up generic metadata at run time. Each host's registry asks its
/// providers afresh, so every registry gets slots, and singletons, of its own.
public struct ServiceProvisions: Sendable {
    /// The module whose services these are, or `nil` for a test's overrides.
    @usableFromInline let provider: (any LifecycleModule.Type)?
    /// One slot per provided service, in provision order.
    @usableFromInline var slots: [any AnyServiceSlot] = []

    init(provider: (any LifecycleModule.Type)?) {
        self.provider = provider
    }

    /// Provides `service` as one instance per host, made by `factory` on first resolution, or at the
    /// launch stage `eager` when it is set. `shutdown`, if given, runs once after every module received
    /// `willTerminate`; singletons shut down in reverse creation order.
    ///
    /// `factory` receives a resolver for the services it needs itself; declare them in
    /// ``ServiceRequiringModule/requiredServices`` so the host orders their providers first.
    @inlinable
    public mutating func singleton<S: Sendable>(
        _ service: S.Type,
        eager: ServiceLifetime.EagerStage? = nil,
        _ factory: @escaping @Sendable (ServiceResolver) throws -> S,
        shutdown: (@Sendable (S) async throws -> Void)? = nil
    ) {
        slots.append(
            ServiceSlot(
                key: ServiceKey(service),
                providerType: provider,
                lifetime: .singleton(eager: eager),
                factory: factory,
                shutdown: shutdown
            )
        )
    }

    /// Provides `service` as one instance per scope (a request, a session, a job: `LifecycleScopes`), made
    /// by `factory` on its first resolution in that scope and never shared with another scope. `shutdown`,
    /// if given, runs at that scope's end, after the scope's end actions; a scope's instances shut down
    /// newest first, and a shutdown that throws is reported as a failure of the scope.
    ///
    /// Resolve it from `scope.services`, or inside `withScope`, where any resolver uses the task's current
    /// scope. `factory` receives a resolver bound to the same scope, so the scoped services it resolves are
    /// that scope's. A singleton cannot depend on it: its factory's resolution throws
    /// ``ServiceError/Code/captiveDependency``.
    @inlinable
    public mutating func scoped<S: Sendable>(
        _ service: S.Type,
        _ factory: @escaping @Sendable (ServiceResolver) throws -> S,
        shutdown: (@Sendable (S) async throws -> Void)? = nil
    ) {
        slots.append(
            ServiceSlot(
                key: ServiceKey(service),
                providerType: provider,
                lifetime: .scoped,
                factory: factory,
                shutdown: shutdown
            )
        )
    }

    /// Provides `service` as a new value per resolution, made by `factory`.
    @inlinable
    public mutating func transient<S: Sendable>(
        _ service: S.Type,
        _ factory: @escaping @Sendable (ServiceResolver) throws -> S
    ) {
        slots.append(
            ServiceSlot(
                key: ServiceKey(service),
                providerType: provider,
                lifetime: .transient,
                factory: factory,
                shutdown: nil
            )
        )
    }
}
