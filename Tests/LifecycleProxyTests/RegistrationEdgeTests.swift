import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

struct EdgeLateWarmCache: StagedModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [WarmDatabase.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct EdgeLateWarm: StagedModule {
    static let priority: ModulePriority = .normal
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

/// Isolated policy, hangs in willFinishLaunching.
struct EdgeIsolatedHanger: LifecycleModule, FailurePolicyModule, WillFinishLaunching {
    static let priority: ModulePriority = .normal
    static let failurePolicy: ModuleFailurePolicy = .isolate
    let latch: Latch
    init(context: LifecycleContext) { latch = context.launchOptions[LatchKey.self] }
    func willFinishLaunching(_ context: LifecycleContext) async -> Bool {
        await latch.hold()
        return true
    }
}

/// A host over `modules` whose hooks share one latch and script, timed on a virtual clock, configured by
/// `configuration` (which receives that clock).
func latchedHost(
    _ modules: [any LifecycleModule.Type],
    _ configuration: (VirtualClock) -> ApplicationHost.Configuration
) throws -> (ApplicationHost, VirtualClock, Latch, Script) {
    let clock = VirtualClock()
    let latch = Latch()
    let script = Script()
    var options = LaunchOptions()
    options[LatchKey.self] = latch
    options[ScriptKey.self] = script
    let host = try ApplicationHost(
        manifest: ModuleManifest(name: "Tests", modules),
        launchOptions: options,
        configuration: configuration(clock)
    )
    return (host, clock, latch, script)
}

/// A latched host with a 1 s budget per hook under the `.fail` policy.
func failHost(_ modules: [any LifecycleModule.Type]) throws -> (ApplicationHost, VirtualClock, Latch, Script) {
    try latchedHost(modules) { .init(clock: $0, hookBudget: .seconds(1), timeoutPolicy: .fail) }
}

/// A host over staged modules that record into `log`, waiting for warm-up in launch or not.
func stageHost(_ modules: [any LifecycleModule.Type], _ log: StageLog, waits: Bool) throws -> ApplicationHost {
    var options = LaunchOptions()
    options[StageLogKey.self] = log
    return try ApplicationHost(
        manifest: ModuleManifest(modules),
        launchOptions: options,
        configuration: .init(didFinishLaunchingWaitsForWarmUp: waits, clock: VirtualClock())
    )
}

@Suite("Late registration: warm-up and readiness", .timeLimit(.minutes(1)))
struct RegistrationWarmUpTests {
    @Test("A module registered during a background warm-up warms up only after its dependency has")
    func lateDependentDuringBackgroundWarmUp() async throws {
        let log = StageLog()
        let host = try stageHost([WarmDatabase.self], log, waits: false)
        try await host.launch()
        await log.latch("WarmDatabase").waitUntilEntered()
        log.latch("EdgeLateWarmCache").open()
        let registering = Task { try await host.register(EdgeLateWarmCache.self) }
        // The registration waits for the database's warm-up: its catch-up has not reached warm-up yet.
        while !log.entries.contains("initialize EdgeLateWarmCache") { await Task.yield() }
        for _ in 0..<100 { await Task.yield() }
        #expect(!log.entries.contains("warmUp start EdgeLateWarmCache"))
        log.latch("WarmDatabase").open()
        _ = try await registering.value
        try await host.waitUntilReady()
        let entries = log.entries
        let databaseDone = try #require(entries.firstIndex(of: "warmUp end WarmDatabase"))
        let cacheStart = try #require(entries.firstIndex(of: "warmUp start EdgeLateWarmCache"))
        #expect(databaseDone < cacheStart, "\(entries)")
    }

    @Test("A module removed during a background warm-up never starts warming up, and is not journaled")
    func removedDuringBackgroundWarmUp() async throws {
        let log = StageLog()
        let host = try stageHost([WarmDatabase.self, WarmCache.self], log, waits: false)
        try await host.launch()
        await log.latch("WarmDatabase").waitUntilEntered()
        log.latch("WarmCache").open()
        try await host.remove(WarmCache.self)
        #expect(!host.participants.map(\.name).contains(WarmCache.moduleName))
        let countAfterRemoval = log.entries.count
        log.latch("WarmDatabase").open()
        try await host.waitUntilReady()
        for _ in 0..<100 { await Task.yield() }
        let after = Array(log.entries.dropFirst(countAfterRemoval))
        #expect(!after.contains("warmUp start WarmCache"), "after removal: \(after)")
        let journaled = host.journal?.entries.filter { $0.participant == WarmCache.moduleName }.map(\.event) ?? []
        #expect(!journaled.contains("warmUp"), "journal: \(journaled)")
    }

    @Test("waitUntilReady(Late.self) and waitUntilReady() wait for a late module's catch-up warm-up")
    func readinessOfLateModule() async throws {
        let log = StageLog()
        log.latch("WarmSearch").open()
        let host = try stageHost([WarmSearch.self], log, waits: true)
        try await host.launch()
        let registering = Task { try await host.register(EdgeLateWarm.self) }
        await log.latch("EdgeLateWarm").waitUntilEntered()
        let ready = Task { () -> Bool in
            try await host.waitUntilReady(EdgeLateWarm.self)
            return log.entries.contains("warmUp end EdgeLateWarm")
        }
        let all = Task { () -> Bool in
            try await host.waitUntilReady()
            return log.entries.contains("warmUp end EdgeLateWarm")
        }
        try await Task.sleep(for: .milliseconds(200))
        log.latch("EdgeLateWarm").open()
        _ = try await registering.value
        #expect(try await ready.value, "waitUntilReady(EdgeLateWarm) returned before its warm-up ended")
        #expect(try await all.value, "waitUntilReady() returned before the late module's warm-up ended")
    }

    @Test("Under .fail a launch-event timeout in catch-up takes the module out, and the message says why")
    func failTimeoutMessage() async throws {
        let (host, clock, latch, _) = try failHost([High.self])
        try await host.launch()
        let registering = Task { try await host.register(EdgeIsolatedHanger.self) }
        await latch.waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let error = await #expect(throws: LifecycleError.self) { try await registering.value }
        latch.open()
        #expect(error?.code == .registrationFailed)
        #expect(!(error?.description.contains("give the module failurePolicy .isolate") ?? true))
        #expect(error?.description.contains("ran past its budget") == true)
    }

    @Test("hookFailed for a catch-up says only the new module received it")
    func hookFailedMessage() async throws {
        let script = Script(failing: ["Late setup"])
        let host = try makeHost([High.self], script: script)
        try await host.launch()
        let error = try await #require(throws: LifecycleError.self) { try await host.register(Late.self) }
        #expect(!error.description.contains("Every other participant still received the event"))
    }
}

/// Aborts on its own failures; its warm-up holds, then throws.
struct EdgeAbortingWarm: LifecycleModule, FailurePolicyModule, WarmUpStage {
    static let priority: ModulePriority = .high
    static let failurePolicy: ModuleFailurePolicy = .abort
    let log: StageLog
    init(context: LifecycleContext) { log = context.launchOptions[StageLogKey.self] }
    func warmUp(_ context: LifecycleContext) async throws {
        await log.latch("EdgeAbortingWarm").hold()
        throw FixtureFailure(participant: "EdgeAbortingWarm", event: "warmUp")
    }
}

/// Aborts on its own failures; willFinishLaunching holds, then throws.
struct EdgeAbortingLate: LifecycleModule, FailurePolicyModule, WillFinishLaunching {
    static let priority: ModulePriority = .high
    static let failurePolicy: ModuleFailurePolicy = .abort
    let log: StageLog
    init(context: LifecycleContext) { log = context.launchOptions[StageLogKey.self] }
    func willFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        await log.latch("EdgeAbortingLate").hold()
        throw FixtureFailure(participant: "EdgeAbortingLate", event: "willFinishLaunching")
    }
}

@Suite("Late registration: failures, ids and routes", .timeLimit(.minutes(1)))
struct RegistrationFailureTests {
    @Test("A removed module's background warm-up failure neither stops warm-up nor is reported")
    func removedAborterSpoilsReadiness() async throws {
        let log = StageLog()
        let errors = Locked<[LifecycleError]>([])
        var options = LaunchOptions()
        options[StageLogKey.self] = log
        let host = try ApplicationHost(
            manifest: ModuleManifest([WarmDatabase.self, EdgeAbortingWarm.self]),
            launchOptions: options,
            configuration: .init(
                didFinishLaunchingWaitsForWarmUp: false,
                clock: VirtualClock(),
                onUnobservedError: { error in errors.withLock { $0.append(error) } }
            )
        )
        try await host.launch()
        await log.latch("EdgeAbortingWarm").waitUntilEntered()
        try await host.remove(EdgeAbortingWarm.self)
        #expect(host.participants.map(\.name) == [WarmDatabase.moduleName])
        log.latch("EdgeAbortingWarm").open()  // the removed module's in-flight warm-up throws now
        for _ in 0..<200 { await Task.yield() }
        log.latch("WarmDatabase").open()
        await #expect(throws: Never.self) { try await host.waitUntilReady() }
        #expect(errors.withLock { $0.isEmpty }, "a module that left still reports failures for the host")
    }

    @Test("A waiter for a module whose catch-up aborted is told it will never be ready")
    func waiterForTakenOutModule() async throws {
        let log = StageLog()
        let host = try stageHost([WarmDatabase.self], log, waits: false)
        try await host.launch()
        await log.latch("WarmDatabase").waitUntilEntered()  // background warm-up still running
        let registering = Task { try await host.register(EdgeAbortingLate.self) }
        await log.latch("EdgeAbortingLate").waitUntilEntered()
        let waiter = Task { try await host.waitUntilReady(EdgeAbortingLate.self) }
        for _ in 0..<50 { await Task.yield() }
        log.latch("EdgeAbortingLate").open()
        let error = await #expect(throws: LifecycleError.self) { try await registering.value }
        #expect(error?.code == .registrationFailed)
        #expect(!host.participants.map(\.name).contains(EdgeAbortingLate.moduleName))
        log.latch("WarmDatabase").open()
        let result = await waiter.result
        #expect(throws: LifecycleError.self) { try result.get() }
    }

    @Test("Participant ids are not reused after a module is taken out again")
    func idReuse() async throws {
        let script = Script(failing: ["LateCritical setup"])
        let host = try makeHost([High.self], script: script)
        try await host.launch()
        let error = await #expect(throws: LifecycleError.self) { try await host.register(LateCritical.self) }
        let takenOutID = error?.failures.first?.participant.id
        let late = try await host.register(Late.self)
        #expect(takenOutID != late.id)
    }

    @Test("Registering a module whose dependency is disabled quotes the reason")
    func disabledDependencyMessage() async throws {
        var options = LaunchOptions()
        options[ScriptKey.self] = Script()
        let host = try ApplicationHost(
            manifest: ModuleManifest([High.self, StagingOnly.self]),
            launchOptions: options
        )
        try await host.launch()
        let error = await #expect(throws: LifecycleError.self) { try await host.register(NeedsStaging.self) }
        #expect(error?.description.contains("which is disabled in this environment") == true)
        #expect(error?.description.contains("register it first") == false)
    }

    @Test("A removal past terminateDeadline: removed all the same, and the host stays active")
    func removalDeadline() async throws {
        let (host, clock, latch, _) = try latchedHost([Hanger.self, NormalA.self]) {
            .init(clock: $0, terminateDeadline: .seconds(2))
        }
        try await host.launch()
        let removing = Task { try await host.remove(Hanger.self) }
        await latch.waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        let error = await #expect(throws: LifecycleError.self) { try await removing.value }
        latch.open()
        #expect(error?.code == .deadlineExceeded)
        #expect(host.state == .active)
        #expect(host.participants.map(\.name) == [NormalA.moduleName])
    }

    @Test("Custom events reach a late module in priority order, and a removed one no longer")
    func customAfterRegistration() async throws {
        let script = Script()
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        options[AskAnswers.self] = ["A": true]
        let host = try ApplicationHost(manifest: ModuleManifest([AskerB.self, Silent.self]), launchOptions: options)
        try await host.launch()
        try await host.register(AskerA.self)
        #expect(try await host.send(Ask()) == true)
        #expect(script.journal.entries == ["ask AskerA", "ask AskerB"])
        try await host.remove(AskerA.self)
        #expect(try await host.send(Ask()) == false)
        #expect(script.journal.entries == ["ask AskerA", "ask AskerB", "ask AskerB"])
    }
}

struct EdgeActiveHanger: LifecycleModule, FailurePolicyModule, WillFinishLaunching, DidBecomeActive, WillTerminate {
    static let priority: ModulePriority = .normal
    static let failurePolicy: ModuleFailurePolicy = .isolate
    let latch: Latch
    let script: Script
    init(context: LifecycleContext) {
        latch = context.launchOptions[LatchKey.self]
        script = context.launchOptions[ScriptKey.self]
    }
    func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        script.journal.record("willFinishLaunching EdgeActiveHanger")
        return true
    }
    func didBecomeActive(_ context: LifecycleContext) async {
        script.journal.record("didBecomeActive EdgeActiveHanger")
        await latch.hold()
    }
    func willTerminate(_ context: LifecycleContext) { script.journal.record("willTerminate EdgeActiveHanger") }
}

