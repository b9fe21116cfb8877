import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The example's health probes over real HTTP, from a real process: readiness through launch, background,
/// and a graceful shutdown; liveness; and a shutdown under load, where readiness turns 503 before the
/// listener closes and the modules tear down only after every request in flight was answered. Each runs
/// in both modes: the server served from `HTTPServerModule`'s work, and in a ServiceGroup.
@Suite("Health endpoints of the example server, over HTTP", .serialized, .timeLimit(.minutes(5)))
struct HealthEndpointTests {
    init() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ExampleProcess.binary.path),
            "\(ExampleProcess.binary.path) is missing: build the package first (swift build), or set SERVICE_LIFECYCLE_EXAMPLE"
        )
    }

    /// The body of `GET /health/ready`, as it is on the wire.
    struct Readiness: Decodable, Equatable {
        let state: String
        let ready: Bool
        let draining: Bool
        let notReady: [String]
        let degraded: [String]
        let quarantined: [String]
    }

    static func readiness(_ answer: HTTPExchange) throws -> Readiness {
        try JSONDecoder().decode(Readiness.self, from: Data(answer.body.utf8))
    }

    static func context(_ example: ExampleProcess) -> String {
        "Transcript:\n\(example.transcript.joined(separator: "\n"))\nStandard error:\n\(example.standardError)"
    }

    @Test(
        "Readiness: 503 while launching, 200 when active, 503 in the background, 503 from SIGTERM on",
        arguments: ExampleMode.allCases
    )
    func readinessFollowsTheLifecycle(mode: ExampleMode) async throws {
        // A launch of two seconds at least, observable from outside; 800 ms of draining at SIGTERM.
        let example = try ExampleProcess(
            arguments: ["--port", "0", "--warm-up-delay", "2000", "--drain-delay", "800", "--log-level", "info"]
                + mode.arguments
        )
        let listening = try #require(
            await example.waitForLine { $0.hasPrefix("listening 127.0.0.1:") },
            "the server never listened. \(Self.context(example))"
        )
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))

        // Launching: the server listens, the probes answer, the other routes wait for the modules.
        let launching = await HTTPExchange.get(port: port, path: "/health/ready")
        let live = await HTTPExchange.get(port: port, path: "/health/live")
        let item = await HTTPExchange.get(port: port, path: "/items/5")
        try #require(
            !example.transcript.contains("host: ready"),
            "launch was over before the probes: too slow a machine for a 2 s warm-up. \(Self.context(example))"
        )
        #expect(launching.status == 503, "\(launching)")
        let launchingBody = try Self.readiness(launching)
        #expect(["notRunning", "launching"].contains(launchingBody.state) && !launchingBody.ready, "\(launchingBody)")
        #expect(live.status == 200 && live.body == "alive\n", "liveness is not launch's business: \(live)")
        #expect(item.status == 503 && item.body == "launching\n" && item.headers["retry-after"] == "1", "\(item)")

        // Active.
        try #require(await example.waitUntilServing() == port, "never ready. \(Self.context(example))")
        let active = await HTTPExchange.get(port: port, path: "/health/ready")
        #expect(active.status == 200, "\(active)")
        #expect(
            try Self.readiness(active)
                == Readiness(state: "active", ready: true, draining: false, notReady: [], degraded: [], quarantined: [])
        )
        let alias = await HTTPExchange.get(port: port, path: "/health")
        #expect(alias.status == 200 && alias.body == "alive\n", "\(alias)")

        // Background (SIGUSR1): not ready, still alive and still answering reads; foreground (SIGUSR2): ready.
        example.send(SIGUSR1)
        #expect(await example.waitForLines(["signal SIGUSR1: host background"]), "\(Self.context(example))")
        let background = await HTTPExchange.get(port: port, path: "/health/ready")
        #expect(background.status == 503, "\(background)")
        #expect(try Self.readiness(background).state == "background")
        #expect(await HTTPExchange.get(port: port, path: "/health/live").status == 200)
        #expect(await HTTPExchange.get(port: port, path: "/items/5").status == 200)
        example.send(SIGUSR2)
        #expect(await example.waitForLines(["signal SIGUSR2: host active"]), "\(Self.context(example))")
        #expect(await HTTPExchange.get(port: port, path: "/health/ready").status == 200)

        // SIGTERM: readiness turns 503 while the host is still active and the server still answers.
        example.send(SIGTERM)
        #expect(await example.waitForLines(["readiness: draining"]), "\(Self.context(example))")
        let draining = await HTTPExchange.get(port: port, path: "/health/ready")
        let during = await HTTPExchange.get(port: port, path: "/items/7")
        #expect(draining.status == 503, "\(draining)")
        #expect(
            try Self.readiness(draining)
                == Readiness(state: "active", ready: false, draining: true, notReady: [], degraded: [], quarantined: [])
        )
        #expect(during.status == 200 && during.isComplete, "still served while draining: \(during)")

        let status = await example.waitForExit()
        let transcript = example.transcript
        let context = Self.context(example)
        #expect(status == 0, "\(context)")
        let drained = try #require(transcript.firstIndex(of: "readiness: draining"), "\(context)")
        let answered = try #require(transcript.lastIndex(of: "request items/7 completed"), "\(context)")
        let stopped = try #require(transcript.firstIndex(of: "server: stopped"), "\(context)")
        let closing = try #require(transcript.firstIndex(of: "store: closing"), "\(context)")
        #expect(drained < answered && answered < stopped && stopped < closing, "\(context)")
        if mode == .serviceGroup {
            // The group stops the server before the host leaves the foreground. The last one: the host
            // resigned once before, on its way to the background.
            let resigning = try #require(transcript.lastIndex(of: "traffic: resigning"), "\(context)")
            #expect(stopped < resigning, "\(context)")
        }
    }

    @Test(
        "Without --drain-delay, SIGTERM keeps serving while readiness answers 503: the safe default",
        arguments: ExampleMode.allCases
    )
    func theDefaultDrainDelayLetsABalancerSee503(mode: ExampleMode) async throws {
        // No --drain-delay: the default, 5 s, during which the listener stays open and says draining.
        let example = try ExampleProcess(arguments: ["--port", "0", "--log-level", "info"] + mode.arguments)
        let port = try #require(await example.waitUntilServing(), "never ready. \(Self.context(example))")
        example.send(SIGTERM)
        #expect(await example.waitForLines(["readiness: draining"]), "\(Self.context(example))")
        let polled = await HTTPExchange.get(port: port, path: "/health/ready")
        let during = await HTTPExchange.get(port: port, path: "/items/7")
        #expect(polled.status == 503, "a balancer polling readiness sees 503, not a closed port: \(polled)")
        #expect(try Self.readiness(polled).draining, "\(polled)")
        #expect(during.status == 200 && during.isComplete, "still served while draining: \(during)")
        #expect(await example.waitForExit() == 0, "\(Self.context(example))")
        let transcript = example.transcript
        let served = try #require(transcript.lastIndex(of: "request items/7 completed"), "\(Self.context(example))")
        let stopped = try #require(transcript.firstIndex(of: "server: stopped"), "\(Self.context(example))")
        #expect(served < stopped, "\(Self.context(example))")
    }

    @Test(
        "64 clients through SIGTERM: every accepted request answered in full, 503 before the listener closed",
        arguments: ExampleMode.allCases
    )
    func shutdownUnderLoad(mode: ExampleMode) async throws {
        let example = try ExampleProcess(
            arguments: ["--port", "0", "--drain-delay", "500", "--log-level", "info"] + mode.arguments
        )
        let port = try #require(await example.waitUntilServing(), "never served. \(Self.context(example))")

        let load = Load(port: port, clients: 64)
        load.start()
        // Under way: every client has had an answer.
        #expect(await load.waitUntil { $0.count >= 128 }, "the clients got answers before the signal")
        let signalled = ContinuousClock.now
        example.send(SIGTERM)
        let finished = await load.waitUntilFinished(timeout: .seconds(60))
        let status = await example.waitForExit()
        let transcript = example.transcript
        let context = Self.context(example)
        #expect(finished, "every client saw the listener close. \(context)")
        #expect(status == 0, "\(context)")

        let items = load.items
        let answered = items.filter { $0.status != nil }
        let refused = items.filter(\.wasRefused)
        // Connected, then closed by the server before any byte of an answer: it had not read the request
        // (still in the listen backlog, or not read yet when the server stopped reading). Not accepted.
        let closedUnanswered = items.filter { !$0.wasRefused && $0.received == 0 }
        let truncated = items.filter { $0.received > 0 && !($0.status != nil && $0.isComplete) }
        #expect(truncated.isEmpty, "no answer was cut short: \(truncated.prefix(3)). \(context)")
        #expect(answered.allSatisfy { $0.status == 200 && $0.isComplete }, "\(answered.filter { $0.status != 200 })")
        #expect(answered.count + refused.count + closedUnanswered.count == items.count)
        #expect(!refused.isEmpty, "the clients ran until the listener closed")

        // Every request that reached its handler was answered, and reached its client.
        let started = transcript.filter { $0.hasPrefix("request items/") && $0.contains(" started ") }.count
        let completed = transcript.filter { $0.hasPrefix("request items/") && $0.hasSuffix(" completed") }.count
        #expect(started == completed, "\(context)")
        #expect(completed == answered.count, "the server answered \(completed), the clients received \(answered.count)")

        // Readiness said 503 before the listener closed, and the server served on in between.
        let probes = load.probes
        let first503 = try #require(probes.first { $0.status == 503 }?.finished, "readiness never said 503")
        let firstRefused = try #require(
            (refused + probes.filter(\.wasRefused)).map(\.finished).min(),
            "the listener never closed"
        )
        #expect(signalled < first503 && first503 < firstRefused)
        #expect(probes.filter { $0.status == 200 }.allSatisfy { $0.finished < first503 }, "503 for good")
        #expect(answered.contains { $0.finished > first503 }, "requests were still answered while draining")

        // The modules tore down once the server had answered everything in flight.
        let drained = try #require(transcript.firstIndex(of: "readiness: draining"), "\(context)")
        let stopped = try #require(transcript.firstIndex(of: "server: stopped"), "\(context)")
        let closing = try #require(transcript.firstIndex(of: "store: closing"), "\(context)")
        let lastCompleted = try #require(transcript.lastIndex { $0.hasSuffix(" completed") }, "\(context)")
        #expect(drained < stopped && lastCompleted < stopped && stopped < closing, "\(context)")
        if mode == .serviceGroup {
            // The group stops the server before the host leaves the foreground; HostRunner's SIGTERM
            // delivers willTerminate alone.
            let resigning = try #require(transcript.firstIndex(of: "traffic: resigning"), "\(context)")
            #expect(stopped < resigning && resigning < closing, "\(context)")
        }
        #expect(!transcript.contains { $0.contains("failed") || $0.contains("cut short") }, "\(context)")
        #expect(transcript.contains("scopes in flight: 0"), "\(context)")
    }
}

