import LifecycleRouting

/// A route of the admin API (`/admin/...`): the one HTTP method that opens it, and so whether it changes
/// anything. `AdminModule` serves them; the HTTP server forwards `/admin/**` to the host's router
/// (`AdminEndpoint.swift`), which answers another method with 405.
protocol AdminRoute: Route where Result: Encodable {
    /// The HTTP method that opens the route.
    static var method: AdminMethod { get }
}

extension AdminRoute {
    /// Whether the route changes something: `BackgroundWriteGuard` refuses it unless the host is in the
    /// foreground.
    static var isWrite: Bool { method != .get }
}

/// The HTTP methods the admin API answers.
enum AdminMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
}

/// `GET /admin/modules`: the host's state and its modules, in delivery order.
struct ListModules: AdminRoute {
    static let pattern: RoutePattern? = "/admin/modules"
    static let method = AdminMethod.get
    typealias Result = ModulesReport

    init() {}
    init(parameters: RouteParameters) {}
}

/// `GET /admin/items/{id}`: one item of the store. `id` is an `Int` from 1 up: anything else is 400.
struct ReadItem: AdminRoute {
    static let pattern: RoutePattern? = "/admin/items/:id"
    static let method = AdminMethod.get
    typealias Result = ItemReport

    let id: Int

    init(id: Int) { self.id = id }

    init(parameters: RouteParameters) throws {
        id = try parameters.require("id")
        guard id >= 1 else { throw InvalidAdminInput("item ids start at 1; \(id) is not one") }
    }
}

/// `POST /admin/store/fill?count={n}`: (re)writes items 1 to `n` (100 by default, at most 10,000) with
/// their original values, and answers how many items the store holds.
struct FillStore: AdminRoute {
    static let pattern: RoutePattern? = "/admin/store/fill"
    static let method = AdminMethod.post
    typealias Result = StoreReport

    /// The most items one request may write.
    static let maximumCount = 10_000

    let count: Int

    init(count: Int = 100) { self.count = count }

    init(parameters: RouteParameters) throws {
        count = try parameters.get("count") ?? 100
        guard (1...Self.maximumCount).contains(count) else {
            throw InvalidAdminInput("count must be 1 to \(Self.maximumCount); \(count) is not")
        }
    }
}

/// `POST /admin/probe/register` adds ``ProbeModule`` to the running host (`host.register(_:)`);
/// `POST /admin/probe/remove` takes it out (`host.remove(_:)`). Both answer whether it is registered now.
/// Registering it twice, or removing it when it is not registered, is 409; another action is 400.
struct ProbeMembership: AdminRoute {
    static let pattern: RoutePattern? = "/admin/probe/:action"
    static let method = AdminMethod.post
    typealias Result = ProbeReport

    enum Action: String, Sendable {
        case register, remove
    }

    let action: Action

    init(action: Action) { self.action = action }

    init(parameters: RouteParameters) throws {
        let name: String = try parameters.require("action")
        guard let action = Action(rawValue: name) else {
            throw InvalidAdminInput("the probe's actions are register and remove; \(name) is not one")
        }
        self.action = action
    }
}

/// What a route's `init(parameters:)` refuses beyond the types: the router reports it as `invalidInput`,
/// answered 400.
struct InvalidAdminInput: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
