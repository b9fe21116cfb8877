#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import LifecycleCore
import LifecycleHosting
public import LifecycleMessaging
public import LifecycleServices
import Synchronization

// Seven modules of a small server, each doing visible (simulated) work. Priorities, highest first:
// Configuration 11000, Logging 10000, DatabasePool 5500, HealthCheck 5000, CacheWarmup 5000,
// DeepLink 1500, Metrics 1000. HealthCheck and CacheWarmup tie: manifest order decides.

/// A custom event: reload the configuration. Handlers answer whether anything changed (OR-combined).
public struct ReloadConfiguration: CustomEvent {
    public typealias Result = Bool
    /// Why the reload was asked for.
    public var reason: String
    public init(reason: String) { self.reason = reason }
}

/// A message the configuration broadcasts to the modules that care when it reloads.
public struct ConfigurationChanged: Message {
    /// Why it reloaded.
    public var reason: String
}

/// A typed question to the cache: the name of a product, if it is cached.
public struct CachedProductName: Message {
    public typealias Reply = String?
    /// The product's id.
    public var id: Int
}

/// A custom event the cache posts from inside its memory-warning hook.
public struct CachePurged: CustomEvent {
    /// How many entries were dropped.
    public var entries: Int
}

/// Loads configuration first, so everything after it can read it.
public struct ConfigurationModule: LifecycleModule, WillFinishLaunching, CustomEventHandling {
    public static let priority: ModulePriority = .high + 1_000
    let services: DemoServices
    let environment: String
    /// `LIFECYCLE_DEMO_HANG_ON_RELOAD=1`: the reload on SIGHUP never returns, holding the host, so the
    /// watchdog's pings stop (`ServeProcessTests`).
    let hangsOnReload: Bool

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
        environment =
            context.launchOptions.argument("--env") ?? context.launchOptions.environment["DEMO_ENV"] ?? "development"
        hangsOnReload = context.launchOptions.environment["LIFECYCLE_DEMO_HANG_ON_RELOAD"] == "1"
    }

    public func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        services.console.write("    Configuration: environment=\(environment), pool size=4, cache rows=128")
        return true
    }

    public static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(ReloadConfiguration.self) { module, event, context in
            module.services.console.write("    Configuration: reloaded (\(event.reason)); nothing changed")
            try module.announce(ConfigurationChanged(reason: event.reason), context)
            return false
        }
        // What `lifecycle-demo serve` sends on SIGHUP (the runner's reload action).
        handlers.on(ReloadRequested.self) { module, event, context async throws -> Bool in
            if module.hangsOnReload {
                module.services.console.write("    Configuration: reloading on \(event.signal) hangs (a day)")
                // In a task the hook's budget cannot cancel: a hook stuck in a call that never answers.
                await Task.detached { try? await Task.sleep(for: .seconds(86_400)) }.value
            }
            module.services.console.write("    Configuration: reloaded on \(event.signal); nothing changed")
            try module.announce(ConfigurationChanged(reason: "\(event.signal)"), context)
            return false
        }
    }

    /// Tells every module that receives `ConfigurationChanged`, in delivery order.
    func announce(_ change: ConfigurationChanged, _ context: LifecycleContext) throws {
        let told = try context.messages(from: Self.self).broadcastSynchronously(change)
        services.console.write("    Configuration: told \(told) module(s) through the message bus")
    }
}

/// Opens the log sink before the modules that log, and flushes it last.
public struct LoggingModule: LifecycleModule, WillFinishLaunching, WillTerminate {
    public static let priority: ModulePriority = .high
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        services.console.write("    Logging: log sink opened (level=info)")
        return true
    }

    public func willTerminate(_ context: LifecycleContext) {
        services.console.write("    Logging: flushed and closed the log sink")
    }
}

/// A connection pool: provides the `DatabaseClient` service, opens its connections in the warm-up stage
/// (deliberately slow), shrinks them in the background, and closes them at termination. Its launch budget
/// (`lifecycle-demo serve --enforce-budgets`) is 250 ms: fifty times the 5 ms its warm-up sleeps.
public struct DatabasePoolModule: LifecycleModule, ServiceProvidingModule, WarmUpStage, DidEnterBackground,
    WillEnterForeground, WillTerminate, LaunchBudgetedModule
{
    public static let priority: ModulePriority = .normal + 500
    public static let launchBudget: Duration = .milliseconds(250)
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any DatabaseClient).self) { _ in SimulatedDatabase() }
    }

    public func warmUp(_ context: LifecycleContext) async throws {
        try await Task.sleep(for: .milliseconds(5))  // deliberately slow: connecting takes a while
        let database = try context.services.require((any DatabaseClient).self)
        database.open(4)
        services.console.write("    DatabasePool: opened \(database.openConnections) connections")
    }

    public func didEnterBackground(_ context: LifecycleContext) throws {
        try context.services.require((any DatabaseClient).self).open(1)
        services.console.write("    DatabasePool: released idle connections (4 → 1)")
    }

    public func willEnterForeground(_ context: LifecycleContext) throws {
        try context.services.require((any DatabaseClient).self).open(4)
        services.console.write("    DatabasePool: re-opened connections (1 → 4)")
    }

    public func willTerminate(_ context: LifecycleContext) throws {
        let closed = try context.services.require((any DatabaseClient).self).close()
        services.console.write("    DatabasePool: closed \(closed) connection(s)")
    }
}

/// Reports readiness while active; stops advertising it while inactive.
public struct HealthCheckModule: LifecycleModule, DidBecomeActive, WillResignActive {
    public static let priority: ModulePriority = .normal
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public func didBecomeActive(_ context: LifecycleContext) {
        services.console.write("    HealthCheck: /health reports ready")
    }

