import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import Testing

/// `SignalRequests`: the non-terminating part of a signal map, for a host whose terminating signals belong to
/// someone else. Driven by a stream of signals, never by the test process's own.
@Suite(
    "SignalRequests: reload, background and foreground for a host whose termination is owned elsewhere",
    .timeLimit(.minutes(1))
)
struct SignalRequestsTests {
    struct Setup {
        let requests: SignalRequests
        let host: ApplicationHost
        let recording: Recording
        let reports: Reports
    }

    func launched(
        map: SignalMap = .standard,
        recording: Recording = Recording()
    ) async throws -> Setup {
        var options = LaunchOptions(arguments: [])
        options[RecordingKey.self] = recording
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [Store.self, Server.self]),
            launchOptions: options,
            configuration: ApplicationHost.Configuration(onUnobservedError: { _ in })
        )
        try await host.launch()
        let reports = Reports()
        let requests = SignalRequests(host: host, map: map, report: { reports.append($0) })
        return Setup(requests: requests, host: host, recording: recording, reports: reports)
    }

    /// Runs `signals` through `requests` to the end of the stream.
    func handle(_ signals: [UnixSignal], _ setup: Setup) async {
        let (stream, continuation) = AsyncStream<UnixSignal>.makeStream()
        for signal in signals { continuation.yield(signal) }
        continuation.finish()
        await setup.requests.run(signals: stream)
    }

    @Test("Only the map's non-terminating signals are handled: SIGTERM and SIGINT stay with their owner")
    func handledSignals() async throws {
        let setup = try await launched()
        #expect(setup.requests.handledSignals == [.sighup, .sigusr1, .sigusr2])
        let jobControl = SignalRequests(host: setup.host, map: .jobControl, report: { _ in })
        #expect(jobControl.handledSignals == [.sighup, .sigtstp, .sigcont])

        // A terminating signal that reaches it anyway is neither reported nor performed.
        await handle([.sigterm, .sigint], setup)
        #expect(setup.reports.lines.isEmpty)
        #expect(setup.host.state == .active)
        try await setup.host.terminate()
    }

    @Test("USR1, USR2, HUP: background, foreground, reload, in arrival order, each handled before the next starts")
    func standardMapInOrder() async throws {
        let setup = try await launched()
        let before = setup.recording.entries.count
        await handle([.sigusr1, .sigusr2, .sighup], setup)

        #expect(
            Array(setup.recording.entries.dropFirst(before)) == [
                "willResignActive Server", "willResignActive Store", "didEnterBackground Server",
                "didEnterBackground Store", "willEnterForeground Store", "willEnterForeground Server",
                "didBecomeActive Store", "didBecomeActive Server", "reload(HUP) Store", "reload(HUP) Server",
            ]
        )
        // Each signal is reported as received, then handled, before the next one is received.
        #expect(
            setup.reports.lines == [
                "received SIGUSR1: background", "handled SIGUSR1: background", "received SIGUSR2: foreground",
                "handled SIGUSR2: foreground", "received SIGHUP: reload", "handled SIGHUP: reload",
            ]
        )
        try await setup.host.terminate()
    }

    @Test("A request the host refuses is reported with its typed error, and the next signal is still handled")
    func failuresAreReported() async throws {
        let setup = try await launched(recording: Recording(failing: ["Store reload(HUP)"]))
        // Already active: the foreground request is an invalid transition. The reload's hook throws.
        await handle([.sigusr2, .sighup, .sigusr1], setup)

        let lines = setup.reports.lines
        #expect(lines.count == 6)
        #expect(lines[1].hasPrefix("handled SIGUSR2: foreground failed: "))
        #expect(lines[3].hasPrefix("handled SIGHUP: reload failed: "))
        #expect(lines[3].contains("Store failed in reload(HUP)"))
        #expect(lines[5] == "handled SIGUSR1: background")
        #expect(setup.host.state == .background)
        try await setup.host.terminate()
    }

    @Test("Once termination has begun, each signal is reported and ignored, and nothing is delivered")
    func refusedOnceTerminating() async throws {
        let setup = try await launched()
        #expect(!setup.requests.isTerminating)
        setup.requests.beginTermination()  // as an owner does when its shutdown starts, before the host's
        #expect(setup.requests.isTerminating)
        let before = setup.recording.entries.count
        await handle([.sigusr1, .sighup], setup)
        #expect(setup.recording.entries.count == before)
        #expect(
            setup.reports.lines == [
                "received SIGUSR1: background", "ignored SIGUSR1: the host is terminating",
                "received SIGHUP: reload", "ignored SIGHUP: the host is terminating",
            ]
        )

        // A host that terminated is refused the same way by a handler that was never told.
        try await setup.host.terminate()
        let fresh = SignalRequests(host: setup.host, report: { setup.reports.append($0) })
        #expect(fresh.isTerminating)
        let (stream, continuation) = AsyncStream<UnixSignal>.makeStream()
        continuation.yield(.sigusr2)
        continuation.finish()
        await fresh.run(signals: stream)
        #expect(setup.reports.lines.last == "ignored SIGUSR2: the host is terminating")
    }

    @Test("ignore: reported as received, nothing delivered; memory-warning: receiveMemoryWarning()")
    func ignoreAndMemoryWarning() async throws {
        let setup = try await launched(map: SignalMap([.sighup: .ignore, .sigusr1: .memoryWarning]))
        let before = setup.recording.entries.count
        await handle([.sighup, .sigusr1], setup)
        #expect(
            Array(setup.recording.entries.dropFirst(before)) == [
                "didReceiveMemoryWarning Store", "didReceiveMemoryWarning Server",
            ]
        )
        #expect(
            setup.reports.lines == [
                "received SIGHUP: ignore", "received SIGUSR1: memory-warning", "handled SIGUSR1: memory-warning",
            ]
        )
        try await setup.host.terminate()
    }

    @Test("A request whose hook hangs holds the next one back until it returns")
    func oneAtATime() async throws {
        let recording = Recording(holding: ["Server willResignActive"])
        let setup = try await launched(recording: recording)
        let (stream, continuation) = AsyncStream<UnixSignal>.makeStream()
        let running = Task { await setup.requests.run(signals: stream) }
        continuation.yield(.sigusr1)
        continuation.yield(.sigusr2)
        await recording.waitUntilHeld()
        // SIGUSR2 arrived, but its request has not started: the background request is still running.
        #expect(!setup.reports.lines.contains("received SIGUSR2: foreground"))
        #expect(!recording.entries.contains("willEnterForeground Store"))
        recording.release()
        await setup.reports.waitFor("handled SIGUSR2")
        continuation.finish()
        await running.value
        #expect(setup.reports.lines.last == "handled SIGUSR2: foreground")
        #expect(setup.host.state == .active)
        try await setup.host.terminate()
    }
}
