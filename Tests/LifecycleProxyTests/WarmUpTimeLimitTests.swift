import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Warm-up hooks run concurrently, each under its own budget, watched by one watchdog for the stage.
@Suite("Warm-up time limits", .timeLimit(.minutes(1)))
struct WarmUpTimeLimitTests {
    func host(
        _ modules: [any LifecycleModule.Type],
        _ log: StageLog,
        _ clock: VirtualClock,
        configure: (inout ApplicationHost.Configuration) -> Void = { _ in }
    ) throws -> ApplicationHost {
        var options = LaunchOptions()
        options[StageLogKey.self] = log
        var configuration = ApplicationHost.Configuration(clock: clock, hookBudget: .seconds(10))
        configure(&configuration)
        return try ApplicationHost(
            manifest: ModuleManifest(name: "WarmUpTimeLimits", modules),
            launchOptions: options,
            configuration: configuration
        )
    }

    /// Lets the tasks the host just woke run, so a check that something did NOT happen means something.
    func settle() async {
        for _ in 0..<200 { await Task.yield() }
    }

    @Test("Under .degrade each warm-up times out at its own deadline, even one that starts later but is due first")
    func degradeAtEachDeadline() async throws {
        let log = StageLog()
        let clock = VirtualClock()
        for name in ["TimedQuick", "TimedAfterShort"] { log.latch(name).open() }
        let host = try host([TimedLong.self, TimedQuick.self, TimedShort.self, TimedAfterShort.self], log, clock)
        let launch = Task { try await host.launch() }
        // Long (due at 10 s) and Short (own budget 2 s, started after Quick finished, due at 2 s) are held.
        await log.latch("TimedLong").waitUntilEntered()
        await log.latch("TimedShort").waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        // Short is abandoned at 3 s; its dependent starts, as after any finished warm-up.
        await log.latch("TimedAfterShort").waitUntilEntered()
        #expect(await host.degradedModules.map(\.name) == [TimedShort.moduleName])
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(8))