    public func willResignActive(_ context: LifecycleContext) {
        services.console.write("    HealthCheck: /health reports draining")
    }
}

/// Warms the cache from the database once the pool is open; purges it on a memory warning.
///
/// It requires the `DatabaseClient` service, which the pool provides: whatever the priorities, the pool
/// launches first and terminates after it, as if the cache listed it in `dependencies`.
public struct CacheWarmupModule: LifecycleModule, ServiceRequiringModule, WarmUpStage, DidReceiveMemoryWarning,
    MessageReceiving, LaunchBudgetedModule
{
    public static let priority: ModulePriority = .normal
    public static let launchBudget: Duration = .milliseconds(100)
    public static let requiredServices = ServiceRequirements((any DatabaseClient).self)
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    /// Runs in the concurrent warm-up stage, after the pool it depends on has warmed up.
    public func warmUp(_ context: LifecycleContext) async throws {
        let database = try context.services(for: Self.self).require((any DatabaseClient).self)
        guard database.openConnections > 0 else { throw DemoFailure(reason: "the pool is not open") }
        services.cache.store(database.products(count: 128))
        services.console.write("    CacheWarmup: warmed \(services.cache.count) entries from the database")
    }

    public func didReceiveMemoryWarning(_ context: LifecycleContext) {
        let dropped = services.cache.removeAll()
        services.console.write("    CacheWarmup: purged \(dropped) entries; posting CachePurged")
        // Queued: delivered after the memory warning has reached every participant.
        context.events.post(CachePurged(entries: dropped))
    }

    public static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(ConfigurationChanged.self) { module, _, _ in
            module.services.console.write("    CacheWarmup: cache settings unchanged")
        }
        handlers.on(CachedProductName.self) { module, question, _ in module.services.cache.value(for: question.id) }
    }
}

/// Handles `demo://product/<id>` links by asking the cache for the product, through the message bus.
public struct DeepLinkModule: LifecycleModule, OpenURL {
    public static let priority: ModulePriority = .low + 500
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public func open(_ url: URL, context: LifecycleContext) -> Bool {
        guard url.scheme == "demo", url.host == "product", let id = Int(url.lastPathComponent) else {
            services.console.write("    DeepLink: \(url.absoluteString) is not a product link")
            return false
        }
        let cached = try? context.messages(from: Self.self).sendSynchronously(
            CachedProductName(id: id),
            to: CacheWarmupModule.self
        )
        let name = cached.flatMap { $0 } ?? "unknown (cache cold)"
        services.console.write("    DeepLink: opened product \(id): \(name)")
        return true
    }
}

/// Counts what the application went through and reports it at the end. Lowest priority: it starts last
/// and stops first.
public struct MetricsModule: LifecycleModule, DidBecomeActive, DidEnterBackground, DidReceiveMemoryWarning,
    WillTerminate, CustomEventHandling, MessageReceiving
{
    public static let priority: ModulePriority = .low
    let services: DemoServices
    private let counters = Counters()

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public func didBecomeActive(_ context: LifecycleContext) { counters.increment("activations") }
    public func didEnterBackground(_ context: LifecycleContext) { counters.increment("backgrounds") }
    public func didReceiveMemoryWarning(_ context: LifecycleContext) { counters.increment("memory warnings") }

    public func willTerminate(_ context: LifecycleContext) {
        services.console.write("    Metrics: \(counters.summary)")
    }

    public static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(CachePurged.self) { module, event, _ in
            module.counters.increment("purged entries", by: event.entries)
            module.services.console.write("    Metrics: recorded \(event.entries) purged cache entries")
        }
    }

    public static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(ConfigurationChanged.self) { module, _, _ in module.counters.increment("configuration changes") }
    }

    private final class Counters: Sendable {
        private let values = Mutex<[(String, Int)]>([])

        func increment(_ name: String, by amount: Int = 1) {
            values.withLock { values in
                if let index = values.firstIndex(where: { $0.0 == name }) {
                    values[index].1 += amount
                } else {
                    values.append((name, amount))
                }
            }
        }

        var summary: String {
            values.withLock { $0.map { "\($0.0)=\($0.1)" }.joined(separator: ", ") }
        }
    }
}

/// Ships audit records to a compliance store — in production only. Run the demo with `--profile production`
/// to enable it; otherwise the plan lists it as disabled, with the reason.
public struct AuditLogModule: LifecycleModule, EnvironmentGatedModule, DidFinishLaunching, WillTerminate {
    public static let priority: ModulePriority = .low + 100
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        .onlyInProfiles(["production"], options)
    }

    public func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        services.console.write("    AuditLog: shipping audit records to the compliance store")
        return true
    }

    public func willTerminate(_ context: LifecycleContext) {
        services.console.write("    AuditLog: flushed")
    }
}

/// A failure a demo module reports.
public struct DemoFailure: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// Exports usage reports, read from the database, when the application goes to the background — and its
/// endpoint is down, so it fails. The host reports the failure with the module and event; every other
/// module is still served.
public struct ReportExporterModule: LifecycleModule, ServiceRequiringModule, DidEnterBackground {
    public static let priority: ModulePriority = .low + 200
    public static let requiredServices = ServiceRequirements((any DatabaseClient).self)
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public func didEnterBackground(_ context: LifecycleContext) throws {
        let rows = try context.services(for: Self.self).require((any DatabaseClient).self).products(count: 3).count
        services.console.write("    ReportExporter: exporting usage report (\(rows) rows)…")
        throw DemoFailure(reason: "report endpoint unreachable (connection refused)")
    }
}