struct EdgeResignHanger: LifecycleModule, WillResignActive, DidEnterBackground, WillTerminate {
    static let priority: ModulePriority = .normal
    let latch: Latch
    let script: Script
    init(context: LifecycleContext) {
        latch = context.launchOptions[LatchKey.self]
        script = context.launchOptions[ScriptKey.self]
    }
    func willResignActive(_ context: LifecycleContext) async {
        script.journal.record("willResignActive EdgeResignHanger")
        await latch.hold()
    }
    func didEnterBackground(_ context: LifecycleContext) {
        script.journal.record("didEnterBackground EdgeResignHanger")
    }
    func willTerminate(_ context: LifecycleContext) { script.journal.record("willTerminate EdgeResignHanger") }
}

@Suite("Late registration: time limits", .timeLimit(.minutes(1)))
struct RegistrationTimeLimitTests {
    @Test("A .fail timeout after launch in catch-up (didBecomeActive) leaves the launched module in, degraded")
    func timeoutAfterLaunchKeepsModule() async throws {
        let (host, clock, latch, _) = try failHost([High.self])
        try await host.launch()
        let registering = Task { try await host.register(EdgeActiveHanger.self) }
        await latch.waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let error = await #expect(throws: LifecycleError.self) { try await registering.value }
        latch.open()
        #expect(error?.code == .hookFailed)
        #expect(error?.failures.first?.error is HookTimeout)
        #expect(host.participants.map(\.name).contains(EdgeActiveHanger.moduleName))
        #expect(await host.degradedModules.map(\.name) == [EdgeActiveHanger.moduleName])
    }

