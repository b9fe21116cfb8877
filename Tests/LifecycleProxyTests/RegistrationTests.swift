import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// A recording module that also implements the three launch stages.
protocol StagedRecordingModule: RecordingModule, SetupStage, InitializeStage, WarmUpStage {}

extension StagedRecordingModule {
    func setUp(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "setup") }
    func initialize(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "initialize") }
    func warmUp(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "warmUp") }
}

struct Late: StagedRecordingModule {
    static let priority: ModulePriority = .normal
    let script: Script
}

/// Aborts on its own launch failures, whatever the host's policy.
struct LateCritical: StagedRecordingModule, FailurePolicyModule {
    static let priority: ModulePriority = .normal
    static let failurePolicy: ModuleFailurePolicy = .abort
    let script: Script
}

/// Needs ``Database`` (from the dependency tests).
struct LateCache: RecordingModule, DependentModule {
    static let priority: ModulePriority = .maximum
    static let dependencies: [any LifecycleModule.Type] = [Database.self]
    let script: Script
}

struct InitFailure: Error, CustomStringConvertible {
    var description: String { "no credentials" }
}

struct ThrowsOnInit: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) throws { throw InitFailure() }
}

/// On a memory warning, posts its own removal and the registration of ``Late``.
struct Replacer: RecordingModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .high
    let script: Script

    func didReceiveMemoryWarning(_ context: LifecycleContext) throws {
        try script.perform("Replacer", "didReceiveMemoryWarning")
        context.events.post(.remove(Replacer.self))
        context.events.post(.register(Late.self))
    }
}

@Suite("Late registration and removal", .timeLimit(.minutes(1)))
struct RegistrationTests {
    /// The journal entries written after `count` entries: what one request delivered.
    func delivered(_ script: Script, since count: Int) -> [String] { Array(script.journal.entries.dropFirst(count)) }

