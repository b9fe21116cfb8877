import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// A high-priority module whose hooks are all synchronous functions, adopting no `Sync…` protocol.
struct FunctionHigh: LifecycleModule, RecordsEverythingSynchronously {
    static let priority: ModulePriority = .high
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
}

/// A normal-priority module whose hooks are all synchronous functions; listed after ``NormalA``.
struct FunctionNormal: LifecycleModule, RecordsEverythingSynchronously {
    static let priority: ModulePriority = .normal
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
}

/// How often the proxy called each registered synchronous function, by event.
final class FunctionCalls: Sendable {
    private let counts = Locked<[String: Int]>([:])

    func count(_ event: String) { counts.withLock { $0[event, default: 0] += 1 } }

    subscript(event: String) -> Int { counts.withLock { $0[event] ?? 0 } }
}

/// The capability table the discovery plugin writes for `M`: every hook a synchronous function, registered
/// with a closure that calls it. Each closure also counts its calls in `calls`, which shows that the proxy
/// called the function it was handed rather than the asynchronous requirement.
func functionDeclaration<M: LifecycleModule & RecordsEverythingSynchronously>(
    _: M.Type,
    counting calls: FunctionCalls
) -> DeclaredModule {
    DeclaredModule(M.self) { module, hooks in
        let module = module as! M
        hooks.willFinishLaunching(module) {
            calls.count("willFinishLaunching")
            return try module.willFinishLaunching($0)
        }
        hooks.setup(module) {
            calls.count("setup")
            try module.setUp($0)
        }
        hooks.initialize(module) {
            calls.count("initialize")
            try module.initialize($0)
        }
        hooks.didFinishLaunching(module) {
            calls.count("didFinishLaunching")
            return try module.didFinishLaunching($0)
        }
        hooks.willEnterForeground(module) {
            calls.count("willEnterForeground")
            try module.willEnterForeground($0)
        }
        hooks.didBecomeActive(module) {
            calls.count("didBecomeActive")
            try module.didBecomeActive($0)
        }
        hooks.willResignActive(module) {
            calls.count("willResignActive")
            try module.willResignActive($0)
        }
        hooks.didEnterBackground(module) {
            calls.count("didEnterBackground")
            try module.didEnterBackground($0)
        }
        hooks.willTerminate(module) {
            calls.count("willTerminate")
            try module.willTerminate($0)
        }
        hooks.didReceiveMemoryWarning(module) {
            calls.count("didReceiveMemoryWarning")
            try module.didReceiveMemoryWarning($0)
        }
        hooks.openURL(module) {
            calls.count("openURL")
            return try module.open($0, context: $1)
        }
    }
}

/// A manifest of the three forms interleaved in priority order, four runs: `FunctionHigh` (synchronous
/// functions), `NormalA` (awaited), `SyncNormal` (the deprecated `Sync…` protocols, cast at run time) and
/// `Low` (awaited).
private func interleaved(_ calls: FunctionCalls) -> ModuleManifest {
    ModuleManifest(
        name: "Interleaved",
        declared: [
            DeclaredModule(Low.self), DeclaredModule(NormalA.self), DeclaredModule(SyncNormal.self),
            functionDeclaration(FunctionHigh.self, counting: calls),
        ]
    )
}

private func options(_ script: Script) -> LaunchOptions {
    var options = LaunchOptions(arguments: ["test"])
    options[ScriptKey.self] = script
    return options
}

@Suite("Synchronous hooks: functions a capability table registers")
struct SynchronousFunctionTests {
    static let forward = ["FunctionHigh", "NormalA", "SyncNormal", "Low"]

    @Test("A registered function is what the proxy calls, in the one delivery order shared with the other forms")
    func oneOrderOnTheFastPath() async throws {
        let script = Script()
        let calls = FunctionCalls()
        let proxy = try DelegateProxy(manifest: interleaved(calls), launchOptions: options(script))
        for event in [LifecycleEvent.didBecomeActive, .willEnterForeground, .didReceiveMemoryWarning] {
            let outcome = await proxy.deliverDirectly(event)
            #expect(outcome.delivered == 4)
            #expect(script.journal.receivers(of: event.name) == Self.forward, "\(event)")
            #expect(calls[event.name] == 1, "\(event)")
        }
        for event in [LifecycleEvent.willResignActive, .didEnterBackground, .willTerminate] {
            _ = await proxy.deliverDirectly(event)
            #expect(script.journal.receivers(of: event.name) == Self.forward.reversed(), "\(event)")
            #expect(calls[event.name] == 1, "\(event)")
        }
        #expect(proxy.plan(for: .didBecomeActive).map { shortName($0.name) } == Self.forward)
    }

