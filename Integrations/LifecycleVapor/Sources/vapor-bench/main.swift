import Foundation
import LifecycleCore
import LifecycleVapor
import Logging
import Vapor

// The cost a Vapor request pays for ModuleLifecycle: its request scope (`RequestScopeMiddleware`) and its
// module's route gate, against plain Vapor routing. Three applications in one process, on 127.0.0.1, each
// answering `GET /hello` with "hello" from an async handler: one plain; one plain with an empty
// `AsyncMiddleware` (what any async middleware costs in Vapor: the chain runs in a task of its own); and one
// whose route a module registered through `context.vapor(for:)`. A load generator on raw sockets sends the
// same requests to each, alternating round by round, at 1 and 64 concurrent clients; each request's round
// trip counts. Prints min and median per request, for each and as ratios. Release build:
// `swift run -c release vapor-bench` (`--quick` for a smoke run, `--rounds N`, `--requests N` per round).
//
// The load generator runs on the same cores as the servers, so the round trips include its cost too, the
// same for all three.

/// The module whose route the benchmark measures.
struct HelloModule: LifecycleModule, SetupStage {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    func setUp(_ context: LifecycleContext) async throws {
        try context.vapor(for: Self.self).routes.get("hello") { _ async in "hello" }
    }
}

func argument(_ name: String) -> Int? {
    CommandLine.arguments.firstIndex(of: name).flatMap { index in
        CommandLine.arguments.indices.contains(index + 1) ? Int(CommandLine.arguments[index + 1]) : nil
    }
}

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .error  // no line per request
    return handler
}

let quick = CommandLine.arguments.contains("--quick")
let rounds = argument("--rounds") ?? (quick ? 1 : 5)
let perRound = argument("--requests") ?? (quick ? 2_000 : 20_000)

/// Stops `app`'s server.
func stop(_ app: Application) async {
    await app.server.shutdown()
}

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

let plain = try await Application.make(.production)
plain.get("hello") { _ async in "hello" }
let plainPort = try await start(plain)

/// An async middleware that does nothing: what any async middleware costs in Vapor (a task per request).
struct PassThrough: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await next.respond(to: request)
    }
}

let passThrough = try await Application.make(.production)
passThrough.middleware.use(PassThrough())
passThrough.get("hello") { _ async in "hello" }
let passThroughPort = try await start(passThrough)

let modular = try await Application.make(.production)
try modular.useModules(ModuleManifest(name: "vapor-bench", [HelloModule.self]), launchOptions: LaunchOptions())
let modularPort = try await start(modular)

struct Figures {
    var latencies: [UInt64] = []
    var elapsed: Duration = .zero

    var sorted: [UInt64] { latencies.sorted() }
    var minimum: Double { Double(sorted.first ?? 0) / 1_000 }
    var median: Double { Double(sorted[sorted.count / 2]) / 1_000 }
    var perSecond: Double {
        let seconds = Double(elapsed.components.seconds) + 1e-18 * Double(elapsed.components.attoseconds)
        return Double(latencies.count) / seconds
    }
}

func measure(port: Int, clients: Int, requests: Int) throws -> (latencies: [UInt64], elapsed: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let latencies = try LoadGenerator(port: port, path: "/hello", clients: clients, requests: requests).run()
    return (latencies, clock.now - start)
}

print("vapor-bench: \(rounds) round(s) of \(perRound) requests per side and concurrency, alternating")
for clients in [1, 64] {
    // Warm-up: connections, caches, the JIT-free code paths once.
    _ = try measure(port: plainPort, clients: clients, requests: min(perRound, 2_000))
    _ = try measure(port: modularPort, clients: clients, requests: min(perRound, 2_000))
    _ = try measure(port: passThroughPort, clients: clients, requests: min(perRound, 2_000))
    var figures = (plain: Figures(), passThrough: Figures(), modular: Figures())
    for _ in 0..<rounds {
        let a = try measure(port: plainPort, clients: clients, requests: perRound)
        figures.plain.latencies += a.latencies
        figures.plain.elapsed += a.elapsed
        let c = try measure(port: passThroughPort, clients: clients, requests: perRound)
        figures.passThrough.latencies += c.latencies
        figures.passThrough.elapsed += c.elapsed
        let b = try measure(port: modularPort, clients: clients, requests: perRound)
        figures.modular.latencies += b.latencies
        figures.modular.elapsed += b.elapsed
    }
    func line(_ name: String, _ f: Figures) -> String {
        "  \(name)  min \(String(format: "%7.1f", f.minimum)) µs  median \(String(format: "%7.1f", f.median)) µs  "
            + "\(String(format: "%8.0f", f.perSecond)) req/s"
    }
    print("\(clients) concurrent client(s):")
    print(line("plain Vapor           ", figures.plain))
    print(line("+ an empty async mw.  ", figures.passThrough))
    print(line("scope + module routing", figures.modular))
    print(
        "  ratio                   min \(String(format: "%.3f", figures.modular.minimum / figures.plain.minimum))x"
            + "  median \(String(format: "%.3f", figures.modular.median / figures.plain.median))x"
            + "  throughput \(String(format: "%.3f", figures.plain.perSecond / figures.modular.perSecond))x"
    )
    print(
        "  against the empty async middleware: min "
            + "\(String(format: "%.3f", figures.modular.minimum / figures.passThrough.minimum))x  median "
            + "\(String(format: "%.3f", figures.modular.median / figures.passThrough.median))x"
    )
}

await stop(plain)  // the modular app stops its server in its shutdown
try await plain.asyncShutdown()
await stop(passThrough)
try await passThrough.asyncShutdown()
try await modular.asyncShutdown()
