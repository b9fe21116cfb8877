import ArgumentParser
import LifecycleArgumentParser
import LifecycleCore
import LifecycleServices
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the rest of the program knows of the stock: a service the inventory module provides.
public protocol Shelf: Sendable {
    /// Each item and how many are in stock, by name.
    func items() -> [(item: String, count: Int)]
    /// Adds `count` of `item`.
    func restock(_ item: String, count: Int)
}

// README: argument-parser-module
/// Keeps the shop's stock, and contributes the subcommands that read and change it.
struct InventoryModule: LifecycleModule, CommandContributing, ServiceProvidingModule, DidFinishLaunching,
    WillTerminate
{
    static let priority: ModulePriority = .high
    static let commands: [any HostedCommand.Type] = [Stock.self, Restock.self]

    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any Shelf).self) { _ in MemoryShelf() }  // one per host: no global
    }

    func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        say("inventory: launched")
        return true
    }

    func willTerminate(_ context: LifecycleContext) { say("inventory: terminated") }
}

/// `shop stock`: runs inside the launched host, and reaches the shelf through the host's services.
struct Stock: HostedCommand {
    static let configuration = CommandConfiguration(abstract: "Lists what is in stock.")

    @Flag(help: "Only the items that ran out.") var empty = false

    func run(on host: ApplicationHost) async throws {
        let shelf = try host.context.services.require((any Shelf).self)
        for (item, count) in shelf.items() where !empty || count == 0 { say("stock: \(item) \(count)") }
    }
}
// README: end

/// `shop restock <item> --count n`.
struct Restock: HostedCommand {
    static let configuration = CommandConfiguration(abstract: "Adds items to the stock, then lists it.")

    @Argument(help: "The item to add.") var item: String
    @Option(help: "How many.") var count = 1

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be at least 1, not \(count)") }
    }

    func run(on host: ApplicationHost) async throws {
        let shelf = try host.context.services.require((any Shelf).self)
        shelf.restock(item, count: count)
        for (item, count) in shelf.items() { say("stock: \(item) \(count)") }
    }
}

/// The shelf, in memory.
final class MemoryShelf: Shelf {
    private let stock = Mutex<[String: Int]>(["apples": 3, "pears": 0, "plums": 12])

    func items() -> [(item: String, count: Int)] {
        stock.withLock { $0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    func restock(_ item: String, count: Int) { stock.withLock { $0[item, default: 0] += count } }
}

/// Writes `line` to standard output at once (unbuffered), so a reader of a pipe sees it before the process ends.
public func say(_ line: String) {
    var line = line + "\n"
    line.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
}
