import Foundation
import LifecycleCore
import LifecycleHosting
import LifecycleTesting
import Synchronization
import Testing

@Suite("systemd notifications from the host runner, on a real datagram socket", .timeLimit(.minutes(1)))
struct SystemdNotifierTests {
    /// A runner of `Store` and `Server` that notifies `socket`, with a watchdog of `watchdogUSec`.
    func setup(
        _ socket: NotifySocket,
        _ modules: [any LifecycleModule.Type] = [Store.self, Server.self],
        watchdogUSec: Int? = nil,
        recording: Recording = Recording(),
        statusInterval: Duration = .seconds(60),
        host configure: (inout ApplicationHost.Configuration) -> Void = { _ in }
    ) throws -> HostRunnerTests.Run {
        var environment = ["NOTIFY_SOCKET": socket.name]
        if let watchdogUSec { environment["WATCHDOG_USEC"] = "\(watchdogUSec)" }
        return try HostRunnerTests().setup(
            modules,
            recording: recording,
            host: configure,
            runner: { configuration in
                configuration.systemd = SystemdNotifier(environment: environment)
                // Long by default, so that a slow machine's held hooks add no STATUS line to exact sequences.
                configuration.statusInterval = statusInterval
            }
        )
    }

    @Test("launch, SIGHUP and SIGTERM send READY, RELOADING with MONOTONIC_USEC then READY, and STOPPING")
    func sequence() async throws {
        let socket = try NotifySocket()
        let run = try setup(socket)
        let running = Task { await run.run() }
        #expect(await socket.receive() == "STATUS=launching")
        #expect(await socket.receive() == "READY=1\nSTATUS=serving")
        run.signals.yield(.sighup)
        let reloading = try #require(await socket.receive())
        let lines = reloading.split(separator: "\n").map(String.init)
        #expect(lines.first == "RELOADING=1")
        #expect(lines.last == "STATUS=reloading on SIGHUP")
        let micros = try #require(lines.dropFirst().first.flatMap { Int64($0.dropFirst("MONOTONIC_USEC=".count)) })
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        #expect(abs(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000 - micros) < 5_000_000)
        #expect(await socket.receive() == "READY=1\nSTATUS=serving")
        run.signals.yield(.sigterm)
        #expect(await socket.receive() == "STOPPING=1\nSTATUS=terminating on SIGTERM")
        let status = await running.value
        #expect(status.code == 0)
        #expect(await socket.receive(timeout: .milliseconds(100)) == nil)
    }

    @Test("an abstract-namespace socket (@name) works; a SIGTERM during launch is STOPPING, never READY after")
    func abstractNamespace() async throws {
        let socket = try NotifySocket(abstract: true)
        let run = try setup(socket)
        run.signals.yield(.sigterm)
        _ = await run.run()
        var received: [String] = []
        while let next = await socket.receive(timeout: .milliseconds(200)) { received.append(next) }
        // The SIGTERM is handled during launch or right after it: READY=1 may come first, never after.
        #expect(received.first == "STATUS=launching")
        #expect(received.last == "STOPPING=1\nSTATUS=terminating on SIGTERM")
        #expect(received.count == 2 || received == ["STATUS=launching", "READY=1\nSTATUS=serving", received.last!])
    }

    @Test("WATCHDOG=1 at half of WATCHDOG_USEC while the host is responsive, none while a hook blocks it")
    func watchdog() async throws {
        let socket = try NotifySocket()
        let recording = Recording(holding: ["Store didEnterBackground"])
        defer { recording.release() }
        let started = ContinuousClock.now  // no ping can come before this
        let run = try setup(socket, watchdogUSec: 200_000, recording: recording)
        let running = Task { await run.run() }
        #expect(await socket.receive() == "STATUS=launching")
        #expect(await socket.receive() == "READY=1\nSTATUS=serving")
        // Responsive: a ping every 100 ms. The pings queue in the socket from READY on, however late this test
        // reads them, so the most there can be follows from the time since the runner was set up, before
        // READY; a loaded machine stretches that time and the bound with it, never the other way.
        try await Task.sleep(for: .seconds(1))
        var pings = 0
        while let ping = await socket.receive(timeout: .milliseconds(10)) {
            #expect(ping == "WATCHDOG=1")
            pings += 1
        }
        let most = Int((ContinuousClock.now - started) / .milliseconds(100)) + 1
        #expect((1...most).contains(pings), "a ping every 100 ms, at most \(most) since the setup: \(pings)")
        // A hook that blocks the host: no ping while it does, even for several intervals.
        run.signals.yield(.sigusr1)
        await recording.waitUntilHeld()
        // Pings decided before the hook took the host may still arrive, later on a loaded machine: they stop
        // within a generous 20 s (a pinger that ignored the block would ping every 100 ms and never go quiet
        // for half a second), and then stay stopped while the hook holds the host.
        let stopBy = ContinuousClock.now + .seconds(20)
        var quiet = false
        while !quiet && ContinuousClock.now < stopBy {
            quiet = await socket.receive(timeout: .milliseconds(500)) == nil
        }
        #expect(quiet, "the pings did not stop while a hook blocked the host")
        #expect(await socket.receive(timeout: .seconds(1)) == nil)
        recording.release()
        #expect(await socket.receive() == "WATCHDOG=1")
        run.signals.yield(.sigterm)
        _ = await running.value
    }

