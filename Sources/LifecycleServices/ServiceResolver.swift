public import LifecycleCore
import LifecycleScopes

/// Resolves services by type: `context.services.require(DatabaseClient.self)`.
///
/// A resolver is a small value; keep one (`let services = context.services`) where a hot path resolves
/// often. Resolving a created singleton takes no lock, and the resolution is specialized for the service
/// type where it is written.
public struct ServiceResolver: Sendable {
    @usableFromInline let registry: ServiceRegistry?
    /// For a factory: the services its provider requires, the only ones it may resolve; `nil` for modules.
    @usableFromInline let allowed: Set<ServiceKey>?
    /// Who resolves: the provider whose factory runs, or the module whose own resolver this is. Its
    /// resolutions are counted per module, for tests.
    @usableFromInline let requester: (any LifecycleModule.Type)?
    /// The scope whose instances scoped services resolve to: `scope.services`'s, or the one a scoped
    /// factory runs for; `nil` for the task's current scope (`Scope.current`).
    let scope: Scope?
    /// The singleton whose factory is running, directly or through transients: it must not capture a
    /// scoped instance, which would outlive its scope.
    let captor: (any AnyServiceSlot)?

    init(
        registry: ServiceRegistry?,
        allowed: Set<ServiceKey>? = nil,
        requester: (any LifecycleModule.Type)? = nil,
        scope: Scope? = nil,
        captor: (any AnyServiceSlot)? = nil
    ) {
        self.registry = registry
        self.allowed = allowed
        self.requester = requester
        self.scope = scope
        self.captor = captor
    }

    /// The service of type `service`.
    ///
    /// - Throws: ``ServiceError`` when no module provides it, when it is resolved before the launch's setup
    ///   stage or after termination, when its factory throws, or when the host has no services; for a scoped
    ///   service, also outside any scope, in a scope that has ended, or from a singleton's factory.
    @inlinable
    public func require<S: Sendable>(_ service: S.Type) throws(ServiceError) -> S {
        guard let slot = try slot(for: service) else { throw notProvided(ServiceKey(service)) }
        return try slot.resolve(self)
    }

    /// The service of type `service`, or `nil` when no module provides it.
    ///
    /// - Throws: ``ServiceError`` for every other reason ``require(_:)`` throws.
    @inlinable
    public func optional<S: Sendable>(_ service: S.Type) throws(ServiceError) -> S? {
        try slot(for: service)?.resolve(self)
    }

    /// The host's launch options, for a factory that configures what it creates.
    public var launchOptions: LaunchOptions { registry?.launchOptions ?? LaunchOptions() }

    /// How many times each service was resolved in this host so far, by anyone; empty without services.
    public var resolutions: [ServiceKey: Int] { registry?.resolutions ?? [:] }

    /// How many times `module` resolved each service, through its own resolver
    /// (`context.services(for:)`) or its factories; for tests. Resolutions through the host-wide
    /// `context.services` are not attributed: a hook's context is shared by every module.
    public func resolutions(by module: any LifecycleModule.Type) -> [ServiceKey: Int] {
        registry?.resolutions(by: ObjectIdentifier(module)) ?? [:]
    }

    /// The slot of `service`, after the checks every resolution makes.
    @inlinable
    func slot<S: Sendable>(for service: S.Type) throws(ServiceError) -> ServiceSlot<S>? {
        guard let registry, registry.isAvailable else { throw refusal(ServiceKey(service)) }
        if let allowed, !allowed.contains(ServiceKey(service)) { throw refusal(ServiceKey(service)) }
        if let requester { registry.note(ServiceKey(service), by: ObjectIdentifier(requester)) }
        guard let slot = registry.slots[ObjectIdentifier(service)] else { return nil }
        // The table is keyed by the service type, and each slot was made for that type.
        return unsafeDowncast(slot, to: ServiceSlot<S>.self)
    }