/// Loopback clients, each on a thread of its own, sending `GET /items/<n>?delay=100` one after another with
/// `Connection: close` until the server refuses the connection; and one more that asks `/health/ready`
/// every 10 ms until then. Every exchange is kept.
final class Load: Sendable {
    let port: Int
    let clients: Int
    private let deadline = ContinuousClock.now + .seconds(60)
    private let state = Mutex<(items: [HTTPExchange], probes: [HTTPExchange], done: Int)>(([], [], 0))

    init(port: Int, clients: Int) {
        self.port = port
        self.clients = clients
    }

    var items: [HTTPExchange] { state.withLock { $0.items } }
    var probes: [HTTPExchange] { state.withLock { $0.probes } }

    func start() {
        for client in 0..<clients {
            Thread { [self] in
                var request = 0
                while ContinuousClock.now < deadline {
                    let path = "/items/\((client + request * clients) % 100 + 1)?delay=100"
                    request += 1
                    let answer = HTTPExchange.requestBlocking(
                        "GET",
                        port: port,
                        path: path,
                        headers: [:],
                        timeoutSeconds: 30
                    )
                    state.withLock { $0.items.append(answer) }
                    if answer.wasRefused { break }
                }
                state.withLock { $0.done += 1 }
            }.start()
        }
        Thread { [self] in
            while ContinuousClock.now < deadline {
                let answer = HTTPExchange.requestBlocking(
                    "GET",
                    port: port,
                    path: "/health/ready",
                    headers: [:],
                    timeoutSeconds: 30
                )
                state.withLock { $0.probes.append(answer) }
                if answer.wasRefused { break }
                usleep(10_000)
            }
            state.withLock { $0.done += 1 }
        }.start()
    }

    /// Waits until `condition` holds for the item exchanges so far; `false` after 30 s.
    func waitUntil(_ condition: ([HTTPExchange]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition(items) {
            guard ContinuousClock.now < deadline else { return false }
            do { try await Task.sleep(for: .milliseconds(10)) } catch { return condition(items) }
        }
        return true
    }

    /// Waits until every client and the prober stopped; `false` after `timeout`.
    func waitUntilFinished(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ $0.done }) < clients + 1 {
            guard ContinuousClock.now < deadline else { return false }
            do { try await Task.sleep(for: .milliseconds(20)) } catch { return false }
        }
        return true
    }
}
