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

func argument(_ name: String) -> String? {
    CommandLine.arguments.firstIndex(of: name).flatMap { index in
        CommandLine.arguments.indices.contains(index + 1) ? CommandLine.arguments[index + 1] : nil
    }
}

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .error  // no line per request
    return handler
}

let quick = CommandLine.arguments.contains("--quick")
let rounds = argument("--rounds").flatMap(Int.init) ?? (quick ? 1 : 5)
let perRound = argument("--requests").flatMap(Int.init) ?? (quick ? 2_000 : 20_000)
let only = argument("--only")

/// Starts `app` on a free loopback port and returns the port.
func start(_ app: Application) async throws -> Int {
    app.logger.logLevel = .error
    try await app.asyncBoot()
    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
    guard let port = app.http.server.shared.localAddress?.port else {
        throw LoadGenerator.Failure(description: "the server has no port")
    }
    return port
}

/// Stops `app`: its server (a host's app stops it in its own shutdown), then the app.
func stop(_ app: Application) async throws {
    if app.modules == nil { await app.server.shutdown() }
    try await app.asyncShutdown()
}

/// One side of a comparison: a server, and the path every request asks.
struct Side {
    let name: String
    let port: Int
    let path: String
}

/// What one side measured over every round.
struct Figures {
    var latencies: [UInt64] = []
    var elapsed: Duration = .zero
    /// The process's CPU time per request in each round, in µs.
    var cpuPerRequest: [Double] = []

    func percentile(_ fraction: Double, of sorted: [UInt64]) -> Double {
        Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1_000
    }
    var perSecond: Double {
        let seconds = Double(elapsed.components.seconds) + 1e-18 * Double(elapsed.components.attoseconds)
        return Double(latencies.count) / seconds
    }
    var cpuMinimum: Double { cpuPerRequest.min() ?? 0 }
    var cpuMedian: Double { cpuPerRequest.sorted()[cpuPerRequest.count / 2] }

    /// min, p50, p99 in µs.
    var summary: (min: Double, p50: Double, p99: Double) {
        let sorted = latencies.sorted()
        return (Double(sorted.first ?? 0) / 1_000, percentile(0.5, of: sorted), percentile(0.99, of: sorted))
    }
}

/// The CPU time this process has used, user and system, in µs.
func processCPUTime() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
    return microseconds(usage.ru_utime) + microseconds(usage.ru_stime)
}

/// Sends `requests` requests to `side` from `clients` clients.
func measure(_ side: Side, clients: Int, requests: Int) throws -> (latencies: [UInt64], elapsed: Duration, cpu: Double)
{
    let clock = ContinuousClock()
    let start = clock.now
    let cpu = processCPUTime()
    let latencies = try LoadGenerator(port: side.port, path: side.path, clients: clients, requests: requests).run()
    return (latencies, clock.now - start, (processCPUTime() - cpu) / Double(requests))
}

func format(_ value: Double, _ width: Int = 7) -> String { String(format: "%\(width).1f", value) }
func ratio(_ value: Double) -> String { String(format: "%.3fx", value) }

/// Measures `sides` at 1 and 64 clients, taking turns, and prints each side and its ratios to the first.
func compare(_ title: String, _ sides: [Side]) throws {
    print("\(title): \(rounds) round(s) of \(perRound) requests per side and concurrency, taking turns")
    for clients in [1, 64] {
        for side in sides { _ = try measure(side, clients: clients, requests: min(perRound, 2_000)) }  // warm-up
        var figures = Array(repeating: Figures(), count: sides.count)
        for round in 0..<rounds {
            for offset in sides.indices {
                let index = (round + offset) % sides.count  // each round starts with another side
                let measured = try measure(sides[index], clients: clients, requests: perRound)
                figures[index].latencies += measured.latencies
                figures[index].elapsed += measured.elapsed
                figures[index].cpuPerRequest.append(measured.cpu)
            }
        }
        print("  \(clients) concurrent client(s), round trip in µs; CPU µs per request (min / median of rounds):")
        let width = sides.map(\.name.count).max() ?? 0
        for (side, figure) in zip(sides, figures) {
            let (low, p50, p99) = figure.summary
            print(
                "    \(side.name.padding(toLength: width, withPad: " ", startingAt: 0))  min \(format(low))  "
                    + "p50 \(format(p50))  p99 \(format(p99))  \(String(format: "%7.0f", figure.perSecond)) req/s  "
                    + "CPU \(format(figure.cpuMinimum, 5)) / \(format(figure.cpuMedian, 5))"
            )
        }
        let base = figures[0].summary
        for (side, figure) in zip(sides, figures).dropFirst() {
            let (low, p50, p99) = figure.summary
            print(
                "    \(side.name) ÷ \(sides[0].name): min \(ratio(low / base.min))  p50 \(ratio(p50 / base.p50))  "
                    + "p99 \(ratio(p99 / base.p99))  throughput \(ratio(figure.perSecond / figures[0].perSecond))  "
                    + "CPU \(ratio(figure.cpuMinimum / figures[0].cpuMinimum)) / "
                    + "\(ratio(figure.cpuMedian / figures[0].cpuMedian))"
            )
        }
    }
}

var apps: [Application] = []

if only == nil || only == "cost" {
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
    try compare(
        "request cost",
        [
            Side(name: "plain Vapor", port: try await start(plain), path: "/hello"),
            Side(name: "plain Vapor again (control)", port: try await start(control), path: "/hello"),
            Side(name: "+ an empty async middleware", port: try await start(passThrough), path: "/hello"),
            Side(name: "scope + module routing", port: try await start(modular), path: "/hello"),
            Side(name: "request scope alone (app route)", port: try await start(scopeAlone), path: "/hello"),
        ]
    )
}

if only == nil || only == "end-to-end" {
    let byHand = try await makeEndToEndPlainApp()
    let modular = try await makeEndToEndModularApp()
    apps += [byHand, modular]
    try compare(
        "end to end",
        [
            Side(name: "by hand", port: try await start(byHand), path: "/orders/7"),
            Side(name: "ModuleLifecycle", port: try await start(modular), path: "/orders/7"),
        ]
    )
}

/// The responders alone, in this process, no socket: each request is made in memory and answered by the
/// application's responder (routing, middleware, the handler's task), `perRound` at a time, one after another,
/// from a task of no actor. Prints ns per request, min and median over the rounds, for each side and as ratios
/// to the first.
func compareResponders(_ sides: [(name: String, app: Application, path: String)]) async throws {
    print("responders in-process: \(rounds) round(s) of \(perRound) requests per side, taking turns")
    let (rounds, perRound) = (rounds, perRound)
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
                        throw LoadGenerator.Failure(description: "\(path): \(response.status)")
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
                + "  ÷ \(sides[0].name): \(ratio(figure.0 / figures[0].0)) / \(ratio(figure.1 / figures[0].1))"
        )
    }
}

if only == "responders" {
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
