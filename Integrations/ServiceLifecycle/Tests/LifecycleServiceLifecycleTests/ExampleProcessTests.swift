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

    @Test("SIGTERM with requests in flight: each is answered in full before the store closes; exit 0")
    func sigtermDrainsRequestsBeforeTheModulesTerminate() async throws {
        let example = try ExampleProcess(arguments: ["--port", "0"])
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

    @Test("A bad --port exits with 64 and says how to call it")
    func aBadPortIsRefused() async throws {
        let example = try ExampleProcess(arguments: ["--port", "eighty"])
        let status = await example.waitForExit()
        #expect(status == 64)
        #expect(example.standardError.contains("usage: service-lifecycle-example [--port N]"))
        #expect(example.transcript.isEmpty)
    }
}
