import LifecycleCore
import LifecycleProxy
import Synchronization
import Testing

// The examples of the DocC catalogs, compiled and exercised. Their helpers are small stand-ins.

/// Stands in for a real cache.
final class SessionCache: Sendable {
    private let entries = Mutex<[String: String]>([:])
    func warmUp() async throws { entries.withLock { $0["warm"] = "yes" } }
    func removeAll() { entries.withLock { $0.removeAll() } }
    var count: Int { entries.withLock { $0.count } }
}

/// Stands in for a real connection pool.
final class ConnectionPool: Sendable {
    struct MissingURL: Error {}
    private let open = Mutex(0)
    init(url: String?) throws { guard url != nil else { throw MissingURL() } }
    func open(connections: Int) async throws { open.withLock { $0 = connections } }
    func close() async { open.withLock { $0 = 0 } }
    var openConnections: Int { open.withLock { $0 } }
}

// README: LifecycleCore landing page
struct SessionCacheModule: LifecycleModule, DidFinishLaunching, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .normal
    let cache = SessionCache()

    init(context: LifecycleContext) {}

    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        try await cache.warmUp()
        return true
    }

    func didReceiveMemoryWarning(_ context: LifecycleContext) { cache.removeAll() }
}
// README: end

// README: writing modules
struct DatabasePoolModule: LifecycleModule, DidFinishLaunching, WillTerminate {
    static let priority: ModulePriority = .normal + 500
    let pool: ConnectionPool

    init(context: LifecycleContext) throws {
        pool = try ConnectionPool(url: context.launchOptions.environment["DATABASE_URL"])
    }

    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        try await pool.open(connections: 4)
        return true
    }

    func willTerminate(_ context: LifecycleContext) async throws {
        await pool.close()
    }
}
// README: end

struct AppDelegate: ApplicationDelegate {}

@Suite("DocC catalog examples")
struct DocCExamplesTests {
    @Test("The LifecycleProxy landing example builds a host and launches it, pool before cache")
    func proxyLandingExample() async throws {
        let options = LaunchOptions(environment: ["DATABASE_URL": "postgres://localhost/app"])
        // README: LifecycleProxy landing page
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "App", [SessionCacheModule.self, DatabasePoolModule.self]),
            delegate: AppDelegate(),
            launchOptions: options
        )
        try await host.launch()
        // README: end
        #expect(
            host.plan(for: .didFinishLaunching).map(\.name) == [
                DatabasePoolModule.moduleName, SessionCacheModule.moduleName,
            ]
        )
        try await host.terminate()
    }

    @Test("The pool module's initializer failure is a manifest error naming it")
    func poolWithoutURL() {
        let error = #expect(throws: ManifestError.self) {
            try ApplicationHost(manifest: ModuleManifest([DatabasePoolModule.self]), launchOptions: LaunchOptions())
        }
        #expect(error?.modules == [DatabasePoolModule.moduleName])
    }
}
