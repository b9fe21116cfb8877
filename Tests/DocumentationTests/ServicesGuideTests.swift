import LifecycleCore
import LifecycleProxy
import LifecycleScopes
import LifecycleServices
import Synchronization
import Testing

// The examples of Docs/Services.md and the LifecycleServices DocC catalog, compiled and exercised.

// README: service protocol
/// What the rest of the program knows of the database: a protocol, in a target everyone can import.
public protocol ProductStore: Sendable {
    func product(id: Int) async throws -> String?
}
// README: end

final class PostgresProductStore: ProductStore {
    let closed = Mutex(false)
    init(url: String) {}
    func product(id: Int) async throws -> String? { "product-\(id)" }
    func close() async { closed.withLock { $0 = true } }
}

enum DatabaseURLKey: LaunchOptionKey {
    static let defaultValue = "postgres://localhost/shop"
}

// README: provide a service
struct DatabaseModule: LifecycleModule, ServiceProvidingModule {
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any ProductStore).self) { resolver in
            PostgresProductStore(url: resolver.launchOptions[DatabaseURLKey.self])
        } shutdown: { store in
            await (store as? PostgresProductStore)?.close()
        }
    }
}
// README: end

final class ProductCache: Sendable {
    let entries = Mutex<[Int: String]>([:])
}

// README: require a service
struct CatalogModule: LifecycleModule, ServiceRequiringModule, SetupStage {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any ProductStore).self)
    let cache = ProductCache()

    init(context: LifecycleContext) {}

    func setUp(_ context: LifecycleContext) async throws {
        let store = try context.services(for: Self.self).require((any ProductStore).self)
        let first = try await store.product(id: 1)
        cache.entries.withLock { $0[1] = first }
    }
}
// README: end

struct InMemoryProductStore: ProductStore {
    func product(id: Int) async throws -> String? { "fake-\(id)" }
}

/// A shopper's cart for one request.
public protocol ShoppingCart: Sendable {
    func add(productID: Int) async
}

/// Keeps its products until the request ends, then saves them.
final class RequestCart: ShoppingCart {
    /// What each saved cart held, in the order they were saved.
    static let saved = Locked<[[String]]>([])
    let store: any ProductStore
    let products = Locked<[String]>([])

    init(store: any ProductStore) { self.store = store }

    func add(productID: Int) async {
        let product = (try? await store.product(id: productID)) ?? "?"
        products.withLock { $0.append(product) }
    }

    func save() async {
        let products = products.withLock { $0 }
        Self.saved.withLock { $0.append(products) }
    }
}

// README: provide a scoped service
struct CartModule: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any ProductStore).self)
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.scoped((any ShoppingCart).self) { resolver in
            RequestCart(store: try resolver.require((any ProductStore).self))
        } shutdown: { cart in
            await (cart as? RequestCart)?.save()
        }
    }
}
// README: end

@Suite("Docs/Services.md examples")
struct ServicesGuideTests {
    @Test("The catalog launches after the database it requires, and reads through the service")
    func providerAndRequirer() async throws {
        // README: build a host with services
        let host = try ApplicationHost(
            manifest: ModuleManifest([CatalogModule.self, DatabaseModule.self]).withServices(),
            launchOptions: .current
        )
        // README: end
        #expect(host.plan(for: .setup).map(\.name).last?.hasSuffix("CatalogModule") == true)
        try await host.launch()
        let store = try host.context.services.require((any ProductStore).self)
        #expect(try await store.product(id: 2) == "product-2")
        try await host.terminate()
        #expect((store as? PostgresProductStore)?.closed.withLock { $0 } == true)
    }

    @Test("A test replaces the database with a fake in one line")
    func fakeInATest() async throws {
        // README: replace a service in a test
        let manifest = ModuleManifest([CatalogModule.self, DatabaseModule.self]).withServices {
            $0.replace((any ProductStore).self) { _ in InMemoryProductStore() }
        }
        let host = try ApplicationHost(manifest: manifest, launchOptions: LaunchOptions())
        try await host.launch()
        #expect(try await host.context.services.require((any ProductStore).self).product(id: 1) == "fake-1")
        #expect(host.context.services.resolutions[ServiceKey((any ProductStore).self)] == 2)
        #expect(host.context.services.resolutions(by: CatalogModule.self) == [ServiceKey((any ProductStore).self): 1])
        // README: end
        try await host.terminate()
    }

    @Test("A request's cart is one instance for the whole request, saved when the request ends")
    func scopedCart() async throws {
        // README: resolve a scoped service
        let host = try ApplicationHost(
            manifest: ModuleManifest([CartModule.self, DatabaseModule.self]).withServices().withScopes(),
            launchOptions: LaunchOptions()
        )
        try await host.launch()
        try await host.scopes!.withScope(.request, "POST /cart") { scope in
            let cart = try scope.services.require((any ShoppingCart).self)
            await cart.add(productID: 1)
            // Inside `withScope`, `context.services` resolves in the same scope: the same cart.
            try await host.context.services.require((any ShoppingCart).self).add(productID: 2)
        }
        // The request has ended: its cart was saved, after the request's end actions.
        // README: end
        #expect(RequestCart.saved.withLock { $0 } == [["product-1", "product-2"]])
        let error = #expect(throws: ServiceError.self) { try host.context.services.require((any ShoppingCart).self) }
        #expect(error?.code == .noScope)
        try await host.terminate()
    }

    @Test("The plan says why the catalog comes after the database")
    func explainedOrder() throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest([CatalogModule.self, DatabaseModule.self]).withServices(),
            launchOptions: LaunchOptions()
        )
        let catalog = try #require(host.participants.first { $0.name.hasSuffix("CatalogModule") })
        // README: explain the order
        for dependency in host.dependencies(of: catalog) {
            print("\(catalog.name) after \(dependency.module.name): \(dependency.reason)")
        }
        // README: end
        #expect(host.dependencies(of: catalog).map(\.reason) == [.added("requires service `ProductStore`")])
    }
}