        let error = await #expect(throws: LifecycleError.self) { try await launch.value }
        log.latch("TimedLong").open()
        log.latch("TimedShort").open()
        #expect(error?.code == .hookFailed)
        let timeouts = error?.failures.compactMap { $0.error as? HookTimeout } ?? []
        // In delivery order: Long is first in the plan.
        #expect(timeouts.map(\.participant) == [TimedLong.moduleName, TimedShort.moduleName])
        #expect(timeouts.map(\.budget) == [.seconds(10), .seconds(2)])
        #expect(timeouts.map(\.elapsed) == [.seconds(11), .seconds(3)])
        #expect(await host.degradedModules.map(\.name) == [TimedShort.moduleName, TimedLong.moduleName])
        #expect(host.state == .active)
        // The journal records both timeouts, and the dependent's warm-up after Short's.
        let warmUps = try #require(host.journal).entries.filter { $0.event == "warmUp" }
        let shortRecord = try #require(warmUps.firstIndex { $0.participant == TimedShort.moduleName })
        let afterRecord = try #require(warmUps.firstIndex { $0.participant == TimedAfterShort.moduleName })
        #expect(shortRecord < afterRecord)
        #expect(warmUps[shortRecord].error?.contains("exceeded its 2.0 seconds budget") == true)
        #expect(warmUps.filter { $0.error != nil }.map(\.participant).sorted() == timeouts.map(\.participant).sorted())
    }

    @Test("One watchdog watches every warm-up in flight")
    func oneWatchdog() async throws {
        let log = StageLog()
        let clock = VirtualClock()
        let host = try host([TimedLong.self, TimedQuick.self, TimedShort.self], log, clock)
        let launch = Task { try await host.launch() }
        log.latch("TimedQuick").open()
        for name in ["TimedLong", "TimedShort"] { await log.latch(name).waitUntilEntered() }
        await clock.waitForSleepers(1)
        await settle()
        #expect(clock.sleeperCount == 1, "one sleeper for the stage, not one per hook")
        for name in ["TimedLong", "TimedShort"] { log.latch(name).open() }
        _ = try await launch.value
        #expect(await host.degradedModules.isEmpty)
    }

    @Test("Under .fail a warm-up timeout stops the stage: nothing more starts, hooks in flight are cancelled")
    func failStopsTheStage() async throws {
        let log = StageLog()
        let clock = VirtualClock()
        let host = try host([TimedHanger.self, TimedAfterHanger.self, TimedPatient.self], log, clock) {
            $0.hookBudget = .seconds(1)
            $0.timeoutPolicy = .fail
        }
        log.latch("TimedAfterHanger").open()
        let launch = Task { try await host.launch() }
        await log.latch("TimedHanger").waitUntilEntered()
        await log.latch("TimedPatient").waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))  // past the Hanger's 1 s, within the Patient's own 10 s

        let error = await #expect(throws: LifecycleError.self) { try await launch.value }
        #expect(error?.code == .launchAborted)
        let timeout = try #require(error?.failures.first?.error as? HookTimeout)
        #expect(timeout.participant == TimedHanger.moduleName)
        #expect(timeout.elapsed == .seconds(2))
        #expect(error?.failures.count == 1)
        #expect(host.state == .terminated)
        log.latch("TimedHanger").open()
        log.latch("TimedPatient").open()
        await settle()
        #expect(!log.entries.contains("warmUp start TimedAfterHanger"))
        #expect(log.entries.contains("warmUp cancelled TimedPatient"), "\(log.entries)")
        #expect(!log.entries.contains { $0.hasPrefix("didFinishLaunching") })
    }

    @Test("A warm-up timeout of an aborting module stops the stage under .degrade too")
    func aborterTimeoutStopsTheStage() async throws {
        let log = StageLog()
        let clock = VirtualClock()
        let host = try host([TimedAbortingHanger.self, TimedAfterAbortingHanger.self, TimedPatient.self], log, clock) {
            $0.hookBudget = .seconds(1)
        }
        log.latch("TimedAfterAbortingHanger").open()
        let launch = Task { try await host.launch() }
        await log.latch("TimedAbortingHanger").waitUntilEntered()
        await log.latch("TimedPatient").waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))

        let error = await #expect(throws: LifecycleError.self) { try await launch.value }
        #expect(error?.code == .launchAborted)
        #expect((error?.failures.first?.error as? HookTimeout)?.participant == TimedAbortingHanger.moduleName)
        #expect(await host.degradedModules.map(\.name) == [TimedAbortingHanger.moduleName])
        log.latch("TimedAbortingHanger").open()
        log.latch("TimedPatient").open()
        await settle()
        #expect(!log.entries.contains("warmUp start TimedAfterAbortingHanger"))
        #expect(log.entries.contains("warmUp cancelled TimedPatient"), "\(log.entries)")
    }

    @Test("A warm-up that finishes within its budget is not reported when the clock later passes its deadline")
    func finishedHooksDoNotTimeOut() async throws {
        let log = StageLog()
        let clock = VirtualClock()
        let host = try host([TimedLong.self, TimedQuick.self, TimedShort.self], log, clock)
        let launch = Task { try await host.launch() }
        log.latch("TimedQuick").open()
        await log.latch("TimedShort").waitUntilEntered()
        log.latch("TimedShort").open()
        try await host.waitUntilReady(TimedShort.self)  // its warm-up is over, as far as the host knows
        await log.latch("TimedLong").waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))  // past Short's deadline; Short is done
        await settle()
        log.latch("TimedLong").open()
        _ = try await launch.value
        #expect(await host.degradedModules.isEmpty)
    }
}

struct TimedLong: StagedModule {
    static let priority: ModulePriority = .maximum
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct TimedQuick: StagedModule {
    static let priority: ModulePriority = .high
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

/// Starts after Quick, with a budget of its own shorter than the host's.
struct TimedShort: StagedModule, DependentModule, TimeBudgetedModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [TimedQuick.self]
    static func budget(for event: LifecycleEvent) -> Duration? { event == .warmUp ? .seconds(2) : nil }
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct TimedAfterShort: StagedModule, DependentModule {
    static let priority: ModulePriority = .low
    static let dependencies: [any LifecycleModule.Type] = [TimedShort.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct TimedHanger: StagedModule {
    static let priority: ModulePriority = .high
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct TimedAbortingHanger: StagedModule, FailurePolicyModule {
    static let priority: ModulePriority = .high
    static let failurePolicy: ModuleFailurePolicy = .abort
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct TimedAfterHanger: StagedModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [TimedHanger.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct TimedAfterAbortingHanger: StagedModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [TimedAbortingHanger.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

/// Held in warm-up within its own 10 s budget; records whether its task was cancelled when released.
struct TimedPatient: StagedModule, TimeBudgetedModule {
    static let priority: ModulePriority = .low
    static func budget(for event: LifecycleEvent) -> Duration? { event == .warmUp ? .seconds(10) : nil }
    let log: StageLog
    init(log: StageLog) { self.log = log }

    func warmUp(_ context: LifecycleContext) async {
        log.record("warmUp start TimedPatient")
        await log.latch("TimedPatient").hold()
        if Task.isCancelled { log.record("warmUp cancelled TimedPatient") }
    }
}
