import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the example server as a real process, sends it real HTTP requests on loopback and SIGTERM while
/// they are in flight, and reads what happened from its transcript and its exit status.
@Suite("The example server, as a process", .serialized, .timeLimit(.minutes(5)))
struct ExampleProcessTests {
    init() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ExampleProcess.binary.path),
            "\(ExampleProcess.binary.path) is missing: build the package first (swift build), or set SERVICE_LIFECYCLE_EXAMPLE"
        )
    }

    @Test(
        "In a ServiceGroup, SIGTERM with requests in flight: each is answered in full before the store closes; exit 0"
    )
    func sigtermDrainsRequestsBeforeTheModulesTerminate() async throws {
        // The ServiceGroup's order: the server stops before the host leaves the foreground.
        let example = try ExampleProcess(
            // No drain delay: the test is about the requests in flight, not a balancer. The per-request
            // lines are at .info, off by default.
            arguments: ["--port", "0", "--mode", "service-group", "--drain-delay", "0", "--log-level", "info"]
        )
        let port = try #require(
            await example.waitUntilServing(),
            "the server never served. Standard error:\n\(example.standardError)"
        )

        // Two quick requests, answered before the shutdown, then four slow ones still running at SIGTERM:
        // the shortest takes 3 s, so a loaded machine has time to start all four before the signal.
        let quick = ["5", "6"]
        for item in quick {
            let answer = await HTTPExchange.get(port: port, path: "/items/\(item)")
            #expect(answer.status == 200 && answer.body == "item \(item): value-\(item)\n", "quick \(item): \(answer)")
        }
        let slow = [("1", 3_000), ("2", 3_500), ("3", 4_000), ("4", 4_500)]
        let requests = slow.map { item, delay in
            Task { (item, await HTTPExchange.get(port: port, path: "/items/\(item)?delay=\(delay)")) }
        }
        let allStarted = await example.waitForLines(slow.map { "request items/\($0.0) started delay=\($0.1)" })
        #expect(
            allStarted,
            "every slow request reached its handler. Transcript:\n\(example.transcript.joined(separator: "\n"))"
        )
        let signalled = ContinuousClock.now
        example.send(SIGTERM)

        var answers: [String: HTTPExchange] = [:]
        for request in requests {
            let (item, answer) = await request.value
            answers[item] = answer
        }
        let status = await example.waitForExit()
        let transcript = example.transcript
        let context = "Transcript:\n\(transcript.joined(separator: "\n"))\nStandard error:\n\(example.standardError)"

        // Every accepted request got a complete answer, after the signal: it really was in flight.
        for (item, _) in slow {
            let answer = try #require(answers[item])
            #expect(answer.status == 200, "items/\(item): \(answer)")
            #expect(answer.body == "item \(item): value-\(item)\n", "items/\(item)")
            #expect(answer.isComplete, "items/\(item): the body is as long as Content-Length")
            #expect(answer.finished > signalled, "items/\(item) was still in flight at SIGTERM")
        }

        // Each request completed before the store's willTerminate began, and before the host left active.
        let closing = try #require(transcript.firstIndex(of: "store: closing"), "\(context)")
        let resigning = try #require(transcript.firstIndex(of: "traffic: resigning"), "\(context)")
        for item in quick + slow.map(\.0) {
            let completed = try #require(transcript.firstIndex(of: "request items/\(item) completed"), "\(context)")
            #expect(completed < resigning, "items/\(item) completed before willResignActive. \(context)")
            #expect(completed < closing, "items/\(item) completed before the store closed. \(context)")
        }

        // The whole lifecycle, in order, and the first request came once launch was through.
        #expect(
            transcript.filter { $0.hasPrefix("lifecycle ") } == [
                "lifecycle setup ServiceRegistryModule",
                "lifecycle setup StoreModule",
                "lifecycle initialize ServiceRegistryModule",
                "lifecycle warmUp StoreModule",
                "lifecycle didBecomeActive TrafficModule",
                "lifecycle willResignActive TrafficModule",
                "lifecycle didEnterBackground TrafficModule",
                "lifecycle willTerminate SessionModule",
                "lifecycle willTerminate StoreModule",
                "lifecycle willTerminate ServiceRegistryModule",
            ],
            "\(context)"
        )
        let active = try #require(transcript.firstIndex(of: "lifecycle didBecomeActive TrafficModule"))
        let listened = try #require(transcript.firstIndex { $0.hasPrefix("listening 127.0.0.1:") })
        let ready = try #require(transcript.firstIndex(of: "host: ready"))
        let firstRequest = try #require(transcript.firstIndex { $0.hasPrefix("request ") })
        #expect(active < ready && ready < firstRequest && listened < firstRequest, "\(context)")
        // Drained before anything stopped: readiness first, then the server, then the modules.
        let draining = try #require(transcript.firstIndex(of: "readiness: draining"), "\(context)")
        let stopped = try #require(transcript.firstIndex(of: "server: stopped"), "\(context)")
        #expect(draining < stopped && stopped < resigning, "\(context)")
        #expect(transcript.contains("traffic: 6 requests answered"), "\(context)")
        #expect(transcript.contains("store: closed with 100 items"), "\(context)")
        // Each drained request's scope ended with it: nothing is in flight after the shutdown.
        #expect(transcript.contains("scopes in flight: 0"), "\(context)")
        #expect(!transcript.contains { $0.contains("failed") || $0.contains("cut short") }, "\(context)")
        #expect(transcript.last == "exit: clean", "\(context)")
        #expect(status == 0, "a clean graceful shutdown exits with 0. \(context)")
    }

    @Test("HTTP from HTTPServerModule's work: ready once the listener is up; SIGTERM drains the request in flight")
    func httpIsServedFromTheModulesWork() async throws {
        // The listener comes up 1.5 s after the setup stage, as a server that loads a certificate first.
        let notify = try NotifySocket()
        let example = try ExampleProcess(
            arguments: ["--port", "0", "--listen-delay", "1500", "--drain-delay", "0", "--log-level", "info"],
            environment: ["NOTIFY_SOCKET": notify.path]
        )
        let context = {
            "Transcript:\n\(example.transcript.joined(separator: "\n"))\nStandard error:\n\(example.standardError)"
        }

        // READY=1 comes once the listener is up: at once, the server answers, and readiness says ready.
        try #require(
            await notify.waitForMessage { $0.hasPrefix("READY=1") } != nil,
            "no READY=1. Messages: \(notify.messages). \(context())"
        )
        // Written before the work reported ready; standard output may reach this process after READY=1.
        let listening = try #require(
            await example.waitForLine { $0.hasPrefix("listening 127.0.0.1:") },
            "\(context())"
        )
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        let ready = await HTTPExchange.get(port: port, path: "/health/ready")
        #expect(ready.status == 200 && ready.body.contains(#""notReady":[]"#), "\(ready)")
        #expect(
            notify.messages.first == "STATUS=launching"
                && notify.messages.firstIndex { $0.hasPrefix("READY=1") } != nil,
            "\(notify.messages)"
        )

        // The work serves the routes: the first GET works, and the metrics name the work.
        let item = await HTTPExchange.get(port: port, path: "/items/5")
        #expect(item.status == 200 && item.body == "item 5: value-5\n", "\(item)")
        let metrics = await HTTPExchange.get(port: port, path: "/metrics").body
        let work = #"module="service_lifecycle_example.HTTPServerModule",work="http""#
        for line in [
            #"lifecycle_work_changes_total{change="workStarted","# + work + "} 1",
            #"lifecycle_work_changes_total{change="workReady","# + work + "} 1",
            "lifecycle_work_running{" + work + "} 1.0",
        ] {
            #expect(metrics.contains(line + "\n"), "\(line) in:\n\(metrics)")
        }

        // A slow request in flight at SIGTERM: answered in full, then the server stops, then the store closes.
        let slow = Task { await HTTPExchange.get(port: port, path: "/items/4?delay=2000") }
        #expect(await example.waitForLines(["request items/4 started delay=2000"]), "\(context())")
        let signalled = ContinuousClock.now
        example.send(SIGTERM)
        let answer = await slow.value
        let status = await example.waitForExit()
        _ = await example.waitForLine { $0.hasPrefix("exit: ") }  // read to the end
        #expect(status == 0, "a clean graceful shutdown exits with 0. \(context())")
        #expect(answer.status == 200 && answer.isComplete && answer.body == "item 4: value-4\n", "\(answer)")
        #expect(answer.finished > signalled, "it was still in flight at SIGTERM")

        let transcript = example.transcript
        let waited = try #require(transcript.firstIndex(of: "server: listening in 1.5 seconds"), "\(context())")
        let listened = try #require(transcript.firstIndex(of: listening))
        let hostReady = try #require(transcript.firstIndex(of: "host: ready"), "\(context())")
        #expect(waited < listened && listened < hostReady, "ready only once the listener was up. \(context())")
        let draining = try #require(transcript.firstIndex(of: "readiness: draining"), "\(context())")
        let completed = try #require(transcript.firstIndex(of: "request items/4 completed"), "\(context())")
        let stopped = try #require(transcript.firstIndex(of: "server: stopped"), "\(context())")
        let closing = try #require(transcript.firstIndex(of: "store: closing"), "\(context())")
        #expect(draining < completed && completed < stopped && stopped < closing, "\(context())")
        // Under HostRunner, SIGTERM delivers willTerminate alone; the server stopped before it.
        #expect(
            transcript.filter { $0.hasPrefix("lifecycle ") } == [
                "lifecycle setup ServiceRegistryModule",
                "lifecycle setup StoreModule",
                "lifecycle initialize ServiceRegistryModule",
                "lifecycle warmUp StoreModule",
                "lifecycle didBecomeActive TrafficModule",
                "lifecycle willTerminate SessionModule",
                "lifecycle willTerminate StoreModule",
                "lifecycle willTerminate ServiceRegistryModule",
            ],
            "\(context())"
        )
        #expect(transcript.contains("scopes in flight: 0"), "\(context())")
        #expect(!transcript.contains { $0.contains("failed") || $0.contains("cut short") }, "\(context())")
        #expect(transcript.last == "exit: clean", "\(context())")
        #expect(notify.messages.contains { $0.hasPrefix("STOPPING=1") }, "\(notify.messages)")
    }

    @Test("The port is taken: the server's work fails past its policy, the host terminates itself; exit 6")
    func aTakenPortTerminatesTheApplication() async throws {
        let taken = try ListeningSocket()
        let example = try ExampleProcess(arguments: ["--port", "\(taken.port)"])
        let status = await example.waitForExit()
        _ = await example.waitForLine { $0.hasPrefix("exit: ") }  // read to the end
        let transcript = example.transcript
        let context = "Transcript:\n\(transcript.joined(separator: "\n"))\nStandard error:\n\(example.standardError)"

        #expect(status == 6, "HostRunner's code for a work that failed. \(context)")
        let last = try #require(transcript.last, "\(context)")
        #expect(last.hasPrefix("exit: exit 6 (work failed)"), "\(context)")
        #expect(last.contains("work `http` of service_lifecycle_example.HTTPServerModule"), "\(context)")
        #expect(last.contains("after 3 restarts"), "\(context)")
        #expect(!transcript.contains("host: ready"), "never ready: it never listened. \(context)")
        #expect(!transcript.contains { $0.hasPrefix("listening ") }, "\(context)")
        // It terminated gracefully: the store closed.
        #expect(transcript.contains("store: closed with 100 items"), "\(context)")
    }

    @Test("A bad --port exits with 64 and says how to call it")
    func aBadPortIsRefused() async throws {
        let example = try ExampleProcess(arguments: ["--port", "eighty"])
        let status = await example.waitForExit()
        #expect(status == 64)
        #expect(example.standardError.contains("usage: service-lifecycle-example [--port N]"))
        #expect(example.transcript.isEmpty)
    }
}

/// A TCP socket listening on a free loopback port, which another listener cannot take; closed when let go.
final class ListeningSocket: Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard listening else {
            let error = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
