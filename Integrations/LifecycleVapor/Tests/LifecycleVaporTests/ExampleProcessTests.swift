import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The example as a real process on a loopback port: it serves, its admin routes need the token, and at
/// SIGTERM (Vapor's signal) it answers the request in flight, then stops its work and closes its modules,
/// and exits 0.
@Suite(.serialized) struct ExampleProcessTests {
    @Test func sigtermDrainsTheRequestInFlightThenTearsDownAndExitsZero() async throws {
        // LOG_LEVEL=debug: the per-request lines (RequestLogAction) are .debug, off by default.
        let example = try ExampleProcess(environment: ["ADMIN_TOKEN": "s3cret", "LOG_LEVEL": "debug"])
        let port = try #require(await example.waitUntilServing(), "not serving: \(example.standardError)")

        let (status, body) = try await http("GET", "/users", port: port)
        #expect(status == 200)
        #expect(body.contains("grace"))
        #expect(try await http("GET", "/health/ready", port: port).0 == 200)
        #expect(try await http("POST", "/lifecycle/background", port: port).0 == 403)
        let admin = ["Authorization": "Bearer s3cret"]
        #expect(try await http("POST", "/lifecycle/background", port: port, headers: admin).0 == 503)
        #expect(try await http("GET", "/health/ready", port: port).0 == 503)
        #expect(try await http("POST", "/lifecycle/foreground", port: port, headers: admin).0 == 200)

        async let slow = http("GET", "/todos/slow?ms=1500", port: port)
        _ = try #require(await example.waitForLine { $0 == "todos: slow request started" })
        example.send(SIGTERM)
        let (slowStatus, slowBody) = try await slow
        #expect(slowStatus == 200)
        #expect(slowBody == "slow 1500 ms")
        let code = await example.waitForExit()
        #expect(code == 0, "stderr: \(example.standardError)")

        let lines = example.transcript
        let order = [
            "todos: slow request answered", "request GET /todos/slow: ended", "reminders: stopped",
            "todos: closed with 0 todos", "users: closed with 3 users", "exit: clean",
        ]
        let positions = order.map { lines.firstIndex(of: $0) }
        #expect(!positions.contains(nil), "missing lines in \(lines)")
        #expect(positions == positions.sorted { ($0 ?? -1) < ($1 ?? -1) }, "out of order: \(lines)")
    }

    @Test func aTakenPortExitsOne() async throws {
        let first = try ExampleProcess()
        let port = try #require(await first.waitUntilServing())
        let second = Process()
        second.executableURL = ExampleProcess.binary
        second.arguments = ["serve", "--hostname", "127.0.0.1", "--port", "\(port)"]
        second.standardOutput = FileHandle.nullDevice
        second.standardError = FileHandle.nullDevice
        try second.run()
        second.waitUntilExit()
        #expect(second.terminationStatus == 1)
        first.send(SIGTERM)
        #expect(await first.waitForExit() == 0)
    }

    @Test func byDefaultSigtermDrainsWithReadiness503AndNoRequestIsLogged() async throws {
        // Neither a drain delay nor a log level given: the defaults.
        let example = try ExampleProcess()
        let port = try #require(await example.waitUntilServing(), "not serving: \(example.standardError)")
        #expect(try await http("GET", "/users", port: port).0 == 200)
        example.send(SIGTERM)
        // The default drain delay keeps the listener open while readiness answers 503, so a balancer that
        // polls it sees 503 instead of a refused connection.
        var polled: [Int] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, !polled.contains(503) {
            guard let status = try? await http("GET", "/health/ready", port: port).0 else { break }
            polled.append(status)
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(polled.contains(503), "readiness while shutting down: \(polled)")
        #expect(await example.waitForExit() == 0, "stderr: \(example.standardError)")
        let lines = example.transcript
        #expect(!lines.contains { $0.hasPrefix("request ") }, "the per-request lines are .debug: \(lines)")
        #expect(lines.last == "exit: clean", "\(lines)")
    }
}