    /// Why the fast path refused `key`: no registry, the registry closed, or a factory resolving what its
    /// provider does not require. Not inlined: only errors come here.
    @usableFromInline
    func refusal(_ key: ServiceKey) -> ServiceError {
        guard let registry else {
            return ServiceError(
                .noRegistry,
                service: key,
                description: "Service `\(key)` was resolved in a host without services. Build the host from a "
                    + "manifest with services: `manifest.withServices()` (discovered manifests of targets that "
                    + "declare services have them)."
            )
        }
        let state = registry.currentState
        if state != .available { return stateError(state, key, registry) }
        let name = requester?.moduleName ?? "?"
        return ServiceError(
            .notProvided,
            service: key,
            description: "`\(name)` (its own resolver, or the factory of a service it provides) resolves `\(key)`, "
                + "which `\(name)` does not require. Add it to its `requiredServices`, so its provider is "
                + "ordered first and no two factories can wait on each other."
        )
    }

    @usableFromInline
    func notProvided(_ key: ServiceKey) -> ServiceError {
        ServiceError(
            .notProvided,
            service: key,
            description: "No module provides service `\(key)`. Add a module that provides it "
                + "(ServiceProvidingModule), or resolve it with `optional(_:)` if it may be absent."
        )
    }

    private func stateError(
        _ state: ServiceRegistry.State,
        _ key: ServiceKey,
        _ registry: ServiceRegistry
    )
        -> ServiceError
    {
        let provider = registry.slots[key.id].map(\.provider)
        let who = provider.map { ", provided by `\($0)`," } ?? ""
        if state == .notLaunched {
            return ServiceError(
                .notLaunched,
                service: key,
                provider: provider,
                description: "Service `\(key)`\(who) was resolved before the launch's setup stage: services are "
                    + "not available in initializers or in willFinishLaunching. Resolve it in a hook from setUp on."
            )
        }
        return ServiceError(
            .terminated,
            service: key,
            provider: provider,
            description: "Service `\(key)`\(who) was resolved after every module received willTerminate: its "
                + "singletons are shut down. Resolve services in willTerminate at the latest."
        )
    }

    /// The resolver a factory of `slot` receives: limited to its provider's requirements. A singleton's
    /// factory is the captor of what it resolves, a transient's passes on its resolver's scope and captor,
    /// and a scoped factory resolves in `scope`, the scope its instance is for.
    func forFactory(of slot: any AnyServiceSlot, in scope: Scope?) -> ServiceResolver {
        let (scope, captor): (Scope?, (any AnyServiceSlot)?) =
            switch slot.lifetime {
            case .singleton: (nil, slot)
            case .transient: (self.scope, self.captor)
            case .scoped: (scope, nil)
            }
        guard let registry, let provider = slot.providerType else {
            return ServiceResolver(registry: registry, scope: scope, captor: captor)
        }
        // A provider that requires nothing is not in the table: its factories may resolve nothing.
        let allowed = registry.requirementsOfModule[ObjectIdentifier(provider)] ?? []
        return ServiceResolver(registry: registry, allowed: allowed, requester: provider, scope: scope, captor: captor)
    }
}

extension LifecycleContext {
    /// The host's services, for the program and its request handlers. Resolving throws
    /// ``ServiceError/Code/noRegistry`` when the host was built from a manifest without services. Scoped
    /// services resolve in the task's current scope (`Scope.current`, inside `withScope`).
    public var services: ServiceResolver {
        ServiceResolver(registry: launchOptions[ServiceRegistryKey.self])
    }

    /// `module`'s own resolver: it resolves only the services `module` requires, so an undeclared
    /// resolution, which nothing would order, is an error at once; and what it resolves is counted
    /// for `module` (``ServiceResolver/resolutions(by:)``). Modules use it as `context.services(for: Self.self)`.
    /// Scoped services resolve in the task's current scope.
    public func services(for module: any ServiceRequiringModule.Type) -> ServiceResolver {
        let registry = launchOptions[ServiceRegistryKey.self]
        return ServiceResolver(
            registry: registry,
            allowed: registry?.requirementsOfModule[ObjectIdentifier(module)] ?? [],
            requester: module
        )
    }
}