    @Test("Through a host with a journal and time limits, every event reaches the functions in order")
    func oneOrderThroughTheHost() async throws {
        let script = Script()
        let calls = FunctionCalls()
        var configuration = ApplicationHost.Configuration()
        configuration.hookBudget = .seconds(30)
        let host = try ApplicationHost(
            manifest: interleaved(calls),
            delegate: Delegate(script: script),
            launchOptions: options(script),
            configuration: configuration
        )
        try await host.launch()
        try await host.enterBackground()
        try await host.terminate()
        let withDelegate = ["Delegate"] + Self.forward
        for event in ["willFinishLaunching", "didFinishLaunching"] {
            #expect(script.journal.receivers(of: event) == withDelegate, "\(event)")
        }
        for event in ["setup", "initialize"] {
            #expect(script.journal.receivers(of: event) == ["FunctionHigh", "SyncNormal"], "\(event)")
        }
        for event in ["willResignActive", "didEnterBackground", "willTerminate"] {
            #expect(script.journal.receivers(of: event) == withDelegate.reversed(), "\(event)")
        }
        for event in ["willFinishLaunching", "setup", "initialize", "didFinishLaunching", "didBecomeActive"] {
            #expect(calls[event] == 1, "\(event)")
        }
        let journal = try #require(host.journal).entries.filter { $0.event == "didBecomeActive" }
        #expect(journal.map { shortName($0.participant) } == withDelegate)
    }

    @Test(
        "Bool answers are OR-combined across functions and awaited hooks, with no short-circuit",
        arguments: ResultCombiningTests.truthTable
    )
    func answersCombineAcrossForms(first: Bool, second: Bool, combined: Bool) async throws {
        let script = Script(answers: ["FunctionHigh openURL": first, "NormalA openURL": second])
        let calls = FunctionCalls()
        let manifest = ModuleManifest(
            name: "Answers",
            declared: [
                DeclaredModule(NormalA.self), DeclaredModule(Silent.self),
                functionDeclaration(FunctionHigh.self, counting: calls),
            ]
        )
        let proxy = try DelegateProxy(manifest: manifest, launchOptions: options(script))
        let outcome = await proxy.openDirectly(ResultCombiningTests.url)
        #expect(outcome.result == combined)
        #expect(outcome.delivered == 2)
        #expect(calls["openURL"] == 1)
        #expect(script.journal.receivers(of: "openURL") == ["FunctionHigh", "NormalA"])
    }

    @Test("A function that throws is reported with its module, and delivery goes on")
    func throwingFunction() async throws {
        let script = Script(failing: ["FunctionHigh didBecomeActive"])
        let proxy = try DelegateProxy(manifest: interleaved(FunctionCalls()), launchOptions: options(script))
        let outcome = await proxy.deliverDirectly(.didBecomeActive)
        #expect(outcome.failures.map { shortName($0.participant.name) } == ["FunctionHigh"])
        #expect(
            outcome.failures.first?.error as? FixtureFailure
                == FixtureFailure(participant: "FunctionHigh", event: "didBecomeActive")
        )
        #expect(script.journal.receivers(of: "didBecomeActive") == Self.forward)
    }

    @Test("A hook declared as a function agrees with the runtime, which only sees the asynchronous conformance")
    func declarationsAgreeWithTheRuntime() throws {
        let proxy = try DelegateProxy(manifest: interleaved(FunctionCalls()), launchOptions: options(Script()))
        try proxy.checkDeclarations()
        // What the runtime cannot see, the declaration says: FunctionHigh's hooks are synchronous.
        var declared = ModuleHooks()
        let module = FunctionHigh(context: LifecycleContext(launchOptions: options(Script())))
        functionDeclaration(FunctionHigh.self, counting: FunctionCalls()).capabilities?.hooks(module, &declared)
        var cast = ModuleHooks()
        cast.add(casting: module)
        #expect(declared.shape(at: 0).contains("didBecomeActive (sync)"))
        #expect(cast.shape(at: 0).contains("didBecomeActive (async)"))
        #expect(declared.shape(at: 0).count == cast.shape(at: 0).count)
    }
}
