import LifecycleCore
import LifecycleServices
import Synchronization

/// What the fixtures did, in order: hooks, factories and shutdowns.
final class Recorder: Sendable {
    private let lines = Locked<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
    func count(_ line: String) -> Int { entries.filter { $0 == line }.count }
}

enum RecorderKey: LaunchOptionKey {
    static let defaultValue = Recorder()
}

extension LifecycleContext {
    var recorder: Recorder { launchOptions[RecorderKey.self] }
}

// MARK: - Services

protocol DatabaseClient: Sendable {
    var name: String { get }
}

protocol RequestIDs: Sendable {
    var value: Int { get }
}

protocol Metrics: Sendable {}

final class PooledDatabase: DatabaseClient {
    let name: String
    let recorder: Recorder
    init(name: String, recorder: Recorder) {
        self.name = name
        self.recorder = recorder
    }
}

struct FakeDatabase: DatabaseClient {
    var name: String { "fake" }
}

struct SequentialID: RequestIDs {
    let value: Int
}

struct NoMetrics: Metrics {}

struct FactoryFailure: Error, CustomStringConvertible {
    var description: String { "the pool is down" }
}

// MARK: - Modules

/// Provides the database (a singleton, with a shutdown) and request ids (transient).
struct PoolModule: LifecycleModule, ServiceProvidingModule, SetupStage, WillTerminate {
    static let priority: ModulePriority = .low
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.recorder }

    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any DatabaseClient).self) { resolver in
            let recorder = resolver.launchOptions[RecorderKey.self]
            recorder.record("create DatabaseClient")
            return PooledDatabase(name: "pool", recorder: recorder)
        } shutdown: { database in
            (database as? PooledDatabase)?.recorder.record("shutdown \(database.name)")
        }
        let counter = Atomic<Int>(0)
        services.transient((any RequestIDs).self) { _ in
            SequentialID(value: counter.wrappingAdd(1, ordering: .relaxed).newValue)
        }
    }

    func setUp(_ context: LifecycleContext) async throws { recorder.record("setUp PoolModule") }
    func willTerminate(_ context: LifecycleContext) async throws { recorder.record("willTerminate PoolModule") }
}

/// Requires the database, at a higher priority than its provider: the requirement wins.
struct CacheModule: LifecycleModule, ServiceRequiringModule, SetupStage, WillTerminate {
    static let priority: ModulePriority = .high
    static let requiredServices = ServiceRequirements((any DatabaseClient).self)
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.recorder }

    func setUp(_ context: LifecycleContext) async throws {
        // Its own resolver: only what it requires, and counted for it.
        let database = try context.services(for: Self.self).require((any DatabaseClient).self)
        recorder.record("setUp CacheModule with \(database.name)")
    }

    func willTerminate(_ context: LifecycleContext) async throws {
        // Still available: the registry shuts down after every module's willTerminate.
        let database = try context.services.require((any DatabaseClient).self)
        recorder.record("willTerminate CacheModule with \(database.name)")
    }
}

/// Requires a service nobody provides.
struct NeedsMetrics: LifecycleModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any Metrics).self)
    init(context: LifecycleContext) {}
}

/// Concrete service types, a struct and a class, which nobody provides.
struct Tally: Sendable {}
final class Ledger: Sendable {}

/// Require ``Tally`` and ``Ledger``, which nobody provides.
struct NeedsTally: LifecycleModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements(Tally.self, Ledger.self)
    init(context: LifecycleContext) {}
}

struct AlsoNeedsTally: LifecycleModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements(Tally.self)
    init(context: LifecycleContext) {}
}

/// A second provider of the database.
struct ReplicaModule: LifecycleModule, ServiceProvidingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any DatabaseClient).self) { resolver in
            PooledDatabase(name: "replica", recorder: resolver.launchOptions[RecorderKey.self])
        }
    }
}

/// Resolves a service in its initializer: too early.
struct EagerResolver: LifecycleModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any DatabaseClient).self)
    init(context: LifecycleContext) throws { _ = try context.services.require((any DatabaseClient).self) }
}

// Two providers that need each other's service.
protocol Alpha: Sendable {}
protocol Beta: Sendable {}
struct AlphaValue: Alpha {}
struct BetaValue: Beta {}

struct AlphaModule: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any Beta).self)
    init(context: LifecycleContext) {}
    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any Alpha).self) { _ in AlphaValue() }
    }
}

struct BetaModule: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any Alpha).self)
    init(context: LifecycleContext) {}
    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any Beta).self) { _ in BetaValue() }
    }
}

/// Eager singletons at both stages, and one whose factory resolves an undeclared service.
struct EagerProvider: LifecycleModule, ServiceProvidingModule, SetupStage {
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}
    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any Alpha).self, eager: .setup) { resolver in
            resolver.launchOptions[RecorderKey.self].record("create Alpha")
            return AlphaValue()
        }
        services.singleton((any Beta).self, eager: .initialize) { resolver in
            resolver.launchOptions[RecorderKey.self].record("create Beta")
            return BetaValue()
        }
        services.singleton((any Metrics).self) { resolver in
            _ = try resolver.require((any DatabaseClient).self)  // not in requiredServices
            return NoMetrics()
        }
    }
    func setUp(_ context: LifecycleContext) async throws { context.recorder.record("setUp EagerProvider") }
}

/// Provides a service whose factory throws.
struct BrokenProvider: LifecycleModule, ServiceProvidingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any Metrics).self) { _ in throw FactoryFailure() }
    }
}