    @Test("A .fail timeout in removal's willResignActive does not cut the rest of the teardown short")
    func teardownCutShort() async throws {
        let (host, clock, latch, script) = try failHost([High.self, EdgeResignHanger.self])
        try await host.launch()
        let removing = Task { try await host.remove(EdgeResignHanger.self) }
        await latch.waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let error = await #expect(throws: LifecycleError.self) { try await removing.value }
        latch.open()
        #expect(error?.code == .hookFailed)
        #expect(error?.description.contains("the module was removed") == true)
        #expect(!host.participants.map(\.name).contains(EdgeResignHanger.moduleName))
        #expect(
            script.journal.entries.suffix(2) == [
                "didEnterBackground EdgeResignHanger", "willTerminate EdgeResignHanger",
            ]
        )
    }
}

/// The long readiness test, in a suite of its own: 1,100 cycles of registration and removal take 1.5 s alone,
/// but 20 s in the whole suite and 59 s under the Thread Sanitizer on 2 cores (one CI run), against the
/// one-minute limit of the suite it came from. The limit is a guard against a hang, not a bound on time.
@Suite("Late registration: readiness after many cycles", .timeLimit(.minutes(5)))
struct RegistrationCycleTests {
    @Test("After 1,100 register/remove cycles, more than readiness remembers (1,024), a late module is ready again")
    func readinessAfterManyCycles() async throws {
        let log = StageLog()
        log.latch("WarmSearch").open()
        log.latch("EdgeLateWarm").open()
        let host = try stageHost([WarmSearch.self], log, waits: true)
        try await host.launch()
        try await host.waitUntilReady()
        for _ in 1...1_100 {
            try await host.register(EdgeLateWarm.self)
            try await host.waitUntilReady(EdgeLateWarm.self)
            try await host.remove(EdgeLateWarm.self)
            // Gone: a waiter is told at once that it will never be ready, not left waiting.
            await #expect(throws: LifecycleError.self) { try await host.waitUntilReady(EdgeLateWarm.self) }
        }
        try await host.register(EdgeLateWarm.self)
        try await host.waitUntilReady(EdgeLateWarm.self)
        try await host.waitUntilReady()
        #expect(log.entries.filter { $0 == "warmUp end EdgeLateWarm" }.count == 1_101)
        #expect(await host.health().isReady)
    }
}
