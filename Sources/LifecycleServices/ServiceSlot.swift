import Synchronization

/// One service in one registry, type-erased: what the registry needs without knowing the service type.
protocol AnyServiceSlot: AnyObject, Sendable {
    var key: ServiceKey { get }
    /// The module-qualified name of the module that provides it, or a description of the override.
    var provider: String { get }
    var lifetime: ServiceLifetime { get }
    /// How many times the service was resolved.
    var resolutions: Int { get }
    /// Creates the singleton now unless it exists (an eager singleton at its stage).
    func create(_ resolver: ServiceResolver) throws(ServiceError)
    /// Runs the singleton's shutdown if it was created and has one; what it threw, if it threw.
    func shutDown() async -> (any Error)?
}

/// One service of type `S` in one registry: its factory and, for a singleton, its instance.
///
/// The read path takes no lock: a created singleton is published once through an `AtomicLazyReference`
/// and read with one atomic load. Creation takes the slot's own lock, so the factory runs exactly once
/// however many tasks resolve the service at the same moment.
final class ServiceSlot<S: Sendable>: AnyServiceSlot {
    /// The created singleton, boxed so it can be published atomically.
    final class Instance: Sendable {
        let value: S
        init(_ value: S) { self.value = value }
    }

    let key: ServiceKey
    let provider: String
    let lifetime: ServiceLifetime
    private let factory: @Sendable (ServiceResolver) throws -> S
    private let shutdown: (@Sendable (S) async throws -> Void)?
    private let instance = AtomicLazyReference<Instance>()
    private let creation = Mutex(())
    private let count = Atomic<Int>(0)

    init(
        key: ServiceKey,
        provider: String,
        lifetime: ServiceLifetime,
        factory: @escaping @Sendable (ServiceResolver) throws -> S,
        shutdown: (@Sendable (S) async throws -> Void)?
    ) {
        self.key = key
        self.provider = provider
        self.lifetime = lifetime
        self.factory = factory
        self.shutdown = shutdown
    }

    var resolutions: Int { count.load(ordering: .relaxed) }

    /// The service: the singleton (created on first use), or a new transient value.
    @inline(__always)
    func resolve(_ resolver: ServiceResolver) throws(ServiceError) -> S {
        count.wrappingAdd(1, ordering: .relaxed)
        if case .transient = lifetime { return try make(resolver) }
        if let created = instance.load() { return created.value }
        return try createOnce(resolver).value
    }

    func create(_ resolver: ServiceResolver) throws(ServiceError) {
        if instance.load() == nil { _ = try createOnce(resolver) }
    }

    func shutDown() async -> (any Error)? {
        guard let shutdown, let created = instance.load() else { return nil }
        do {
            try await shutdown(created.value)
            return nil
        } catch {
            return error
        }
    }

    private func createOnce(_ resolver: ServiceResolver) throws(ServiceError) -> Instance {
        let result: Result<Instance, ServiceError> = creation.withLock { _ in
            if let created = instance.load() { return .success(created) }
            do throws(ServiceError) {
                let created = instance.storeIfNil(Instance(try make(resolver)))
                resolver.registry?.didCreate(self)
                return .success(created)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs the factory with a resolver limited to the provider's own requirements.
    private func make(_ resolver: ServiceResolver) throws(ServiceError) -> S {
        do {
            return try factory(resolver.forFactory(of: self))
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(
                .factoryFailed,
                service: key,
                provider: provider,
                underlyingError: error,
                description: "The factory of service `\(key)`, provided by `\(provider)`, threw: \(error). "
                    + "Nothing was cached: the next resolution calls the factory again."
            )
        }
    }
}
