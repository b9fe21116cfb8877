import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every documented signal, sent to the example as a real process: SIGUSR1, SIGUSR2 and SIGHUP are the
/// host's (`VaporModuleHost.signals`, handled by `SignalRequests`), SIGTERM and SIGINT are Vapor's
/// (Docs/Hosting.md, "Who owns which signal").
@Suite(.serialized) struct SignalProcessTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func backgroundForegroundReloadThenVaporStops(terminating: Int32) async throws {
        let example = try ExampleProcess()
        let port = try #require(await example.waitUntilServing(), "not serving: \(example.standardError)")
        var context: String { "transcript: \(example.transcript)\nstderr: \(example.standardError)" }

        // SIGUSR1: the background, where readiness is 503; the modules receive didEnterBackground.
        example.send(SIGUSR1)
        #expect(await example.waitForLine { $0 == "reminders: background" } != nil, "\(context)")
        #expect(try await http("GET", "/health/ready", port: port).0 == 503, "\(context)")

        // SIGUSR2: back to the foreground.
        example.send(SIGUSR2)
        #expect(await example.waitForLine { $0 == "reminders: foreground" } != nil, "\(context)")
        #expect(try await http("GET", "/health/ready", port: port).0 == 200, "\(context)")

        // SIGHUP: a reload (ReloadRequested), not the end of the process.
        example.send(SIGHUP)
        #expect(await example.waitForLine { $0 == "reminders: reloaded on SIGHUP" } != nil, "\(context)")
        #expect(try await http("GET", "/users", port: port).0 == 200, "still serving. \(context)")

        // SIGTERM or SIGINT: Vapor's; the modules tear down, exit 0.
        example.send(terminating)
        let code = await example.waitForExit()
        #expect(code == 0, "\(context)")
        let lines = example.transcript
        #expect(lines.contains("users: closed with 3 users"), "\(context)")
        #expect(lines.contains("exit: clean"), "\(context)")
        #expect(
            lines.filter { $0.hasPrefix("reminders: ") && !$0.hasPrefix("reminders: st") } == [
                "reminders: background", "reminders: foreground", "reminders: reloaded on SIGHUP",
            ],
            "each signal delivered once. \(context)"
        )
        // Each signal and what came of it is logged (Vapor's console logger writes to standard output), with
        // nothing refused.
        let log = lines.joined(separator: "\n") + example.standardError
        for line in ["handled SIGUSR1: background", "handled SIGUSR2: foreground", "handled SIGHUP: reload"] {
            #expect(log.contains("modules: \(line)"), "\(context)")
        }
        #expect(!log.contains("failed:"), "\(context)")
    }
}
