import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// Work that reports readiness holds the host's readiness (waitUntilReady, health) until it reports, again
// after each restart, and not once its module is gone.

/// Reports ready when the gate `ready <attempt>` opens; throws when `fail <attempt>` opens.
struct Listener: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(restart: .permanent, backoff: .none)
        work.run("listener", policy: policy, reportsReadiness: true) { _, context in
            let recorder = context.recorder
            let attempt = context.attempt
            recorder.record("listener start \(attempt)")
            guard await context.pass("ready \(attempt)") else {
                recorder.record("listener stop")
                return
            }
            context.reportReady()
            context.reportReady()  // harmless
            recorder.record("listener ready \(attempt)")
            if await context.pass("fail \(attempt)") {
                recorder.record("listener threw \(attempt)")
                throw WorkFailure(label: "listener")
            }
            recorder.record("listener stop")
        }
    }
}

/// Registered late, removed before it reports ready.
struct LateListener: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("late", reportsReadiness: true) { _, context in
            context.recorder.record("late start")
            guard await context.pass("late ready") else {
                context.recorder.record("late stop")
                return
            }
            context.reportReady()
            await context.gracefulShutdown()
        }
    }
}

@Suite("Work: readiness")
struct WorkReadinessTests {
    @Test("A work that reports readiness holds waitUntilReady and health until it reports; again after a restart")
    func readinessAndRestart() async throws {
        let rig = try workRig([Listener.self, Bystander.self])
        let host = rig.host
        try await host.launch()
        #expect(await rig.recorder.wait { $0.contains("listener start 1") && $0.contains("serve start") })
        let waiting = Task { try await host.waitUntilReady() }
        #expect(!(await hasFinished(waiting)), "not ready before the work reports")
        #expect(!(await host.health().isReady))
        #expect(await host.health().notReady == [Listener.moduleName])
        #expect(rig.status(Listener.self, "listener")?.phase == .running)

        rig.gates.open("ready 1")
        try await waiting.value
        #expect(await host.health().isReady)
        #expect(rig.status(Listener.self, "listener")?.phase == .ready)

        // It fails and is restarted: not ready until it reports again.
        rig.gates.open("fail 1")
        #expect(await rig.wait(Listener.self, "listener") { $0.attempts == 2 })
        #expect(!(await host.health().isReady))
        #expect(rig.status(Listener.self, "listener")?.phase == .running)
        let again = Task { try await host.waitUntilReady() }
        #expect(!(await hasFinished(again)))
        rig.gates.open("ready 2")
        try await again.value
        #expect(await host.health().isReady)
        #expect(rig.status(Listener.self, "listener")?.phase == .ready)
        try await host.terminate()
        #expect(
            rig.recorder.entries.filter { $0.hasPrefix("listener") } == [
                "listener start 1", "listener ready 1", "listener threw 1", "listener start 2", "listener ready 2",
                "listener stop",
            ]
        )
    }

    @Test("A removed module's pending readiness does not hold the host")
    func removedModuleDoesNotBlock() async throws {
        let rig = try workRig([Bystander.self])
        let host = rig.host
        try await host.launch()
        try await host.waitUntilReady()
        try await host.register(LateListener.self)
        #expect(await rig.recorder.wait(for: "late start"))
        #expect(!(await host.health().isReady), "its work has not reported")
        let waiting = Task { try await host.waitUntilReady() }
        #expect(!(await hasFinished(waiting)))
        try await host.remove(LateListener.self)
        try await waiting.value
        #expect(await host.health().isReady)
        #expect(rig.recorder.contains("late stop"))
        try await host.terminate()
    }

    @Test("Active work that reports readiness holds readiness only while it runs: released while inactive")
    func activeWorkReadiness() async throws {
        let rig = try workRig([ActiveListener.self])
        let host = rig.host
        try await host.launch()
        #expect(await rig.recorder.wait(for: "active start"))
        #expect(!(await host.health().isReady))
        // Stopped unready by its schedule (inactive, the host still serves): it holds nothing any more.
        try await host.resignActive()
        #expect(rig.recorder.contains("active stop"))
        #expect(await host.health().isReady)
        try await host.waitUntilReady()
        // Active again, a new run: unready until it reports.
        try await host.becomeActive()
        #expect(await rig.recorder.wait(for: "active start", times: 2))
        #expect(!(await host.health().isReady))
        rig.gates.open("active ready")
        try await host.waitUntilReady()
        #expect(await host.health().isReady)
        #expect(rig.status(ActiveListener.self, "active")?.phase == .ready)
        try await host.terminate()
    }
}

/// Active work that reports ready when the gate `active ready` opens.
struct ActiveListener: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("active", .whileActive, reportsReadiness: true) { _, context in
            context.recorder.record("active start")
            if await context.pass("active ready") {
                context.reportReady()
                await context.gracefulShutdown()
            }
            context.recorder.record("active stop")
        }
    }
}
