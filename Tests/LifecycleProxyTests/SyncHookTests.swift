import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// A participant whose hooks are all synchronous functions: ``RecordsEverything``'s are ordinary functions,
/// and the two stages are added here.
protocol RecordsEverythingSynchronously: RecordsEverything, SetupStage, InitializeStage {}

extension RecordsEverythingSynchronously {
    func setUp(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "setup") }
    func initialize(_ context: LifecycleContext) throws { try script.perform(Self.shortName, "initialize") }
}

/// The deprecated `Sync…` protocol of every event that has one: what code written before synchronous hooks
/// were read from the source adopts, and the one way the runtime tells that a hook is synchronous. These
/// tests check that it still works; it is adopted in deprecated extensions, so the package's own build names
/// no deprecated declaration outside a deprecated context.
@available(*, deprecated, message: "the deprecated Sync… protocols, tested on purpose")
protocol AdoptsEverySyncProtocol: SyncWillFinishLaunching, SyncSetupStage, SyncInitializeStage, SyncDidFinishLaunching,
    SyncWillEnterForeground, SyncDidBecomeActive, SyncWillResignActive, SyncDidEnterBackground, SyncWillTerminate,
    SyncDidReceiveMemoryWarning, SyncOpenURL
{}

/// A high-priority module whose hooks are all synchronous, adopting every `Sync…` protocol.
struct SyncHigh: LifecycleModule, RecordsEverythingSynchronously {
    static let priority: ModulePriority = .high
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
}

/// A normal-priority module whose hooks are all synchronous, adopting every `Sync…` protocol; listed after
/// ``NormalA`` in the tests.
struct SyncNormal: LifecycleModule, RecordsEverythingSynchronously {
    static let priority: ModulePriority = .normal
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
}

/// A module with the synchronous form of one event and the asynchronous form of another.
struct MixedForms: LifecycleModule, DidBecomeActive, WillResignActive {
    static let priority: ModulePriority = .low
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }

    func didBecomeActive(_ context: LifecycleContext) throws { try script.perform("MixedForms", "didBecomeActive") }
    func willResignActive(_ context: LifecycleContext) async throws {
        await Task.yield()
        try script.perform("MixedForms", "willResignActive")
    }
}

@available(*, deprecated, message: "adopts the deprecated Sync… protocols, tested on purpose")
extension SyncHigh: AdoptsEverySyncProtocol {}

@available(*, deprecated, message: "adopts the deprecated Sync… protocols, tested on purpose")
extension SyncNormal: AdoptsEverySyncProtocol {}

@available(*, deprecated, message: "adopts the deprecated SyncDidBecomeActive, tested on purpose")
extension MixedForms: SyncDidBecomeActive {}

/// A capability table as the plugin wrote it before synchronous hooks were read from the source: each hook
/// through the deprecated `ModuleHooks.<event>(sync:)`. The requirement is met in a deprecated extension and
/// called through the protocol, so the deprecated calls add no warning to the package's build.
protocol LegacyDeclarations {
    static var syncHigh: DeclaredModule { get }
}

/// The one ``LegacyDeclarations``.
enum Legacy: LegacyDeclarations {}

@available(*, deprecated, message: "calls the deprecated ModuleHooks.<event>(sync:), tested on purpose")
extension Legacy {
    static var syncHigh: DeclaredModule {
        DeclaredModule(SyncHigh.self) { module, hooks in
            let module = module as! SyncHigh
            hooks.willFinishLaunching(sync: module)
            hooks.setup(sync: module)
            hooks.initialize(sync: module)
            hooks.didFinishLaunching(sync: module)
            hooks.willEnterForeground(sync: module)
            hooks.didBecomeActive(sync: module)
            hooks.willResignActive(sync: module)
            hooks.didEnterBackground(sync: module)
            hooks.willTerminate(sync: module)
            hooks.didReceiveMemoryWarning(sync: module)
            hooks.openURL(sync: module)
        }
    }
}

/// ``Legacy``'s declaration of ``SyncHigh``, reached through its protocol.
func legacyDeclaration<L: LegacyDeclarations>(_: L.Type = Legacy.self) -> DeclaredModule { L.syncHigh }

@Suite("Synchronous hooks: the deprecated Sync… protocols")
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

    @Test("A capability table written with the deprecated hooks.<event>(sync:) builds what the runtime casts build")
    func legacyDeclarations() async throws {
        let script = Script(answers: ["SyncHigh openURL": true])
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        let manifest = ModuleManifest(name: "Legacy", declared: [legacyDeclaration(), DeclaredModule(NormalA.self)])
        let proxy = try DelegateProxy(manifest: manifest, launchOptions: options)
        try proxy.checkDeclarations()
        for event in LifecycleEvent.builtinEvents {
            let cast = try makeProxy([SyncHigh.self, NormalA.self], script: script)
            #expect(proxy.plan(for: event).map(\.name) == cast.plan(for: event).map(\.name), "\(event)")
        }
        #expect(await proxy.openDirectly(ResultCombiningTests.url).result == true)
        _ = await proxy.deliverDirectly(.willTerminate)
        #expect(script.journal.receivers(of: "willTerminate") == ["NormalA", "SyncHigh"])
        #expect(script.journal.receivers(of: "openURL") == ["SyncHigh", "NormalA"])
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
