import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// Modules that join or leave: registration while running, in the background, while shutting down and
// while cancelling; removal, reloads and the work they stop and start.

/// Application work and active work, and hooks that show where catch-up and teardown are.
struct Joiner: WorkingModule, DidFinishLaunching, DidBecomeActive, WillResignActive, DidEnterBackground,
    WillTerminate
{
    static let priority: ModulePriority = .normal
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.launchOptions[RecorderKey.self] }
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("app") { _, context in
            context.recorder.record("joiner app start")
            await context.gracefulShutdown()
            context.recorder.record("joiner app stop")
        }
        work.run("active", .whileActive) { _, context in
            context.recorder.record("joiner active start")
            await context.gracefulShutdown()
            context.recorder.record("joiner active stop")
        }
    }
    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        recorder.record("joiner didFinishLaunching")
        return false
    }
    func didBecomeActive(_ context: LifecycleContext) async throws { recorder.record("joiner didBecomeActive") }
    func willResignActive(_ context: LifecycleContext) async throws { recorder.record("joiner willResignActive") }
    func didEnterBackground(_ context: LifecycleContext) async throws {
        recorder.record("joiner didEnterBackground")
    }
    func willTerminate(_ context: LifecycleContext) async throws { recorder.record("joiner willTerminate") }
}

/// Posts the registration of `Joiner` from its willTerminate hook.
struct TerminatePoster: LifecycleModule, WillTerminate {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func willTerminate(_ context: LifecycleContext) async throws { context.events.post(.register(Joiner.self)) }
}

/// Posts the registration of `Joiner` from its work, once asked to stop.
struct StopPoster: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("poster") { _, context in
            context.recorder.record("poster start")
            await context.gracefulShutdown()
            context.lifecycle.events.post(.register(Joiner.self))
            context.recorder.record("poster stop")
        }
    }
}

/// A module that is a class: its deinitialization shows that nothing keeps it once it is gone.
final class Departing: WorkingModule {
    static let priority: ModulePriority = .normal
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.launchOptions[RecorderKey.self] }
    deinit { recorder.record("departing deinit") }
    static func declareWork(_ work: inout WorkList<Departing>) {
        work.run("work") { module, context in
            context.recorder.record("departing start")
            await context.gracefulShutdown()
            context.recorder.record("departing stop")
        }
    }
}

@Suite("Work: modules that join and leave")
struct WorkMembershipTests {
    /// No line of `Joiner`'s work.
    func noJoinerWork(_ rig: WorkRig) -> Bool {
        !rig.recorder.entries.contains { $0.hasPrefix("joiner app") || $0.hasPrefix("joiner active") }
    }

    @Test("Registered while active: its work starts once its catch-up is over")
    func registerWhileActive() async throws {
        let rig = try workRig([Bystander.self])
        try await rig.host.launch()
        try await rig.host.register(Joiner.self)
        #expect(await rig.recorder.wait { $0.contains("joiner app start") && $0.contains("joiner active start") })
        let recorder = rig.recorder
        #expect(recorder.position("joiner app start")! > recorder.position("joiner didFinishLaunching")!)
        #expect(recorder.position("joiner active start")! > recorder.position("joiner didBecomeActive")!)
        #expect(rig.status(Joiner.self, "app")?.phase == .ready)
        #expect(rig.status(Joiner.self, "active")?.phase == .ready)
        try await rig.host.terminate()
        #expect(recorder.position("joiner active stop")! < recorder.position("joiner app stop")!)
        #expect(recorder.position("joiner app stop")! < recorder.position("joiner willTerminate")!)
    }

    @Test("Registered in the background: application work starts, active work waits for the foreground")
    func registerInBackground() async throws {
        let rig = try workRig([Bystander.self])
        try await rig.host.launch()
        try await rig.host.enterBackground()
        try await rig.host.register(Joiner.self)
        #expect(await rig.recorder.wait(for: "joiner app start"))
        #expect(await stillHolds { !rig.recorder.contains("joiner active start") })
        #expect(rig.status(Joiner.self, "active")?.phase == .notStarted)
        #expect(!rig.recorder.contains("joiner didBecomeActive"))
        try await rig.host.enterForeground()
        #expect(await rig.recorder.wait(for: "joiner active start"))
        #expect(rig.recorder.position("joiner active start")! > rig.recorder.position("joiner didBecomeActive")!)
        try await rig.host.terminate()
        #expect(rig.recorder.count("joiner app start") == 1)
    }

    @Test("Registration posted from a willTerminate hook is refused; its work never starts")
    func registerFromWillTerminate() async throws {
        let rig = try workRig([TerminatePoster.self, Bystander.self])
        try await rig.host.launch()
        try await rig.host.terminate()
        #expect(await eventually { rig.unobserved.all.contains { $0.code == .invalidTransition } })
        #expect(await stillHolds { noJoinerWork(rig) })
        #expect(rig.status(Joiner.self, "app") == nil)
        #expect(rig.host.workStatus.allSatisfy { $0.phase != .ready && $0.phase != .running })
    }

    @Test("Registration posted by a work as it stops is refused; its work never starts")
    func registerFromStoppingWork() async throws {
        let rig = try workRig([StopPoster.self])
        try await rig.host.launch()
        #expect(await rig.recorder.wait(for: "poster start"))
        try await rig.host.terminate()
        #expect(rig.recorder.contains("poster stop"))
        #expect(await eventually { rig.unobserved.all.contains { $0.code == .invalidTransition } })
        #expect(await stillHolds { noJoinerWork(rig) })
        #expect(rig.host.workStatus.map(\.phase) == [.stopped])
    }

