import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every documented signal, sent to the example as a real process in both of its modes: `work`, where
/// `HostRunner` owns every signal, and `service-group`, where the `ServiceGroup` owns SIGTERM and SIGINT and
/// `SignalRequests` handles the rest. Both must do the same (Docs/Hosting.md, "Who owns which signal").
@Suite("The example's signals, as a process, in both modes", .serialized, .timeLimit(.minutes(5)))
struct SignalProcessTests {
    init() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ExampleProcess.binary.path),
            "\(ExampleProcess.binary.path) is missing: build the package first (swift build), or set SERVICE_LIFECYCLE_EXAMPLE"
        )
    }

    @Test(
        "SIGUSR1, SIGUSR2, SIGHUP (the modules file read again), then SIGTERM or SIGINT: background, foreground, reload, exit 0",
        arguments: [("work", SIGTERM), ("service-group", SIGTERM), ("service-group", SIGINT)]
    )
    func everySignal(mode: String, terminating: Int32) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("modules-\(UUID()).conf").path
        try "TrafficModule = on\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let example = try ExampleProcess(arguments: ["--port", "0", "--mode", mode, "--modules-file", file])
        var context: String {
            "Transcript:\n\(example.transcript.joined(separator: "\n"))\nStandard error:\n\(example.standardError)"
        }
        let port = try #require(await example.waitUntilServing(), "the server never served. \(context)")

        // SIGUSR1: the background, where readiness is 503.
        example.send(SIGUSR1)
        let background = await example.waitForLine { $0.hasPrefix("signal SIGUSR1: host ") || $0.contains("refused") }
        #expect(background == "signal SIGUSR1: host background", "\(context)")
        #expect(await HTTPExchange.get(port: port, path: "/health/ready").status == 503, "\(context)")

        // SIGUSR2: back to the foreground.
        example.send(SIGUSR2)
        let foreground = await example.waitForLine { $0.hasPrefix("signal SIGUSR2: host ") || $0.contains("refused") }
        #expect(foreground == "signal SIGUSR2: host active", "\(context)")
        #expect(await HTTPExchange.get(port: port, path: "/health/ready").status == 200, "\(context)")

        // SIGHUP: the modules file is read again, TrafficModule is switched off, and the process serves on.
        try "TrafficModule = off\n".write(toFile: file, atomically: true, encoding: .utf8)
        example.send(SIGHUP)
        let reloaded = await example.waitForLine {
            $0 == "signal SIGHUP: reloaded" || $0.hasPrefix("signal SIGHUP: refused")
        }
        #expect(reloaded == "signal SIGHUP: reloaded", "\(context)")
        let transcript = example.transcript
        let hup = try #require(transcript.firstIndex(of: "signal SIGHUP: reload"), "\(context)")
        // Switched off while active: TrafficModule alone leaves the foreground, before the reload is through.
        #expect(transcript[hup...].contains("lifecycle didEnterBackground TrafficModule"), "\(context)")
        #expect(transcript[hup...].contains { $0.hasPrefix("modules changed: off: ") }, "\(context)")
        #expect(await HTTPExchange.get(port: port, path: "/health/live").status == 200, "still serving. \(context)")

        example.send(terminating)
        let status = await example.waitForExit()
        #expect(status == 0, "a graceful shutdown exits with 0. \(context)")
        #expect(example.transcript.last == "exit: clean", "\(context)")
        // Every signal was received once, in order; nothing was refused.
        #expect(
            example.transcript.filter { $0.hasPrefix("signal ") } == [
                "signal SIGUSR1: background", "signal SIGUSR1: host background", "signal SIGUSR2: foreground",
                "signal SIGUSR2: host active", "signal SIGHUP: reload", "signal SIGHUP: reloaded",
            ],
            "\(context)"
        )
    }
}
