import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// A participant that adopts the synchronous form of every event that has one. ``RecordsEverything``'s
/// hooks are ordinary functions, so they satisfy the synchronous requirements too; only the two stages
/// are new.
protocol RecordsEverythingSynchronously: RecordsEverything, SyncWillFinishLaunching, SyncSetupStage,
    SyncInitializeStage, SyncDidFinishLaunching, SyncWillEnterForeground, SyncDidBecomeActive,
    SyncWillResignActive, SyncDidEnterBackground, SyncWillTerminate, SyncDidReceiveMemoryWarning, SyncOpenURL
{}

extension RecordsEverythingSynchronously {
    func setUp(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "setup") }
    func initialize(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "initialize") }
}

/// A high-priority module whose hooks are all synchronous.
struct SyncHigh: LifecycleModule, RecordsEverythingSynchronously {
    static let priority: ModulePriority = .high
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
}

/// A normal-priority module whose hooks are all synchronous, listed after ``NormalA`` in the tests.
struct SyncNormal: LifecycleModule, RecordsEverythingSynchronously {
    static let priority: ModulePriority = .normal
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
}

/// A module with the synchronous form of one event and the asynchronous form of another.
struct MixedForms: LifecycleModule, SyncDidBecomeActive, WillResignActive {
    static let priority: ModulePriority = .low
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }

    func didBecomeActive(_ context: LifecycleContext) throws { try script.perform("MixedForms", "didBecomeActive") }
    func willResignActive(_ context: LifecycleContext) async throws {
        await Task.yield()
        try script.perform("MixedForms", "willResignActive")
    }
}

@Suite("Synchronous hooks")
struct SyncHookTests {
    /// Synchronous and asynchronous implementers interleaved in priority order: four runs of one form.
    static let interleaved: [any LifecycleModule.Type] = [Low.self, NormalA.self, SyncNormal.self, SyncHigh.self]
    static let forward = ["SyncHigh", "NormalA", "SyncNormal", "Low"]

    @Test("Both forms share one delivery order, forward and reverse, on the proxy's fast path")
    func oneOrderOnTheFastPath() async throws {
        let script = Script()
        let proxy = try makeProxy(Self.interleaved, script: script)
        for event in [LifecycleEvent.didBecomeActive, .willEnterForeground, .didReceiveMemoryWarning] {
            let outcome = await proxy.deliverDirectly(event)
            #expect(outcome.delivered == 4)
            #expect(script.journal.receivers(of: event.name) == Self.forward, "\(event)")
        }
        for event in [LifecycleEvent.willResignActive, .didEnterBackground, .willTerminate] {
            _ = await proxy.deliverDirectly(event)
            #expect(script.journal.receivers(of: event.name) == Self.forward.reversed(), "\(event)")
        }
        #expect(proxy.plan(for: .didBecomeActive).map { shortName($0.name) } == Self.forward)
    }

    @Test("Both forms share one delivery order through a host with a journal and time limits")
    func oneOrderThroughTheHost() async throws {
        let script = Script()
        var configuration = ApplicationHost.Configuration()
        configuration.hookBudget = .seconds(30)
        let host = try makeHost(Self.interleaved, delegate: true, script: script, configuration: configuration)
        try await host.launch()
        try await host.enterBackground()
        try await host.terminate()
        let withDelegate = ["Delegate"] + Self.forward
        for event in ["willFinishLaunching", "didFinishLaunching"] {
            #expect(script.journal.receivers(of: event) == withDelegate, "\(event)")
        }
        for event in ["setup", "initialize"] {
            #expect(script.journal.receivers(of: event) == ["SyncHigh", "SyncNormal"], "\(event)")
        }
        for event in ["willResignActive", "didEnterBackground", "willTerminate"] {
            #expect(script.journal.receivers(of: event) == withDelegate.reversed(), "\(event)")
        }
        let journal = try #require(host.journal).entries.filter { $0.event == "didBecomeActive" }
        #expect(journal.map { shortName($0.participant) } == withDelegate)
    }

    @Test(
        "Bool answers are OR-combined across both forms, with no short-circuit",
        arguments: ResultCombiningTests.truthTable
    )
    func answersCombineAcrossForms(first: Bool, second: Bool, combined: Bool) async throws {
        let script = Script(answers: ["SyncHigh openURL": first, "NormalA openURL": second])
        let proxy = try makeProxy([NormalA.self, Silent.self, SyncHigh.self], script: script)
        let outcome = await proxy.openDirectly(ResultCombiningTests.url)
        #expect(outcome.result == combined)
        #expect(outcome.delivered == 2)
        #expect(script.journal.receivers(of: "openURL") == ["SyncHigh", "NormalA"])
    }

    @Test("A synchronous hook that throws is reported with its module, and delivery goes on")
    func throwingSyncHook() async throws {
        let script = Script(failing: ["SyncNormal didBecomeActive"])
        let proxy = try makeProxy(Self.interleaved, script: script)
        let outcome = await proxy.deliverDirectly(.didBecomeActive)
        #expect(outcome.failures.map { shortName($0.participant.name) } == ["SyncNormal"])
        #expect(
            outcome.failures.first?.error as? FixtureFailure
                == FixtureFailure(participant: "SyncNormal", event: "didBecomeActive")
        )
        #expect(script.journal.receivers(of: "didBecomeActive") == Self.forward)

        // Through the host: a typed error that names the module and the event; everyone else was called.
        let failing = Script(failing: ["SyncNormal didReceiveMemoryWarning"])
        let host = try makeHost(Self.interleaved, script: failing)
        try await host.launch()
        let error = try await #require(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        #expect(error.code == .hookFailed)
        #expect(error.failures.map { shortName($0.participant.name) } == ["SyncNormal"])
        #expect(error.description.contains("SyncNormal"))
        #expect(error.description.contains("didReceiveMemoryWarning"))
        #expect(failing.journal.receivers(of: "didReceiveMemoryWarning") == Self.forward)
    }

    @Test("A module can mix forms, one per event; a synchronous conformance is also the asynchronous one")
    func mixedForms() async throws {
        let script = Script()
        let proxy = try makeProxy([MixedForms.self, SyncHigh.self], script: script)
        _ = await proxy.deliverDirectly(.didBecomeActive)
        _ = await proxy.deliverDirectly(.willResignActive)
        #expect(script.journal.receivers(of: "didBecomeActive") == ["SyncHigh", "MixedForms"])
        #expect(script.journal.receivers(of: "willResignActive") == ["MixedForms", "SyncHigh"])

        // A synchronous hook is callable through the asynchronous protocol too.
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        let module: any DidBecomeActive = SyncHigh(context: LifecycleContext(launchOptions: options))
        try await module.didBecomeActive(LifecycleContext())
        #expect(script.journal.receivers(of: "didBecomeActive") == ["SyncHigh", "MixedForms", "SyncHigh"])
    }
}
