import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import Testing

/// A module registered after launch, whose catch-up `didFinishLaunching` the tests can hold.
struct LateJoiner: RecordsRunnerEvents {
    static let priority: ModulePriority = .low
    let recording: Recording
    init(context: LifecycleContext) { recording = context.launchOptions[RecordingKey.self] }
}

@Suite("Host health and HostReadiness, on a real host", .timeLimit(.minutes(1)))
struct HostReadinessTests {
    func makeHost(
        recording: Recording = Recording(),
        hookBudget: Duration? = .seconds(30)
    ) throws -> ApplicationHost {
        var options = LaunchOptions()
        options[RecordingKey.self] = recording
        return try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [Store.self, Server.self]),
            launchOptions: options,
            configuration: ApplicationHost.Configuration(hookBudget: hookBudget, onUnobservedError: { _ in })
        )
    }

    @Test("Not ready before launch, ready once active, not ready in the background, ready again in front")
    func readinessThroughTheLifecycle() async throws {
        let host = try makeHost()
        let before = await host.health()
        #expect(before.state == .notRunning)
        #expect(!before.isReady)
        #expect(before.notReady == ["LifecycleHostingTests.Store", "LifecycleHostingTests.Server"])

        try await host.launch()
        let active = await host.health()
        #expect(active == HostHealth(state: .active))
        #expect(active.isReady)

        try await host.enterBackground()
        let background = await host.health()
        #expect(background.state == .background && !background.isReady)
        #expect(background.notReady.isEmpty, "every module launched: the state alone holds it back")

        try await host.enterForeground()
        #expect(await host.health().isReady)
        try await host.terminate()
        let terminated = await host.health()
        #expect(terminated.state == .terminated && !terminated.isReady)
    }

    @Test("Not ready while launching; health() answers while a hook holds the host")
    func notReadyWhileLaunching() async throws {
        let recording = Recording(holding: ["Store didFinishLaunching"])
        defer { recording.release() }
        let host = try makeHost(recording: recording)
        let launch = Task { try await host.launch() }
        await recording.waitUntilHeld()

        let launching = await host.health()
        #expect(launching.state == .launching)
        #expect(!launching.isReady)
        #expect(launching.reason == "launching")

        recording.release()
        _ = try await launch.value
        #expect(await host.health().isReady)
        try await host.terminate()
    }

    @Test("A module registered late is not ready until its catch-up is over")
    func aLateModuleIsPendingUntilCaughtUp() async throws {
        let recording = Recording(holding: ["LateJoiner didFinishLaunching"])
        defer { recording.release() }
        let host = try makeHost(recording: recording)
        try await host.launch()
        let register = Task { try await host.register(LateJoiner.self) }
        await recording.waitUntilHeld()

        let pending = await host.health()
        #expect(pending.state == .active)
        #expect(pending.notReady == ["LifecycleHostingTests.LateJoiner"])
        #expect(!pending.isReady)
        #expect(pending.reason == "waiting for LifecycleHostingTests.LateJoiner")

        recording.release()
        _ = try await register.value
        let joined = await host.health()
        #expect(joined.notReady.isEmpty && joined.isReady)
        try await host.terminate()
    }

    @Test("A module whose hook ran past its budget is listed as degraded; the host stays ready")
    func degradedModulesAreListed() async throws {
        let recording = Recording(holding: ["Server didFinishLaunching"])
        defer { recording.release() }
        let host = try makeHost(recording: recording, hookBudget: .milliseconds(50))
        _ = try? await host.launch()  // the abandoned hook is reported as a failure of launch

        let health = await host.health()
        #expect(health.state == .active)
        #expect(health.degraded == ["LifecycleHostingTests.Server"])
        #expect(health.isReady)
        recording.release()
        _ = try? await host.terminate()
    }

    @Test("Draining: not ready from beginDraining() on, while the host is still active")
    func drainingIsNotReady() async throws {
        let host = try makeHost()
        let readiness = HostReadiness(host: host)
        try await host.launch()
        #expect(!readiness.isDraining)
        #expect(await readiness.health().isReady)

        readiness.beginDraining()
        let draining = await readiness.health()
        #expect(readiness.isDraining)
        #expect(draining.state == .active)
        #expect(draining.isDraining && !draining.isReady)
        #expect(draining.reason == "draining before termination")
        #expect(!(await host.health().isDraining), "the host's own snapshot knows nothing of the supervisor's plan")

        try await host.terminate()
        #expect(await readiness.health() == HostHealth(state: .terminated, isDraining: true))
    }
}
