import EndToEndBench
import Foundation
import LifecycleCore
import LifecycleVapor
import Logging
import Vapor

// What a Vapor request pays for ModuleLifecycle, in two comparisons, each side by side in one process on
// 127.0.0.1, with a load generator on raw sockets at 1 and 64 concurrent clients:
//
// - "request cost": `GET /hello` answering "hello" from an async handler, in a plain app; in a second plain
//   app, the control (the two are the same, so its ratio to the first is the run's noise floor); in a plain
//   app with an empty `AsyncMiddleware` (what any async middleware costs in Vapor: the chain runs in a task
//   of its own, which is why the request scope is not a middleware); from a module's route, behind its
//   gate and in a request scope (`RequestScopeResponder`); and from the application's own route in a host,
//   in a request scope behind no gate (what the scope alone costs).
// - "end to end": `GET /orders/7` with everything a module's request path can carry (two global scope
//   actions, an adopted behavior, three scoped services, a route opened through three interceptors, a
//   message to another module) against the same work written by hand (`EndToEnd.swift`).
//
// The sides take turns, round by round, each round starting with another side. For each side: round trip
// min, p50 and p99, requests per second, and the process's CPU time per request (server and load
// generator: the figure that holds on a loaded machine, where waiting for a core inflates the latencies).
// Release build: `swift run -c release vapor-bench` (`--quick` for a smoke run, `--rounds N`, `--requests N`
// per round and side, `--only cost` or `--only end-to-end`). `--only responders` compares the same
// applications without sockets: each request made in memory and answered by the application's responder,
// one after another, so the figure is the server's path alone.
//
// The load generator runs on the same cores as the servers, so the round trips include its cost too, the
// same for every side.

/// The module whose route the request-cost comparison measures.
struct HelloModule: LifecycleModule, SetupStage {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    func setUp(_ context: LifecycleContext) async throws {
        try context.vapor(for: Self.self).routes.get("hello") { _ async in "hello" }
    }
}

/// A module that registers no route: the host of the "request scope alone" side, whose route is the app's own
/// (in a request scope, behind no gate).
struct QuietModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// An async middleware that does nothing: what any async middleware costs in Vapor (a task per request).
struct PassThrough: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await next.respond(to: request)
    }
}

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .error  // no line per request
    return handler
}

let options = BenchOptions()
let comparison = LoadComparison(options)

/// Starts `app` on a free loopback port and returns the port.
func start(_ app: Application) async throws -> Int {
    app.logger.logLevel = .error
    try await app.asyncBoot()
    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
    guard let port = app.http.server.shared.localAddress?.port else {
        throw BenchFailure("the server has no port")
    }
    return port
}

/// Stops `app`: its server (a host's app stops it in its own shutdown), then the app.
func stop(_ app: Application) async throws {
    if app.modules == nil { await app.server.shutdown() }
    try await app.asyncShutdown()
}

/// A side of a comparison: `app`, started, asked `GET path` and answering `expected`.
func side(_ name: String, _ app: Application, _ path: String, _ expected: String) async throws -> LoadComparison.Side {
    LoadComparison.Side(name: name, port: try await start(app), path: path, expected: expected)
}

var apps: [Application] = []

if options.runs("cost") {
    let plain = try await Application.make(.production)
    plain.get("hello") { _ async in "hello" }
    // The same app again: the control. What it measures against the first is the run's noise floor.
    let control = try await Application.make(.production)
    control.get("hello") { _ async in "hello" }
    let passThrough = try await Application.make(.production)
    passThrough.middleware.use(PassThrough())
    passThrough.get("hello") { _ async in "hello" }
    let modular = try await Application.make(.production)
    try modular.useModules(ModuleManifest(name: "vapor-bench", [HelloModule.self]), launchOptions: LaunchOptions())
    // The application's own route in a host: a request scope, and no module gate.
    let scopeAlone = try await Application.make(.production)
    try scopeAlone.useModules(
        ModuleManifest(name: "vapor-bench-scope", [QuietModule.self]),
        launchOptions: LaunchOptions()
    )
    scopeAlone.get("hello") { _ async in "hello" }
    apps += [plain, control, passThrough, modular, scopeAlone]
    try comparison.run(
        "request cost",
        [
            try await side("plain Vapor", plain, "/hello", "hello"),
            try await side("plain Vapor again (control)", control, "/hello", "hello"),
            try await side("+ an empty async middleware", passThrough, "/hello", "hello"),
            try await side("scope + module routing", modular, "/hello", "hello"),
            try await side("request scope alone (app route)", scopeAlone, "/hello", "hello"),
        ]
    )
}

