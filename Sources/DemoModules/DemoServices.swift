public import LifecycleCore
import Synchronization

/// What the demo host itself hands every module: a console to write to, and a cache.
///
/// The demo host creates one and puts it in the launch options under ``DemoServicesKey``; every module
/// reads it from its context. The database is not here: `DatabasePoolModule` provides it as the
/// `DatabaseClient` service, and the modules that use it require it (see `Docs/Services.md`).
public final class DemoServices: Sendable {
    /// Where modules and the host write what they do.
    public let console: DemoConsole
    /// A simulated in-memory cache.
    public let cache = SimulatedCache()
    /// The jobs ``QueueConsumerModule`` consumes while the application is active.
    public let jobs = DemoJobQueue()

    /// Creates services that write to `console`.
    public init(console: DemoConsole) {
        self.console = console
    }
}

/// The launch-option key under which the demo host stores its ``DemoServices``.
public enum DemoServicesKey: LaunchOptionKey {
    public static let defaultValue: DemoServices? = nil
}

/// Thrown by a demo module created without ``DemoServices`` in its launch options.
public struct MissingDemoServices: Error, CustomStringConvertible {
    public let module: String
    public var description: String {
        "\(module) needs DemoServices: set launchOptions[DemoServicesKey.self] before creating the host"
    }
}

extension LifecycleContext {
    func demoServices(for module: String) throws -> DemoServices {
        guard let services = launchOptions[DemoServicesKey.self] else { throw MissingDemoServices(module: module) }
        return services
    }
}

/// A line-oriented console that keeps a transcript, and echoes to standard output when asked.
public final class DemoConsole: Sendable {
    private let lines = Mutex<[String]>([])
    private let echo: Bool

    /// Creates a console; `echo` also prints every line to standard output.
    public init(echo: Bool) {
        self.echo = echo
    }

    /// Writes one line. The echo is unbuffered, so a process reading the demo's output through a pipe sees
    /// each line as it happens.
    public func write(_ line: String) {
        lines.withLock { $0.append(line) }
        if echo { printToStandardOutput(line) }
    }

    /// Every line written so far.
    public var transcript: [String] { lines.withLock { $0 } }
}

/// The database, as modules other than the pool know it: the service `DatabasePoolModule` provides.
public protocol DatabaseClient: Sendable {
    /// The number of open connections.
    var openConnections: Int { get }
    /// Opens (or shrinks to) `count` connections.
    func open(_ count: Int)
    /// Closes every connection and returns how many were open.
    func close() -> Int
    /// Reads the product table: `count` rows of (id, name).
    func products(count: Int) -> [(Int, String)]
}

/// A database whose only state is a pool of connections and a table of products.
final class SimulatedDatabase: DatabaseClient {
    private let connections = Mutex(0)

    var openConnections: Int { connections.withLock { $0 } }

    func open(_ count: Int) { connections.withLock { $0 = count } }

    func close() -> Int {
        connections.withLock { open in
            defer { open = 0 }
            return open
        }
    }

    /// Reads the product table: `count` rows of (id, name).
    func products(count: Int) -> [(Int, String)] {
        (1...count).map { ($0, "product-\($0)") }
    }
}

/// A key-value cache.
public final class SimulatedCache: Sendable {
    private let entries = Mutex<[Int: String]>([:])

    /// The number of cached entries.
    public var count: Int { entries.withLock { $0.count } }

    func store(_ rows: [(Int, String)]) {
        entries.withLock { entries in
            for (key, value) in rows { entries[key] = value }
        }
    }

    func value(for key: Int) -> String? { entries.withLock { $0[key] } }

    func removeAll() -> Int {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries.count
        }
    }
}
