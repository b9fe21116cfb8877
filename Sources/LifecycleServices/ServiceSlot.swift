public import LifecycleCore
public import Synchronization

/// One service in one registry, type-erased: what the registry needs without knowing the service type.
@usableFromInline
protocol AnyServiceSlot: AnyObject, Sendable {
    var key: ServiceKey { get }
    /// The module that provides it, or `nil` for an override.
    var providerType: (any LifecycleModule.Type)? { get }
    var lifetime: ServiceLifetime { get }
    /// How many times the service was resolved.
    var resolutions: Int { get }
    /// Creates the singleton now unless it exists (an eager singleton at its stage).
    func create(_ resolver: ServiceResolver) throws(ServiceError)
    /// Runs the singleton's shutdown if it was created and has one; what it threw, if it threw.
    func shutDown() async -> (any Error)?
}

extension AnyServiceSlot {
    /// Who provides the service, for messages: the module's name, built only when a message needs it.
    var provider: String { providerType?.moduleName ?? "an override of `\(key)`" }
}

/// One service of type `S` in one registry: its factory and, for a singleton, its instance.
///
/// The read path takes no lock: a created singleton is published once, as the address of its box in an
/// `Atomic<Int>`, and read with one atomic load. (`AtomicLazyReference` would do the same, but its `load()`
/// is not inlinable, so every read looked up the box type's generic metadata.) Creation takes the slot's own lock, so the factory runs exactly once
/// however many tasks resolve the service at the same moment. The read path is `@inlinable`, so it is
/// specialized for the service type where it is resolved: unspecialized, each resolution looked up the
/// slot's generic metadata.
@usableFromInline
final class ServiceSlot<S: Sendable>: AnyServiceSlot {
    /// The created singleton, boxed so it can be published atomically.
    @usableFromInline
    final class Instance: Sendable {
        @usableFromInline let value: S
        init(_ value: S) { self.value = value }
    }

    @usableFromInline let key: ServiceKey
    @usableFromInline let providerType: (any LifecycleModule.Type)?
    @usableFromInline let lifetime: ServiceLifetime
    let factory: @Sendable (ServiceResolver) throws -> S
    let shutdown: (@Sendable (S) async throws -> Void)?
    /// The created singleton's box, as `Unmanaged` bits: 0 until it is created, then never again changed.
    @usableFromInline let published = Atomic<Int>(0)
    /// The created singleton, owned here; written once, under the lock, before it is published. Typed
    /// `AnyObject`, not `Instance`, so that making and destroying a slot instantiates no generic metadata:
    /// a registry makes thousands.
    private let creation = Locked<AnyObject?>(nil)
    @usableFromInline let count = Atomic<Int>(0)

    @usableFromInline
    init(
        key: ServiceKey,
        providerType: (any LifecycleModule.Type)?,
        lifetime: ServiceLifetime,
        factory: @escaping @Sendable (ServiceResolver) throws -> S,
        shutdown: (@Sendable (S) async throws -> Void)?
    ) {
        self.key = key
        self.providerType = providerType
        self.lifetime = lifetime
        self.factory = factory
        self.shutdown = shutdown
    }

    @usableFromInline
    var resolutions: Int { count.load(ordering: .relaxed) }

    /// The created singleton, if there is one yet.
    @inlinable
    var instance: Instance? {
        let bits = published.load(ordering: .acquiring)
        guard bits != 0, let address = UnsafeRawPointer(bitPattern: bits) else { return nil }
        // Published only after `creation` holds it, and `creation` keeps it for the slot's lifetime.
        return Unmanaged<Instance>.fromOpaque(address).takeUnretainedValue()
    }

    /// The service: the singleton (created on first use), the scope's instance, or a new transient value.
    @inlinable
    func resolve(_ resolver: ServiceResolver) throws(ServiceError) -> S {
        count.wrappingAdd(1, ordering: .relaxed)
        if let created = instance { return created.value }
        return try createOrMake(resolver)
    }

    @usableFromInline
    func create(_ resolver: ServiceResolver) throws(ServiceError) {
        if instance == nil { _ = try createOrMake(resolver) }
    }

    @usableFromInline
    func shutDown() async -> (any Error)? {
        guard let shutdown, let created = instance else { return nil }
        do {
            try await shutdown(created.value)
            return nil
        } catch {
            return error
        }
    }

    /// The slow path: a new transient value, the scope's instance (never published here), or the singleton
    /// created under the lock.
    @usableFromInline
    func createOrMake(_ resolver: ServiceResolver) throws(ServiceError) -> S {
        switch lifetime {
        case .transient: return try make(resolver.forFactory(of: self, in: nil))
        case .scoped: return try resolveScoped(resolver)
        case .singleton: break
        }
        let result: Result<Instance, ServiceError> = creation.withLock { owned in
            if let created = owned { return .success(unsafeDowncast(created, to: Instance.self)) }
            do throws(ServiceError) {
                let created = Instance(try make(resolver.forFactory(of: self, in: nil)))
                owned = created
                let address = Int(bitPattern: Unmanaged.passUnretained(created).toOpaque())
                published.store(address, ordering: .releasing)
                resolver.registry?.didCreate(self)
                return .success(created)
            } catch {
                return .failure(error)
            }
        }
        return try result.get().value
    }

    /// Runs the factory with `resolver`, the factory's own (``ServiceResolver/forFactory(of:in:)``).
    func make(_ resolver: ServiceResolver) throws(ServiceError) -> S {
        do {
            return try factory(resolver)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(
                .factoryFailed,
                service: key,
                provider: providerType?.moduleName,
                underlyingError: error,
                description: "The factory of service `\(key)`, provided by `\(provider)`, threw: \(error). "
                    + "Nothing was cached: the next resolution calls the factory again."
            )
        }
    }
}