    @Test("While a launch hook runs long, STATUS names the stage and the module the host waits on")
    func statusNamesTheModule() async throws {
        let socket = try NotifySocket()
        let recording = Recording(holding: ["Store didFinishLaunching"])
        defer { recording.release() }
        let run = try setup(socket, recording: recording, statusInterval: .milliseconds(50))
        let running = Task { await run.run() }
        #expect(await socket.receive() == "STATUS=launching")
        await recording.waitUntilHeld()
        let waiting = try #require(await socket.receive())
        #expect(waiting.hasPrefix("STATUS=launching: didFinishLaunching, waiting on Store ("), "\(waiting)")
        #expect(waiting.hasSuffix(" s)"))
        recording.release()
        // Every line until READY names the same wait, with its time; then the host serves.
        var next = try #require(await socket.receive())
        while next.hasPrefix("STATUS=launching: didFinishLaunching, waiting on Store (") {
            next = try #require(await socket.receive())
        }
        #expect(next == "READY=1\nSTATUS=serving")
        run.signals.yield(.sigterm)
        #expect(await running.value.code == 0)
    }

    @Test("With warm-up after launch, READY=1 waits for it: STATUS=warming up first")
    func readyAfterBackgroundWarmUp() async throws {
        let socket = try NotifySocket()
        let recording = Recording(holding: ["SlowWarmer warmUp"])
        defer { recording.release() }
        let run = try setup(socket, [Store.self, SlowWarmer.self], recording: recording) {
            $0.didFinishLaunchingWaitsForWarmUp = false
        }
        let running = Task { await run.run() }
        #expect(await socket.receive() == "STATUS=launching")
        #expect(await socket.receive() == "STATUS=warming up")
        await recording.waitUntilHeld()
        #expect(await socket.receive(timeout: .milliseconds(200)) == nil, "not ready while it warms up")
        recording.release()
        #expect(await socket.receive() == "READY=1\nSTATUS=serving")
        run.signals.yield(.sigterm)
        #expect(await running.value.code == 0)
    }

    @Test("A socket that is not there, or a path too long for one: send throws naming the socket and the reason")
    func sendFailures() throws {
        let missing = "/nonexistent-\(getpid())/notify.sock"
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": missing]))
        #expect(notifier.notify("READY=1") == false)
        let error = try #require(throws: SystemdNotifierError.self) { try notifier.send("READY=1\nSTATUS=serving") }
        #expect(error.socket == missing)
        #expect(error.errorNumber == ENOENT)
        #expect(error.notification == "READY=1\nSTATUS=serving")
        #expect(error.description.contains("READY=1 to NOTIFY_SOCKET=\(missing) was not sent: sendto() failed: "))
        #expect(error.description.hasSuffix("or unset NOTIFY_SOCKET when nothing listens"))
        let long = try #require(
            SystemdNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 200)])
        )
        let tooLong = try #require(throws: SystemdNotifierError.self) { try long.send("READY=1") }
        #expect(tooLong.errorNumber == nil)
        #expect(tooLong.reason == "the path is 201 bytes, and a socket address holds at most 107")
    }

    @Test("A runner whose NOTIFY_SOCKET is not there reports the first failed notification once, and serves on")
    func unreachableSocketIsReportedOnce() async throws {
        let missing = "/nonexistent-\(getpid())/notify.sock"
        let environment = ["NOTIFY_SOCKET": missing, "WATCHDOG_USEC": "20000"]  // a ping every 10 ms, each failing
        let run = try HostRunnerTests().setup(runner: { $0.systemd = SystemdNotifier(environment: environment) })
        let running = Task { await run.run() }
        await run.reports.waitFor("launched")
        try await Task.sleep(for: .milliseconds(100))
        run.signals.yield(.sigterm)  // STOPPING=1: one more failure
        #expect(await running.value.code == 0)
        let failures = run.reports.lines.filter { $0.hasPrefix("the systemd notification") }
        #expect(
            failures == [
                SystemdNotifierError(
                    socket: missing,
                    notification: "STATUS=launching",
                    reason: "sendto() failed: No such file or directory",
                    errorNumber: ENOENT
                ).description
            ]
        )
        #expect(run.recording.entries.suffix(2) == ["willTerminate Server", "willTerminate Store"])
    }

    @Test("without NOTIFY_SOCKET there is no notifier; WATCHDOG_PID of another process turns the watchdog off")
    func environment() {
        #expect(SystemdNotifier(environment: [:]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]) == nil)
        #expect(
            SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "4000000"])?.watchdogInterval
                == .seconds(2)
        )
        let other = SystemdNotifier(
            environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "\(getpid() + 1)"]
        )
        #expect(other != nil && other?.watchdogInterval == nil)
    }
}

/// Warms up through the recording, so a test can hold its warm-up.
struct SlowWarmer: LifecycleModule, WarmUpStage {
    static let priority: ModulePriority = .low
    let recording: Recording
    init(context: LifecycleContext) { recording = context.launchOptions[RecordingKey.self] }
    func warmUp(_ context: LifecycleContext) async throws { try await recording.hook("SlowWarmer", "warmUp") }
}
