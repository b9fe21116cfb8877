import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import Synchronization
import Testing

// The examples of Docs/Messages.md and the LifecycleMessaging DocC catalog, compiled and exercised.

/// Prices by SKU, for the examples.
final class PriceTable: Sendable {
    private let prices = Mutex(["tea": 4])
    private let invalidated = Mutex<[String]>([])
    subscript(sku: String) -> Int? { prices.withLock { $0[sku] } }
    func invalidate(_ sku: String) { invalidated.withLock { $0.append(sku) } }
}

// README: declaring a message
struct PriceChanged: Message {
    var sku: String
}

struct CurrentPrice: Message {
    typealias Reply = Int?
    var sku: String
}
// README: end

// README: a receiver
struct PricingModule: MessageReceiving {
    static let priority: ModulePriority = .normal
    static var messageTags: [MessageTag] { ["pricing"] }
    let prices: PriceTable

    init(context: LifecycleContext) { prices = PriceTable() }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(CurrentPrice.self) { module, question, _ in module.prices[question.sku] }
        handlers.on(PriceChanged.self) { module, change, context in
            module.prices.invalidate(change.sku)
        }
    }
}
// README: end

// README: sending as a module
struct CheckoutModule: LifecycleModule, DidFinishLaunching {
    static let priority: ModulePriority = .low

    init(context: LifecycleContext) {}

    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        let messages = context.messages(from: Self.self)
        let price = try await messages.send(CurrentPrice(sku: "tea"), to: PricingModule.self)
        let told = try await messages.broadcast(PriceChanged(sku: "tea"), to: .tagged("pricing"))
        return price != nil && told == 1
    }
}
// README: end

// README: listeners
func watchPrices(_ host: ApplicationHost) async throws -> [String] {
    let changes = try host.context.messages.listen(to: PriceChanged.self, for: .seconds(5))
    var skus: [String] = []
    for await change in changes { skus.append(change.sku) }
    return skus
}
// README: end

// README: a channel
/// What a request handler keeps: the way to the pricing module, resolved once after the launch.
struct PriceQuotes: Sendable {
    let prices: MessageChannel<CurrentPrice>

    init(_ host: ApplicationHost) throws {
        prices = try host.context.messages.channel(for: CurrentPrice.self, to: PricingModule.self)
    }

    /// Called on every request: no look-up, no lock, nothing allocated.
    func price(of sku: String) throws -> Int? {
        try prices.sendSynchronously(CurrentPrice(sku: sku))
    }
}
// README: end

@Suite("Docs/Messages.md: the examples work as the guide says")
struct MessagesGuideTests {
    @Test("The checkout asks the pricing module, then tells it; the launch succeeds because both answered")
    func checkout() async throws {
        // README: a host with messages
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Shop", [PricingModule.self, CheckoutModule.self]).withMessages(),
            launchOptions: .current
        )
        // README: end
        #expect(try await host.launch().didFinishLaunching)
        #expect(
            host.context.messageBus?.receivers(of: CurrentPrice.self).map(\.name) == [
                "DocumentationTests.PricingModule"
            ]
        )
        let messages = host.context.messages
        #expect(try await messages.send(CurrentPrice(sku: "coffee"), to: PricingModule.self) == nil)
        #expect(try await messages.broadcast(CurrentPrice(sku: "tea"), combining: .firstNonNil()) == 4)
        try await host.terminate()
    }

    @Test("A channel answers on every request, and once its receiver is removed says so, naming the fix")
    func channel() async throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Shop", [PricingModule.self, CheckoutModule.self]).withMessages(),
            launchOptions: .current
        )
        try await host.launch()
        let quotes = try PriceQuotes(host)
        #expect(try quotes.price(of: "tea") == 4)
        #expect(try quotes.price(of: "coffee") == nil)
        _ = try await host.remove(CheckoutModule.self)
        _ = try await host.remove(PricingModule.self)
        let error = #expect(throws: MessageError.self) { try quotes.price(of: "tea") }
        #expect(error?.code == .noReceiver)
        #expect(error?.description.contains("resolve the channel again") == true)
        try await host.terminate()
    }

    @Test("A listener sees the changes sent while it listens, then ends when cancelled")
    func listener() async throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Shop", [PricingModule.self]).withMessages(),
            launchOptions: .current
        )
        try await host.launch()
        let changes = try host.context.messages.listen(to: PriceChanged.self)
        try await host.context.messages.broadcast(PriceChanged(sku: "tea"))
        try await host.context.messages.broadcast(PriceChanged(sku: "milk"))
        changes.cancel()
        var skus: [String] = []
        for await change in changes { skus.append(change.sku) }
        #expect(skus.isEmpty)  // cancelled before reading: nothing after cancel()
        let live = try host.context.messages.listen(to: PriceChanged.self, for: .milliseconds(100))
        try await host.context.messages.broadcast(PriceChanged(sku: "sugar"))
        var seen: [String] = []
        for await change in live { seen.append(change.sku) }
        #expect(seen == ["sugar"])
    }
}