if options.runs("end-to-end") {
    let byHand = try await makeEndToEndPlainApp()
    let modular = try await makeEndToEndModularApp()
    apps += [byHand, modular]
    try comparison.run(
        "end to end",
        [
            try await side("by hand", byHand, "/orders/7", "order 7 of 8"),
            try await side("ModuleLifecycle", modular, "/orders/7", "order 7 of 8"),
        ]
    )
}

/// The responders alone, in this process, no socket: each request is made in memory and answered by the
/// application's responder (routing, middleware, the handler's task), `perRound` at a time, one after another,
/// from a task of no actor. Prints ns per request, min and median over the rounds, for each side and as ratios
/// to the first.
func compareResponders(_ sides: [(name: String, app: Application, path: String)]) async throws {
    let (rounds, perRound) = (options.rounds, options.requestsPerRound)
    print("responders in-process: \(rounds) round(s) of \(perRound) requests per side, taking turns")
    let perRequest = try await Task.detached {
        var perRequest = Array(repeating: [Double](), count: sides.count)
        let clock = ContinuousClock()
        for round in -1..<rounds {  // round -1 warms up
            for offset in sides.indices {
                let index = (max(round, 0) + offset) % sides.count
                let (_, app, path) = sides[index]
                let responder = app.responder.current
                let started = clock.now
                for _ in 0..<perRound {
                    let request = Request(
                        application: app,
                        method: .GET,
                        url: URI(path: path),
                        on: app.eventLoopGroup.next()
                    )
                    let response = try await responder.respond(to: request).get()
                    guard response.status == .ok else {
                        throw BenchFailure("\(path): \(response.status)")
                    }
                }
                if round >= 0 { perRequest[index].append((clock.now - started) / .nanoseconds(1) / Double(perRound)) }
            }
        }
        return perRequest
    }.value
    let figures = perRequest.map { ($0.min() ?? 0, $0.sorted()[$0.count / 2]) }
    for (side, figure) in zip(sides, figures) {
        print(
            "    \(side.name): min \(String(format: "%.0f", figure.0)) ns  median \(String(format: "%.0f", figure.1)) ns"
                + "  ÷ \(sides[0].name): \(LoadComparison.ratio(figure.0 / figures[0].0)) / \(LoadComparison.ratio(figure.1 / figures[0].1))"
        )
    }
}

if options.only == "responders" {
    let plain = try await Application.make(.production)
    plain.get("hello") { _ async in "hello" }
    let modular = try await Application.make(.production)
    try modular.useModules(ModuleManifest(name: "vapor-bench", [HelloModule.self]), launchOptions: LaunchOptions())
    let byHand = try await makeEndToEndPlainApp()
    let endToEnd = try await makeEndToEndModularApp()
    for app in [plain, modular, byHand, endToEnd] { try await app.asyncBoot() }
    apps += [plain, modular, byHand, endToEnd]
    try await compareResponders([("plain Vapor", plain, "/hello"), ("scope + module routing", modular, "/hello")])
    try await compareResponders([
        ("end to end by hand", byHand, "/orders/7"), ("end to end, ModuleLifecycle", endToEnd, "/orders/7"),
    ])
}

for app in apps { try await stop(app) }
