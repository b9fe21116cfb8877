import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import Testing

/// A module with nothing to do: the health guide's host needs one.
struct ShelfModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

@Suite("Docs/Hosting.md health examples")
struct HealthGuideTests {
    // README: health-probes-test
    @Test func probesFollowTheHost() async throws {
        let host = try ApplicationHost(manifest: ModuleManifest(name: "Shop", [ShelfModule.self]))
        let readiness = HostReadiness(host: host)
        let liveness = HostLiveness(host: host, interval: .milliseconds(100))  // tolerance: 200 ms
        #expect(await readiness.health().isReady == false)  // notRunning

        try await host.launch()
        let probe = Task { try await liveness.run() }  // a check every 100 ms, until cancelled
        #expect(await readiness.health().isReady)
        #expect(liveness.isAlive)

        readiness.beginDraining()  // at SIGTERM, before anything stops
        let health = await readiness.health()
        #expect(health.state == .active && health.isDraining && !health.isReady)

        probe.cancel()
        try await host.terminate()
    }
    // README: end
}
