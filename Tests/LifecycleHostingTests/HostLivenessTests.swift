import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import LifecycleTesting
import Testing

/// The probe runs on the host's clock: a `VirtualClock` here, so every interval is one `advance` and no
/// test depends on how fast the machine is.
@Suite("HostLiveness: the probe the watchdog and a liveness endpoint share", .timeLimit(.minutes(1)))
struct HostLivenessTests {
    /// A launched host of `Store` and `Server` on `clock`, recording into `recording`.
    func launchedHost(_ recording: Recording, clock: VirtualClock) async throws -> ApplicationHost {
        var options = LaunchOptions()
        options[RecordingKey.self] = recording
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [Store.self, Server.self]),
            launchOptions: options,
            configuration: ApplicationHost.Configuration(
                clock: clock,
                hookBudget: nil,
                terminateDeadline: nil,
                onUnobservedError: { _ in }
            )
        )
        try await host.launch()
        return host
    }

    /// Moves `clock` one interval on, once the probe sleeps, and waits until the check it starts has
    /// completed: `checks` reached `count`.
    func nextInterval(
        _ clock: VirtualClock,
        _ interval: Duration,
        _ checks: borrowing Locked<Int>,
        reaching count: Int
    ) async {
        await clock.waitForSleepers(1)
        clock.advance(by: interval)
        while checks.withLock({ $0 }) < count { await Task.yield() }
    }

    @Test("The tolerance is twice the interval unless given")
    func defaults() async throws {
        let clock = VirtualClock()
        let host = try await launchedHost(Recording(), clock: clock)
        #expect(HostLiveness(host: host, interval: .milliseconds(300)).tolerance == .milliseconds(600))
        #expect(HostLiveness(host: host, interval: .seconds(1), tolerance: .seconds(5)).tolerance == .seconds(5))
        let idle = HostLiveness(host: host, interval: .milliseconds(1))
        clock.advance(by: .seconds(20))
        #expect(idle.isAlive && idle.sinceResponsive == nil, "alive until it runs: launch is not its business")
        try await host.terminate()
    }

    @Test("Alive while the host is responsive: it is seen once per interval, never faster")
    func aliveWhileResponsive() async throws {
        let clock = VirtualClock()
        let host = try await launchedHost(Recording(), clock: clock)
        let liveness = HostLiveness(host: host, interval: .milliseconds(50))
        let checks = Locked(0)
        let probe = Task { try await liveness.run { checks.withLock { $0 += 1 } } }
        defer { probe.cancel() }

        for count in 1...3 {
            await nextInterval(clock, .milliseconds(50), checks, reaching: count)
            #expect(liveness.isAlive)
            #expect(liveness.sinceResponsive == .zero, "seen at the check just completed")
        }
        // Within an interval, no check: 49 ms on, still three, and seen 49 ms ago.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(49))
        #expect(!(await hasFinished(probe)))
        #expect(checks.withLock { $0 } == 3)
        #expect(liveness.sinceResponsive == .milliseconds(49))
        clock.advance(by: .milliseconds(1))
        while checks.withLock({ $0 }) < 4 { await Task.yield() }
        try await host.terminate()
        // A terminated host is idle, so still alive: liveness is about the process, not traffic.
        await nextInterval(clock, .milliseconds(50), checks, reaching: 5)
        #expect(liveness.isAlive)
    }

    @Test("Not alive once a hook has held the host past the tolerance; alive again after it returns")
    func notAliveWhileAHookBlocks() async throws {
        let clock = VirtualClock()
        let recording = Recording(holding: ["Store didEnterBackground"])
        defer { recording.release() }
        let host = try await launchedHost(recording, clock: clock)
        let liveness = HostLiveness(host: host, interval: .milliseconds(50))
        let checks = Locked(0)
        let probe = Task { try await liveness.run { checks.withLock { $0 += 1 } } }
        defer { probe.cancel() }
        await nextInterval(clock, .milliseconds(50), checks, reaching: 1)

        let background = Task { try await host.enterBackground() }
        await recording.waitUntilHeld()
        // The next check waits for the host, so the probe no longer sleeps: time goes on without it.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        #expect(liveness.isAlive, "unseen for exactly the tolerance, 100 ms: still alive")
        clock.advance(by: .milliseconds(1))
        #expect(!liveness.isAlive, "unseen for more than 100 ms")
        #expect(checks.withLock { $0 } == 1, "no check completes while the hook holds the host")
        #expect(liveness.sinceResponsive == .milliseconds(101))

        recording.release()
        try await background.value
        while checks.withLock({ $0 }) < 2 { await Task.yield() }
        #expect(liveness.isAlive)
        try await host.terminate()
    }

    @Test("Cancelled while the host is stuck, run() returns at once and reports nothing more")
    func cancellationReturnsWhileStuck() async throws {
        let clock = VirtualClock()
        let recording = Recording(holding: ["Store didEnterBackground"])
        defer { recording.release() }
        let host = try await launchedHost(recording, clock: clock)
        let background = Task { try await host.enterBackground() }
        await recording.waitUntilHeld()

        let liveness = HostLiveness(host: host, interval: .milliseconds(20))
        let checks = Locked(0)
        let probe = Task { try await liveness.run { checks.withLock { $0 += 1 } } }
        // One interval: the probe now waits for the host, which is held.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(20))
        #expect(!(await hasFinished(probe)), "it waits for the host")
        probe.cancel()
        try await probe.value  // returns without waiting for the host

        recording.release()
        try await background.value
        try await host.waitUntilIdle()
        #expect(checks.withLock { $0 } == 0, "never called: the host was stuck until after cancellation")
        try await host.terminate()
    }
}
