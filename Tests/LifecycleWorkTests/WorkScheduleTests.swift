import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

private struct Server: WorkingModule, DidFinishLaunching, WillTerminate, WillResignActive, DidBecomeActive {
    static let priority: ModulePriority = .normal
    let context: LifecycleContext
    init(context: LifecycleContext) { self.context = context }
    var recorder: Recorder { context.launchOptions[RecorderKey.self] }

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("listener") { _, context in
            context.recorder.record("listener start")
            await context.gracefulShutdown()
            context.recorder.record("listener stop")
        }
        work.run("consumer", .whileActive) { _, context in
            context.recorder.record("consumer start")
            await context.gracefulShutdown()
            context.recorder.record("consumer stop")
        }
    }

    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        recorder.record("didFinishLaunching")
        return false
    }
    func didBecomeActive(_ context: LifecycleContext) async throws { recorder.record("didBecomeActive") }
    func willResignActive(_ context: LifecycleContext) async throws { recorder.record("willResignActive") }
    func willTerminate(_ context: LifecycleContext) async throws { recorder.record("willTerminate") }
}

@Suite("Work: where it starts and stops among the hooks")
struct WorkScheduleTests {
    @Test(
        "application work starts after didFinishLaunching; active work after didBecomeActive; both stop before the hooks that leave"
    )
    func placement() async throws {
        let (host, recorder) = try workHost([Server.self])
        try await host.launch()
        #expect(await recorder.wait { $0.contains("listener start") && $0.contains("consumer start") })
        try await host.enterBackground()
        try await host.enterForeground()
        #expect(await recorder.wait { $0.filter { $0 == "consumer start" }.count == 2 })
        try await host.terminate()
        let entries = recorder.entries
        // The hooks' order is fixed; each work's start comes after the hook that opens its state.
        let hooks = entries.filter { !$0.contains(" ") || $0.hasPrefix("did") || $0.hasPrefix("will") }
        #expect(
            hooks == ["didFinishLaunching", "didBecomeActive", "willResignActive", "didBecomeActive", "willTerminate"]
        )
        func position(_ line: String, occurrence: Int = 0) -> Int {
            entries.indices.filter { entries[$0] == line }[occurrence]
        }
        #expect(position("listener start") > position("didFinishLaunching"))
        #expect(position("consumer start") > position("didBecomeActive"))
        #expect(position("consumer stop") < position("willResignActive"))
        #expect(position("consumer start", occurrence: 1) > position("didBecomeActive", occurrence: 1))
        #expect(position("consumer stop", occurrence: 1) < position("willTerminate"))
        #expect(position("listener stop") < position("willTerminate"))
        // Reverse order at termination: the later-declared consumer stops before the listener.
        #expect(position("consumer stop", occurrence: 1) < position("listener stop"))
        #expect(host.workStatus.map(\.phase) == [.stopped, .stopped])
    }
}

private struct BrokenListener: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    struct BindFailed: Error {}

    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(restart: .temporary, escalation: .ignore)
        work.run("listen", policy: policy, reportsReadiness: true) { _, _ in throw BindFailed() }
    }
}

@Suite("Work: readiness of work that gave up")
struct WorkGaveUpReadinessTests {
    @Test("A work that gave up before it reported keeps the host unready until its module leaves")
    func gaveUpHoldsReadiness() async throws {
        let (host, _) = try workHost([BrokenListener.self])
        try await host.launch()
        #expect(await host.workStatusEventually { $0.first?.phase == .gaveUp })
        let health = await host.health()
        #expect(!health.isReady)
        #expect(health.notReady == [BrokenListener.moduleName])
        try await host.remove(BrokenListener.self)
        #expect((await host.health()).isReady)
        try await host.terminate()
    }
}

extension ApplicationHost {
    /// Waits, yielding a bounded number of times (no clock), until `condition` holds of ``workStatus``.
    nonisolated func workStatusEventually(_ condition: ([WorkStatus]) -> Bool) async -> Bool {
        for _ in 0..<100_000 {
            if condition(workStatus) { return true }
            await Task.yield()
        }
        return condition(workStatus)
    }
}
