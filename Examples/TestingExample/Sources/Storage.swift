import LifecycleCore
import Synchronization

// The shop's storage: a database connection pool, and a cache of hot products that warms up from it.

/// Stands in for a database client's connection pool.
final class ConnectionPool: Sendable {
    let url: String
    private let connections = Mutex(0)

    init(url: String) { self.url = url }

    /// How many connections are open now.
    var openConnections: Int { connections.withLock { $0 } }
    func open(_ count: Int) { connections.withLock { $0 = count } }
    func close() { connections.withLock { $0 = 0 } }
}

/// The pool the host's builder gives the shop, if any: a test sets a new one for each host and reads it back
/// (the per-host state pattern, Docs/Modules.md).
enum ConnectionPoolKey: LaunchOptionKey {
    static let defaultValue: ConnectionPool? = nil
}

/// Opens the connection pool while the shop launches and closes it last.
struct DatabasePoolModule: LifecycleModule, WarmUpStage, WillTerminate {
    static let priority: ModulePriority = .high
    let pool: ConnectionPool

    init(context: LifecycleContext) {
        pool =
            context.launchOptions[ConnectionPoolKey.self]
            ?? ConnectionPool(url: context.launchOptions.environment["DATABASE_URL"] ?? "postgres://localhost/shop")
    }

    func warmUp(_ context: LifecycleContext) async throws {
        pool.open(8)
    }

    func willTerminate(_ context: LifecycleContext) {
        pool.close()
    }
}

/// Keeps the best-selling products in memory. It reads them through the pool, so it depends on it: it
/// warms up after the pool and stops before it.
final class CacheModule: LifecycleModule, DependentModule, WarmUpStage, DidReceiveMemoryWarning, WillTerminate {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [DatabasePoolModule.self]
    private let products = Mutex<[Int: String]>([:])

    init(context: LifecycleContext) {}

    func warmUp(_ context: LifecycleContext) async throws {
        products.withLock { products in
            for id in 1...100 { products[id] = "product-\(id)" }
        }
    }

    func didReceiveMemoryWarning(_ context: LifecycleContext) {
        products.withLock { $0.removeAll() }
    }

    func willTerminate(_ context: LifecycleContext) {
        products.withLock { $0.removeAll() }
    }
}
