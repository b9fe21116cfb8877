#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import Synchronization
import Testing

// The examples of Docs/Routing.md and the LifecycleRouting DocC catalog, compiled and exercised.

// README: per-host state for routes
/// Who is signed in: one per host, so hosts built side by side (parallel tests) share nothing.
final class Session: Sendable {
    private let user = Mutex<String?>(nil)
    var isSignedIn: Bool { user.withLock { $0 != nil } }
    func signIn(_ name: String) { user.withLock { $0 = name } }
}

enum SessionKey: LaunchOptionKey {
    static let defaultValue = Session()  // for hosts that set none; each host below sets its own
}
// README: end

// README: declaring a route
struct ShowOrder: Route {
    static let pattern: RoutePattern? = "app://orders/:id"
    static let command: RouteCommand? = RouteCommand(
        "order",
        summary: "Prints one order",
        arguments: [.init("id", summary: "the order number")],
        options: [.init("format", value: "text|json", summary: "the output format; default text")]
    )
    typealias Result = String

    let id: Int
    let format: String

    init(id: Int, format: String = "text") {
        self.id = id
        self.format = format
    }

    init(parameters: RouteParameters) throws {
        id = try parameters.require("id", as: Int.self)
        format = try parameters.get("format", as: String.self) ?? "text"
    }
}
// README: end

// README: a route a switch opens
struct SignIn: Route {
    init() {}
    init(parameters: RouteParameters) {}
}
// README: end

// README: serving routes
struct OrdersModule: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal
    let session: Session

    init(context: LifecycleContext) { session = context.launchOptions[SessionKey.self] }

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ShowOrder.self) { module, order, context in
            order.format == "json" ? "{\"order\": \(order.id)}" : "order \(order.id)"
        }
        routes.on(SignIn.self) { module, _, _ in module.session.signIn("guest") }
    }
}
// README: end

// README: an interceptor
struct SignInInterceptor: RouteInterceptor {
    static let priority = 100
    let session: Session

    init(context: LifecycleContext) { session = context.launchOptions[SessionKey.self] }

    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        if intent.is(ShowOrder.self), !session.isSignedIn {
            decision.switch(to: RouteIntent(SignIn()), then: .restart)
        } else {
            decision.continue()
        }
    }
}
// README: end

@Suite("Docs/Routing.md: the examples work as the guide says")
struct RoutingGuideTests {
    @Test("Opening by value, URL and command; the sign-in switch runs first, then the order restarts")
    func opening() async throws {
        // README: a host with routing
        var options = LaunchOptions.current
        options[SessionKey.self] = Session()  // this host's own: the module and the interceptor share it
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Shop", [OrdersModule.self])
                .withRouting(interceptors: [SignInInterceptor.self]),
            launchOptions: options
        )
        // README: end
        let session = host.context.launchOptions[SessionKey.self]
        #expect(!session.isSignedIn)
        #expect(session !== SessionKey.defaultValue)
        let router = try #require(host.router)
        // README: opening intents
        let text = try await router.open(ShowOrder(id: 7))  // "order 7", typed
        let json = try await router.open(url: URL(string: "app://orders/7?format=json")!)  // any Sendable
        let printed = try await router.run(arguments: ["order", "7", "--format", "json"])
        let total = try await router.open(named: "totals") { context in 42 }  // a factory, intercepted too
        // README: end
        #expect(session.isSignedIn)
        #expect(text == "order 7")
        #expect(json as? String == "{\"order\": 7}")
        #expect(printed as? String == "{\"order\": 7}")
        #expect(total == 42)
        // Another host, built the same way, has a session of its own: nobody signed in there.
        var others = LaunchOptions.current
        others[SessionKey.self] = Session()
        let other = try ApplicationHost(
            manifest: ModuleManifest(name: "Shop", [OrdersModule.self]).withRouting(interceptors: [
                SignInInterceptor.self
            ]),
            launchOptions: others
        )
        #expect(!other.context.launchOptions[SessionKey.self].isSignedIn)
        #expect(!SessionKey.defaultValue.isSignedIn)
    }

    @Test("Errors are typed and say what to fix")
    func errors() async throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Shop", [OrdersModule.self]).withRouting(),
            launchOptions: .current
        )
        let router = try #require(host.router)
        // README: handling errors
        do {
            _ = try await router.open(url: URL(string: "app://orders/seven")!)
        } catch {
            switch error.code {
            case .noRoute, .invalidParameter, .missingParameter: print("bad link: \(error)")
            case .rejected: print("refused by \(error.interceptor ?? "?"): \(error.underlying.map { "\($0)" } ?? "")")
            default: print("failed: \(error)")
            }
        }
        // README: end
        let error = await #expect(throws: RouteError.self) {
            try await router.open(url: URL(string: "app://orders/seven")!)
        }
        #expect(error?.code == .invalidParameter)
    }
}