    @Test("A module registered while active catches up alone: launch events, stages, then didBecomeActive")
    func catchUpActive() async throws {
        let script = Script()
        let host = try makeHost([High.self, Low.self], script: script)
        try await host.launch()
        let before = script.journal.entries.count

        let participant = try await host.register(Late.self)

        #expect(participant.name == Late.moduleName)
        #expect(host.participant(for: Late.self) == participant)
        #expect(host.participant(for: LateCache.self) == nil)  // never registered
        #expect(
            delivered(script, since: before) == [
                "willFinishLaunching Late", "setup Late", "initialize Late", "warmUp Late", "didFinishLaunching Late",
                "didBecomeActive Late",
            ]
        )
        // From now on it receives regular events in its priority place, both directions.
        #expect(host.participants.map(\.name) == [High.moduleName, Late.moduleName, Low.moduleName])
        let beforeBackground = script.journal.entries.count
        try await host.enterBackground()
        #expect(
            delivered(script, since: beforeBackground) == [
                "willResignActive Low", "willResignActive Late", "willResignActive High",
                "didEnterBackground Low", "didEnterBackground Late", "didEnterBackground High",
            ]
        )
    }

    @Test("Catch-up follows the host's state: background adds didEnterBackground, inactive only launches")
    func catchUpOtherStates() async throws {
        let script = Script()
        let host = try makeHost([High.self], script: script)
        try await host.launch()
        try await host.enterBackground()
        var before = script.journal.entries.count
        try await host.register(Late.self)
        #expect(
            delivered(script, since: before) == [
                "willFinishLaunching Late", "setup Late", "initialize Late", "warmUp Late", "didFinishLaunching Late",
                "didEnterBackground Late",
            ]
        )
        before = script.journal.entries.count
        try await host.enterForeground()
        #expect(script.journal.receivers(of: "willEnterForeground").suffix(2) == ["High", "Late"])

        let inactiveScript = Script()
        let inactive = try makeHost([High.self], script: inactiveScript)
        try await inactive.launch()
        try await inactive.resignActive()
        before = inactiveScript.journal.entries.count
        try await inactive.register(Low.self)
        #expect(delivered(inactiveScript, since: before) == ["willFinishLaunching Low", "didFinishLaunching Low"])
    }

    @Test("A module registered before launch gets no catch-up and launches with the others, in its place")
    func registerBeforeLaunch() async throws {
        let script = Script()
        let host = try makeHost([Low.self], script: script)
        try await host.register(High.self)
        #expect(script.journal.entries.isEmpty)
        try await host.launch()
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["High", "Low"])
        #expect(script.journal.receivers(of: "didBecomeActive") == ["High", "Low"])
    }

    @Test("Rollback after an abort reaches the modules before the failing one in delivery order, late ones included")
    func rollbackCountsDeliveryOrder() async throws {
        // Low joined first (id 0); High registered later (id 1) but is delivered first.
        let script = Script(failing: ["Low willFinishLaunching"])
        let host = try makeHost([Low.self], script: script, configuration: .init(launchFailurePolicy: .abort))
        try await host.register(High.self)
        let error = try await #require(throws: LifecycleError.self) { try await host.launch() }
        #expect(error.code == .launchAborted)
        #expect(error.rolledBack.map(\.name) == [High.moduleName])
        #expect(script.journal.receivers(of: "willTerminate") == ["High"])
    }

    @Test("A removed module receives the teardown for the host's state, alone, and nothing afterwards")
    func removal() async throws {
        let script = Script()
        let host = try makeHost([High.self, NormalA.self, Low.self], delegate: true, script: script)
        try await host.launch()
        var before = script.journal.entries.count
        try await host.remove(NormalA.self)
        #expect(
            delivered(script, since: before) == [
                "willResignActive NormalA", "didEnterBackground NormalA", "willTerminate NormalA",
            ]
        )
        #expect(host.participants.map(\.name) == [host.participants[0].name, High.moduleName, Low.moduleName])
        // One lookup by type: the module removed is no participant; the others are, with their ids.
        #expect(host.participant(for: NormalA.self) == nil)
        #expect(host.participant(for: Low.self) == host.participants[2])
        before = script.journal.entries.count
        try await host.receiveMemoryWarning()
        #expect(
            delivered(script, since: before) == [
                "didReceiveMemoryWarning Delegate", "didReceiveMemoryWarning High", "didReceiveMemoryWarning Low",
            ]
        )

        // From the background, only willTerminate remains; before launch, nothing.
        try await host.enterBackground()
        before = script.journal.entries.count
        try await host.remove(Low.self)
        #expect(delivered(script, since: before) == ["willTerminate Low"])
        let idle = try makeHost([High.self, Low.self], script: Script())
        try await idle.remove(High.self)
        #expect(idle.participants.map(\.name) == [Low.moduleName])
    }

    @Test("Refused registrations name the module and the fix, and leave the host unchanged")
    func refusedRegistrations() async throws {
        let script = Script()
        let host = try makeHost([High.self], script: script)
        try await host.launch()
        let before = script.journal.entries.count

        let duplicate = try await #require(throws: LifecycleError.self) { try await host.register(High.self) }
        #expect(duplicate.code == .registrationFailed)
        #expect((duplicate.underlyingError as? ManifestError)?.code == .duplicateModule)
        #expect(duplicate.description.contains("`\(High.moduleName)` is already a participant"))

        let missing = try await #require(throws: LifecycleError.self) { try await host.register(LateCache.self) }
        #expect((missing.underlyingError as? ManifestError)?.code == .missingDependency)
        #expect(missing.description.contains("which this host does not have: register it first"))
        #expect(missing.description.contains("`\(Database.moduleName)`"))

        let throwing = try await #require(throws: LifecycleError.self) { try await host.register(ThrowsOnInit.self) }
        #expect((throwing.underlyingError as? ManifestError)?.code == .moduleInitializationFailed)
        #expect(throwing.description.contains("no credentials"))

        #expect(host.participants.map(\.name) == [High.moduleName])
        #expect(script.journal.entries.count == before)
    }

    @Test("A dependency placed before its late dependent; removing it while needed is refused")
    func dependencies() async throws {
        let script = Script()
        let host = try makeHost([Database.self, Low.self], script: script)
        try await host.launch()
        try await host.register(LateCache.self)
        // LateCache has the highest priority but still comes after Database.
        #expect(host.participants.map(\.name) == [Database.moduleName, LateCache.moduleName, Low.moduleName])

        let refused = try await #require(throws: LifecycleError.self) { try await host.remove(Database.self) }
        #expect(refused.code == .removalFailed)
        #expect((refused.underlyingError as? ManifestError)?.code == .requiredByOthers)
        #expect(refused.description.contains("`\(LateCache.moduleName)` depends on it"))

        try await host.remove(LateCache.self)
        try await host.remove(Database.self)
        #expect(host.participants.map(\.name) == [Low.moduleName])

        let unknown = try await #require(throws: LifecycleError.self) { try await host.remove(Database.self) }
        #expect((unknown.underlyingError as? ManifestError)?.code == .notAParticipant)
    }

    @Test("Registered and removed 500 times, a module's dependencies are found, and no table grows with the ids")
    func dependenciesAfterManyRegistrations() throws {
        var options = LaunchOptions()
        options[ScriptKey.self] = Script()
        let proxy = try DelegateProxy(manifest: ModuleManifest([Database.self, Low.self]), launchOptions: options)
        let database = try #require(proxy.participants.first { $0.name == Database.moduleName })
        var current: any LifecycleDispatcher = proxy
        for round in 1...500 {
            let (added, cache) = try current.adding(LateCache.self)
            // Ids are never reused: the late module's id grows with every registration.
            #expect(cache.id == 1 + round)
            #expect(Array(added.dependencies(of: cache)) == [database.id])
            #expect(added.dependencies(of: database).isEmpty)
            let (removed, _) = try added.removing(LateCache.self, reason: nil)
            current = removed
        }
        let (last, cache) = try current.adding(LateCache.self)
        let table = try #require(last as? DelegateProxy)
        // Three participants: the table has four entries, not one per id ever given (504 before).
        #expect(table.dependencyTableCount == last.participants.count + 1)
        #expect(last.explainedDependencies(of: cache).map(\.module.name) == [Database.moduleName])
    }

    @Test("A catch-up failure keeps an isolated module, and takes an aborting one out again")
    func catchUpFailures() async throws {
        let script = Script(failing: ["Late setup", "LateCritical setup"])
        let host = try makeHost([High.self], script: script)
        try await host.launch()

        let kept = try await #require(throws: LifecycleError.self) { try await host.register(Late.self) }
        #expect(kept.code == .hookFailed)
        #expect(kept.failures.map(\.participant.name) == [Late.moduleName])
        #expect(host.participants.map(\.name).contains(Late.moduleName))

        let before = script.journal.entries.count
        let dropped = try await #require(throws: LifecycleError.self) { try await host.register(LateCritical.self) }
        #expect(dropped.code == .registrationFailed)
        #expect(dropped.description.contains("taken out again"))
        #expect(delivered(script, since: before) == ["willFinishLaunching LateCritical", "setup LateCritical"])
        #expect(!host.participants.map(\.name).contains(LateCritical.moduleName))
        #expect(host.state == .active)
    }

    @Test("A module can remove itself and register another from a hook; the event in progress completes first")
    func changesFromHooks() async throws {
        let script = Script()
        let host = try makeHost([Replacer.self, Low.self], script: script)
        try await host.launch()
        let before = script.journal.entries.count
        try await host.receiveMemoryWarning()
        try await host.waitUntilIdle()
        #expect(
            delivered(script, since: before) == [
                "didReceiveMemoryWarning Replacer", "didReceiveMemoryWarning Low",
                "willResignActive Replacer", "didEnterBackground Replacer", "willTerminate Replacer",
                "willFinishLaunching Late", "setup Late", "initialize Late", "warmUp Late", "didFinishLaunching Late",
                "didBecomeActive Late",
            ]
        )
        #expect(host.participants.map(\.name) == [Late.moduleName, Low.moduleName])
    }

    @Test("Catch-up and teardown are journaled; a terminated host refuses both")
    func journalAndTerminated() async throws {
        let host = try makeHost([High.self], script: Script())
        try await host.launch()
        try await host.register(Low.self)
        try await host.remove(Low.self)
        let lowEvents = host.journal?.entries.filter { $0.participant == Low.moduleName }.map(\.event)
        #expect(
            lowEvents == [
                "willFinishLaunching", "didFinishLaunching", "didBecomeActive", "willResignActive",
                "didEnterBackground", "willTerminate",
            ]
        )
        try await host.terminate()
        let error = try await #require(throws: LifecycleError.self) { try await host.register(Low.self) }
        #expect(error.code == .invalidTransition)
        #expect(error.description.contains("register(\(Low.moduleName))"))
        let removal = try await #require(throws: LifecycleError.self) { try await host.remove(High.self) }
        #expect(removal.code == .invalidTransition)
    }
}
