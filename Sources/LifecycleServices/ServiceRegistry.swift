import LifecycleCore
public import Synchronization

/// The services of one host: one slot per service, built once when the host is built and never changed,
/// so a resolution reads it without a lock. Its state follows the launch: services resolve from the
/// setup stage until every module has received `willTerminate`.
@usableFromInline
final class ServiceRegistry: Sendable {
    @usableFromInline
    enum State: Int {
        case notLaunched = 0
        case available = 1
        case terminated = 2
    }

    /// Every service, by `ObjectIdentifier` of its type.
    @usableFromInline let slots: [ObjectIdentifier: any AnyServiceSlot]
    /// The services each module requires, by `ObjectIdentifier` of its type: what its factories, and its
    /// own resolver (`context.services(for:)`), may resolve. A module missing here requires nothing.
    let requirementsOfModule: [ObjectIdentifier: Set<ServiceKey>]
    /// Eager singletons per stage, in the order of `slots`: overrides, then providers in manifest order.
    let eager: [ServiceLifetime.EagerStage: [any AnyServiceSlot]]
    /// The host's launch options, for factories that configure what they create.
    let launchOptions: LaunchOptions
    @usableFromInline let state = Atomic<Int>(State.notLaunched.rawValue)
    /// What each module resolved through its own resolver or its factories, by `ObjectIdentifier` of its
    /// type: for tests. Written only by those resolutions, never by the host-wide resolver.
    private let byRequester = Locked<[ObjectIdentifier: [ServiceKey: Int]]>([:])
    /// Singletons in creation order, for shutdown in reverse.
    private let created = Locked<[any AnyServiceSlot]>([])
    /// Scoped instances whose scope began to end while they were made, so it could not keep them, in the
    /// order they were made; `nil` once the registry has shut them down.
    private let strays = Locked<[Stray]?>([])

    /// A scoped instance no scope keeps: its service, its provider, and its shutdown.
    struct Stray: Sendable {
        let key: ServiceKey
        let provider: String
        let shutDown: @Sendable () async throws -> Void
    }

    init(
        slots: [any AnyServiceSlot],
        requirementsOfModule: [ObjectIdentifier: Set<ServiceKey>],
        launchOptions: LaunchOptions
    ) {
        self.launchOptions = launchOptions
        var table: [ObjectIdentifier: any AnyServiceSlot] = [:]
        table.reserveCapacity(slots.count)
        var eager: [ServiceLifetime.EagerStage: [any AnyServiceSlot]] = [:]
        for slot in slots {
            table[slot.key.id] = slot
            if case .singleton(eager: let stage?) = slot.lifetime { eager[stage, default: []].append(slot) }
        }
        self.slots = table
        self.requirementsOfModule = requirementsOfModule
        self.eager = eager
    }

    var currentState: State { State(rawValue: state.load(ordering: .acquiring)) ?? .terminated }

    /// Whether services can be resolved now: one atomic load, on every resolution.
    @inlinable
    var isAvailable: Bool { state.load(ordering: .acquiring) == State.available.rawValue }

    /// Counts one resolution of `key` by the module `requester`.
    @usableFromInline
    func note(_ key: ServiceKey, by requester: ObjectIdentifier) {
        byRequester.withLock { $0[requester, default: [:]][key, default: 0] += 1 }
    }

    /// How many times the module `requester` resolved each service.
    func resolutions(by requester: ObjectIdentifier) -> [ServiceKey: Int] {
        byRequester.withLock { $0[requester] ?? [:] }
    }

    func didCreate(_ slot: any AnyServiceSlot) {
        created.withLock { $0.append(slot) }
    }

    /// Opens the registry (the setup stage has begun) and creates the eager singletons of `stage`.
    func begin(_ stage: ServiceLifetime.EagerStage) throws(ServiceError) {
        if stage == .setup { state.store(State.available.rawValue, ordering: .releasing) }
        let resolver = ServiceResolver(registry: self)
        for slot in eager[stage] ?? [] { try slot.create(resolver) }
    }

    /// Keeps `stray` to shut down with the singletons. Once the registry has shut down, which only a
    /// resolution that began before could race, shuts it down at once in a task of its own, best effort:
    /// nothing is left to report a failure to.
    func strand(_ stray: Stray) {
        let kept: Bool = strays.withLock { strays in
            guard strays != nil else { return false }
            strays?.append(stray)
            return true
        }
        if !kept { Task { try? await stray.shutDown() } }
    }

    /// Closes the registry and shuts down the stray scoped instances, then every created singleton, each
    /// last created first: a scoped instance may use singletons, never the reverse. Returns what each
    /// failing shutdown threw, with its service.
    func terminate() async -> [(ServiceKey, String, any Error)] {
        state.store(State.terminated.rawValue, ordering: .releasing)
        let strays = self.strays.withLock { strays in
            defer { strays = nil }
            return strays ?? []
        }
        let slots = created.withLock { $0 }
        var failures: [(ServiceKey, String, any Error)] = []
        for stray in strays.reversed() {
            do {
                try await stray.shutDown()
            } catch {
                failures.append((stray.key, stray.provider, error))
            }
        }
        for slot in slots.reversed() {
            if let error = await slot.shutDown() { failures.append((slot.key, slot.provider, error)) }
        }
        return failures
    }

    /// How many times each service was resolved so far.
    var resolutions: [ServiceKey: Int] {
        Dictionary(uniqueKeysWithValues: slots.values.map { ($0.key, $0.resolutions) })
    }
}

/// Where a host keeps its registry: in its launch options, set when the host is built.
enum ServiceRegistryKey: LaunchOptionKey {
    static let defaultValue: ServiceRegistry? = nil
}