    @Test("Registration requested while work stops gracefully waits its turn and is refused")
    func registerWhileShuttingDown() async throws {
        let rig = try workRig([OrderC.self])
        try await rig.host.launch()
        #expect(await rig.recorder.wait { $0.contains("c1 start") && $0.contains("c2 start") })
        let terminating = Task { try await rig.host.terminate() }
        #expect(await rig.recorder.wait(for: "c2 asked"))
        let registering = Task { try await rig.host.register(Joiner.self) }
        #expect(!(await hasFinished(registering)), "queued behind termination")
        rig.gates.open("c2 stop")
        rig.gates.open("c1 stop")
        try await terminating.value
        let error = await #expect(throws: LifecycleError.self) { try await registering.value }
        #expect(error?.code == .invalidTransition)
        #expect(await stillHolds { noJoinerWork(rig) })
        #expect(!rig.recorder.contains("joiner didFinishLaunching"))
    }

    @Test("Registration requested while work is being cancelled is refused; nothing new runs")
    func registerWhileCancelling() async throws {
        let rig = try workRig([Stuck.self])
        defer { rig.gates.open("stuck release") }
        try await rig.host.launch()
        #expect(await rig.recorder.wait(for: "stuck start"))
        let terminating = Task { try await rig.host.terminate() }
        #expect(await rig.wait(Stuck.self, "stuck") { $0.phase == .stopping })
        #expect(await settled(rig, armed: 1))
        rig.clock.advance(by: .seconds(1))
        #expect(await settled(rig, armed: 1))  // cancelled; the cancellation grace runs
        let registering = Task { try await rig.host.register(Joiner.self) }
        #expect(!(await hasFinished(registering)))
        rig.clock.advance(by: .seconds(2))
        await #expect(throws: LifecycleError.self) { try await terminating.value }
        let error = await #expect(throws: LifecycleError.self) { try await registering.value }
        #expect(error?.code == .invalidTransition)
        #expect(await stillHolds { noJoinerWork(rig) })
        rig.gates.open("stuck release")
        #expect(await rig.recorder.wait(for: "stuck released"))
    }

    @Test("remove(_:) stops the module's work before its teardown hooks; the others' work runs on")
    func removeStopsWorkFirst() async throws {
        let rig = try workRig([Joiner.self, Bystander.self])
        try await rig.host.launch()
        #expect(await rig.recorder.wait { $0.contains("joiner active start") && $0.contains("serve start") })
        let recorder = rig.recorder
        let before = recorder.entries.count
        try await rig.host.remove(Joiner.self)
        // Reverse declaration order, then the teardown.
        #expect(
            Array(recorder.entries.dropFirst(before)) == [
                "joiner active stop", "joiner app stop", "joiner willResignActive", "joiner didEnterBackground",
                "joiner willTerminate",
            ]
        )
        #expect(rig.status(Joiner.self, "app") == nil)
        #expect(rig.status(Bystander.self, "serve")?.phase == .ready)
        #expect(!recorder.contains("serve stop"))
        try await rig.host.terminate()
    }

    @Test("reloadModules: switched off stops the module's work; switched on starts it anew")
    func reloadSwitchesWork() async throws {
        let rig = try workRig([Joiner.self, Bystander.self])
        try await rig.host.launch()
        #expect(await rig.recorder.wait { $0.contains("joiner active start") && $0.contains("joiner app start") })
        let off = ModuleSwitches(switches: [Joiner.moduleName: .init(isOn: false, source: "test")])
        try await rig.host.reloadModules(off)
        #expect(rig.recorder.contains("joiner app stop") && rig.recorder.contains("joiner active stop"))
        #expect(rig.recorder.position("joiner app stop")! < rig.recorder.position("joiner willResignActive")!)
        #expect(rig.status(Joiner.self, "app") == nil)
        let on = ModuleSwitches(switches: [Joiner.moduleName: .init(isOn: true, source: "test")])
        try await rig.host.reloadModules(on)
        #expect(await rig.recorder.wait { $0.filter { $0.hasSuffix("start") && $0.hasPrefix("joiner") }.count == 4 })
        #expect(rig.status(Joiner.self, "app")?.phase == .ready)
        #expect(rig.status(Joiner.self, "app")?.attempts == 1)
        #expect(rig.status(Bystander.self, "serve")?.attempts == 1)
        #expect(rig.recorder.count("serve start") == 1)
        try await rig.host.terminate()
    }

    @Test("A module registered and removed again and again is let go each time: its last run does not keep it")
    func removedModuleReleased() async throws {
        let rig = try workRig([Bystander.self])
        try await rig.host.launch()
        for round in 1...3 {
            try await rig.host.register(Departing.self)
            #expect(await rig.recorder.wait(for: "departing start", times: round))
            try await rig.host.remove(Departing.self)
            #expect(await rig.recorder.wait(for: "departing deinit", times: round), "round \(round)")
        }
        try await rig.host.terminate()
    }

    @Test("A listed module removed is let go, though the work started with it runs on")
    func removedListedModuleReleased() async throws {
        // Its work starts in one batch with Bystander's, which runs on.
        let rig = try workRig([Departing.self, Bystander.self])
        try await rig.host.launch()
        #expect(await rig.recorder.wait { $0.contains("departing start") && $0.contains("serve start") })
        try await rig.host.remove(Departing.self)
        #expect(await rig.recorder.wait(for: "departing deinit"))
        #expect(rig.status(Bystander.self, "serve")?.phase == .ready)
        try await rig.host.terminate()
    }
}
