import EndToEndBench
import LifecycleCore
import LifecycleScopes
import LifecycleVapor
import Vapor

// The end-to-end comparison of issue 35 ("End to end, in a real server") in Vapor: `GET /orders/:id` with
// everything a module's request path can carry, from a module's Vapor route in the request's scope, against
// the same work by hand from a plain Vapor route. The work itself, both sides of it, is `EndToEndBench`'s
// (Benchmarks/EndToEnd), shared with the Hummingbird benchmark; here is only how Vapor reaches it.

/// Registers `GET /orders/:id` on the module's Vapor routes; its handler answers in the request's scope.
struct VaporOrdersRoute: LifecycleModule, SetupStage {
    static let priority: ModulePriority = .normal
    static var dependencies: [any LifecycleModule.Type] { [OrdersModule.self] }
    init(context: LifecycleContext) {}

    func setUp(_ context: LifecycleContext) async throws {
        let desk = try OrderDesk(context: context)
        try context.vapor(for: Self.self).routes.get("orders", ":id") { req async throws -> String in
            let id = try req.parameters.require("id", as: Int.self)
            guard let scope = req.modules.scope else { throw Abort(.internalServerError, reason: "no scope") }
            return try await desk.answer(id, in: scope)
        }
    }
}

/// The application whose route a module registered, with everything on its path.
func makeEndToEndModularApp() async throws -> Application {
    let app = try await Application.make(.production)
    try app.useModules(
        orderManifest(name: "end-to-end", adding: [VaporOrdersRoute.self]),
        launchOptions: orderLaunchOptions()
    )
    return app
}

/// The application whose handler does the same work by hand.
func makeEndToEndPlainApp() async throws -> Application {
    let app = try await Application.make(.production)
    let orders = HandWrittenOrders()
    app.get("orders", ":id") { req async throws -> String in
        try await orders.answer(try req.parameters.require("id", as: Int.self))
    }
    return app
}
