import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import Synchronization
import Testing

@Suite("HostLiveness: the probe the watchdog and a liveness endpoint share", .timeLimit(.minutes(1)))
struct HostLivenessTests {
    /// A launched host of `Store` and `Server`, recording into `recording`.
    func launchedHost(_ recording: Recording) async throws -> ApplicationHost {
        var options = LaunchOptions()
        options[RecordingKey.self] = recording
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [Store.self, Server.self]),
            launchOptions: options,
            configuration: ApplicationHost.Configuration(onUnobservedError: { _ in })
        )
        try await host.launch()
        return host
    }

    /// Polls every 5 ms until `condition` holds; `false` after `timeout`.
    func eventually(_ timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            do { try await Task.sleep(for: .milliseconds(5)) } catch { return condition() }
        }
        return true
    }

    @Test("The tolerance is twice the interval unless given")
    func defaults() async throws {
        let host = try await launchedHost(Recording())
        #expect(HostLiveness(host: host, interval: .milliseconds(300)).tolerance == .milliseconds(600))
        #expect(HostLiveness(host: host, interval: .seconds(1), tolerance: .seconds(5)).tolerance == .seconds(5))
        let idle = HostLiveness(host: host, interval: .milliseconds(1))
        try await Task.sleep(for: .milliseconds(20))
        #expect(idle.isAlive && idle.sinceResponsive == nil, "alive until it runs: launch is not its business")
        try await host.terminate()
    }

    @Test("Alive while the host is responsive: it is seen once per interval")
    func aliveWhileResponsive() async throws {
        let host = try await launchedHost(Recording())
        let liveness = HostLiveness(host: host, interval: .milliseconds(50))
        let checks = Mutex(0)
        let probe = Task { try await liveness.run { checks.withLock { $0 += 1 } } }
        defer { probe.cancel() }

        #expect(await eventually { checks.withLock { $0 } >= 3 })
        #expect(liveness.isAlive)
        #expect(try #require(liveness.sinceResponsive) < .seconds(1))
        // Not faster than the interval: at most one check per 50 ms since the start.
        let started = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(300))
        let counted = checks.withLock { $0 }
        #expect(counted <= 3 + Int((ContinuousClock.now - started) / .milliseconds(50)) + 1)
        try await host.terminate()
        // A terminated host is idle, so still alive: liveness is about the process, not traffic.
        let after = checks.withLock { $0 }
        #expect(await eventually { checks.withLock { $0 } > after })
        #expect(liveness.isAlive)
    }

    @Test("Not alive once a hook has held the host past the tolerance; alive again after it returns")
    func notAliveWhileAHookBlocks() async throws {
        let recording = Recording(holding: ["Store didEnterBackground"])
        defer { recording.release() }
        let host = try await launchedHost(recording)
        let liveness = HostLiveness(host: host, interval: .milliseconds(50))
        let checks = Mutex(0)
        let probe = Task { try await liveness.run { checks.withLock { $0 += 1 } } }
        defer { probe.cancel() }
        #expect(await eventually { checks.withLock { $0 } >= 1 })

        let background = Task { try await host.enterBackground() }
        await recording.waitUntilHeld()
        #expect(await eventually { !liveness.isAlive }, "the host unseen for more than 100 ms")
        let whileHeld = checks.withLock { $0 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(checks.withLock { $0 } == whileHeld, "no check completes while the hook holds the host")
        #expect(try #require(liveness.sinceResponsive) > liveness.tolerance)

        recording.release()
        try await background.value
        #expect(await eventually { liveness.isAlive && checks.withLock { $0 } > whileHeld })
        try await host.terminate()
    }

    @Test("Cancelled while the host is stuck, run() returns at once and reports nothing more")
    func cancellationReturnsWhileStuck() async throws {
        let recording = Recording(holding: ["Store didEnterBackground"])
        defer { recording.release() }
        let host = try await launchedHost(recording)
        let background = Task { try await host.enterBackground() }
        await recording.waitUntilHeld()

        let liveness = HostLiveness(host: host, interval: .milliseconds(20))
        let checks = Mutex(0)
        let probe = Task { try await liveness.run { checks.withLock { $0 += 1 } } }
        try await Task.sleep(for: .milliseconds(100))  // several intervals: the probe waits for the host
        let cancelled = ContinuousClock.now
        probe.cancel()
        try await probe.value
        #expect(ContinuousClock.now - cancelled < .seconds(2), "it did not wait for the host")

        recording.release()
        try await background.value
        try await Task.sleep(for: .milliseconds(100))
        #expect(checks.withLock { $0 } == 0, "never called: the host was stuck until after cancellation")
        try await host.terminate()
    }
}
