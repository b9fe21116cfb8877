import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

struct BrokenInit: LifecycleModule {
    static let priority: ModulePriority = .normal
    struct Failure: Error, CustomStringConvertible {
        var description: String { "no database URL" }
    }
    init(context: LifecycleContext) throws { throw Failure() }
}

struct AlsoBrokenInit: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) throws { throw BrokenInit.Failure() }
}

/// Implements only `willTerminate`: it opened something in `init` and must close it.
struct TerminateOnly: LifecycleModule, WillTerminate {
    static let priority: ModulePriority = .maximum
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
    func willTerminate(_ context: LifecycleContext) throws { try script.perform("TerminateOnly", "willTerminate") }
}

struct FailingAsker: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ask.self) { _, _, _ in throw FixtureFailure(participant: "FailingAsker", event: "ask") }
    }
}

struct HugePriority: LifecycleModule {
    static let priority = ModulePriority(Int.max)
    init(context: LifecycleContext) {}
}

struct NegativePriority: LifecycleModule {
    static let priority: ModulePriority = .minimum - 1
    init(context: LifecycleContext) {}
}

@Suite("Failures")
struct FailureTests {
    @Test("A throwing hook does not stop the others; one error lists module, event and underlying error")
    func throwingHookIsReportedAndOthersContinue() async throws {
        let script = Script(answers: ["Low openURL": true], failing: ["NormalA didEnterBackground", "High openURL"])
        let host = try makeHost([High.self, NormalA.self, Low.self], delegate: true, script: script)
        try await host.launch()

        let background = await #expect(throws: LifecycleError.self) { try await host.enterBackground() }
        #expect(background?.code == .hookFailed)
        #expect(background?.failures.count == 1)
        #expect(background?.failures.first?.participant.name == NormalA.moduleName)
        #expect(background?.failures.first?.event == .didEnterBackground)
        #expect(
            background?.failures.first?.error as? FixtureFailure
                == FixtureFailure(participant: "NormalA", event: "didEnterBackground")
        )
        #expect(background?.description.contains("`\(NormalA.moduleName)` threw in didEnterBackground") == true)
        // Everyone else still received both events, and the transition happened.
        #expect(script.journal.receivers(of: "didEnterBackground") == ["Low", "NormalA", "High", "Delegate"])
        #expect(host.state == .background)

        try await host.enterForeground()
        let open = await #expect(throws: LifecycleError.self) { try await host.open(URL(string: "demo://x")!) }
        #expect(open?.code == .hookFailed)
        #expect(open?.result == true, "the answers of the others still combine")
        #expect(script.journal.receivers(of: "openURL") == ["Delegate", "High", "NormalA", "Low"])
    }

    @Test("Failures of several hooks in one request are reported together, in delivery order")
    func severalFailuresAreAggregated() async throws {
        let script = Script(failing: ["High willResignActive", "Low didEnterBackground", "Delegate didEnterBackground"])
        let host = try makeHost([High.self, Low.self], delegate: true, script: script)
        try await host.launch()
        let error = await #expect(throws: LifecycleError.self) { try await host.enterBackground() }
        #expect(
            error?.failures.map { "\(shortName($0.participant.name)) \($0.event)" } == [
                "High willResignActive", "Low didEnterBackground", "Delegate didEnterBackground",
            ]
        )
    }

    @Test("Under the abort policy a failure in didFinishLaunching rolls back everyone else, in reverse")
    func abortPolicyRollsBack() async throws {
        let script = Script(failing: ["NormalA didFinishLaunching"])
        let host = try makeHost(
            [High.self, NormalA.self, Low.self],
            delegate: true,
            script: script,
            configuration: .init(launchFailurePolicy: .abort)
        )
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.code == .launchAborted)
        #expect(error?.failures.map(\.participant.name) == [NormalA.moduleName])
        // Everyone completed willFinishLaunching; NormalA failed didFinishLaunching and Low never got it.
        #expect(script.journal.receivers(of: "didFinishLaunching") == ["Delegate", "High", "NormalA"])
        #expect(script.journal.receivers(of: "didBecomeActive").isEmpty)
        // Launch had reached everyone (all passed willFinishLaunching), so all but the failing participant
        // are rolled back, in reverse order. NormalA threw: it cleans up after itself.
        #expect(script.journal.receivers(of: "willTerminate") == ["Low", "High", "Delegate"])
        #expect(error?.rolledBack.map { shortName($0.name) } == ["Low", "High", "Delegate"])
        #expect(host.state == .terminated)
        #expect(error?.description.contains("launchFailurePolicy = .continue") == true)
    }

    @Test("Under the abort policy a failure in willFinishLaunching rolls back only those launch had reached")
    func abortInFirstLaunchEvent() async throws {
        let script = Script(failing: ["NormalA willFinishLaunching"])
        let host = try makeHost(
            [High.self, NormalA.self, Low.self],
            script: script,
            configuration: .init(launchFailurePolicy: .abort)
        )
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.code == .launchAborted)
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["High", "NormalA"])
        #expect(script.journal.receivers(of: "willTerminate") == ["High"])
        #expect(error?.rolledBack.map { shortName($0.name) } == ["High"])
        #expect(host.state == .terminated)
    }

    @Test("Rollback reaches a module that implements no launch hook but was passed by launch")
    func rollbackIncludesModulesWithoutLaunchHooks() async throws {
        let script = Script(failing: ["NormalA willFinishLaunching"])
        let host = try makeHost(
            [TerminateOnly.self, NormalA.self, Low.self],
            script: script,
            configuration: .init(launchFailurePolicy: .abort)
        )
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.rolledBack.map { shortName($0.name) } == ["TerminateOnly"])
        #expect(script.journal.receivers(of: "willTerminate") == ["TerminateOnly"])
    }

    @Test("A rollback hook that throws is reported with the launch failure")
    func rollbackFailureIsAggregated() async throws {
        let script = Script(failing: ["Low didFinishLaunching", "High willTerminate"])
        let host = try makeHost(
            [High.self, Low.self],
            script: script,
            configuration: .init(launchFailurePolicy: .abort)
        )
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(
            error?.failures.map { "\(shortName($0.participant.name)) \($0.event)" } == [
                "Low didFinishLaunching", "High willTerminate",
            ]
        )
    }

    @Test("Under the default policy a launch failure keeps the launch results in the error")
    func launchResultSurvivesFailure() async throws {
        let script = Script(answers: ["High didFinishLaunching": true], failing: ["Low willFinishLaunching"])
        let host = try makeHost([High.self, Low.self], script: script)
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.launchResult == LaunchResult(willFinishLaunching: false, didFinishLaunching: true))
    }

    @Test("A custom-event handler that throws is reported like any hook, and the others still answer")
    func customHandlerFailure() async throws {
        var options = LaunchOptions()
        options[ScriptKey.self] = Script()
        options[AskAnswers.self] = ["B": true]
        let host = try ApplicationHost(
            manifest: ModuleManifest([FailingAsker.self, AskerB.self]),
            launchOptions: options
        )
        try await host.launch()
        let error = await #expect(throws: LifecycleError.self) { try await host.send(Ask()) }
        #expect(error?.code == .hookFailed)
        #expect(error?.failures.first?.participant.name == FailingAsker.moduleName)
        #expect(error?.failures.first?.event == LifecycleEvent(custom: Ask.self))
        #expect(error?.result == true)
    }

    @Test("Under the default policy a launch failure is reported and the host still becomes active")
    func continuePolicyReportsLaunchFailure() async throws {
        let script = Script(failing: ["NormalA willFinishLaunching"])
        let host = try makeHost([High.self, NormalA.self, Low.self], script: script)
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.code == .hookFailed)
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["High", "NormalA", "Low"])
        #expect(script.journal.receivers(of: "didBecomeActive") == ["High", "NormalA", "Low"])
        #expect(host.state == .active)
    }

    @Test("An empty manifest is a typed error")
    func emptyManifest() throws {
        let error = #expect(throws: ManifestError.self) { try makeProxy([]) }
        #expect(error?.code == .emptyManifest)
        #expect(error?.description.contains("lists no module") == true)
    }

    @Test("A type listed twice, even through two manifests, is a typed error naming it and both manifests")
    func duplicateModule() throws {
        let combined = ModuleManifest(
            name: "App",
            combining: [
                ModuleManifest(name: "Core", [High.self, Low.self]), ModuleManifest(name: "Feature", [High.self]),
            ]
        )
        let error = #expect(throws: ManifestError.self) { try DelegateProxy(manifest: combined) }
        #expect(error?.code == .duplicateModule)
        #expect(error?.modules == [High.moduleName])
        #expect(error?.description.contains("listed by `Core` and `Feature`") == true)
    }

    @Test("Priorities outside the valid range are rejected, naming every offending module")
    func priorityOutOfRange() throws {
        let error = #expect(throws: ManifestError.self) {
            try makeProxy([High.self, HugePriority.self, NegativePriority.self])
        }
        #expect(error?.code == .priorityOutOfRange)
        #expect(error?.modules == [HugePriority.moduleName, NegativePriority.moduleName])
        #expect(error?.description.contains("\(Int.max)") == true)
    }

    @Test("Initializers that throw are all reported, with their errors, and the proxy is not built")
    func initializerFailures() throws {
        let error = #expect(throws: ManifestError.self) {
            try makeProxy([BrokenInit.self, High.self, AlsoBrokenInit.self])
        }
        #expect(error?.code == .moduleInitializationFailed)
        #expect(error?.modules == [BrokenInit.moduleName, AlsoBrokenInit.moduleName])
        #expect(error?.underlyingErrors.count == 2)
        #expect(error?.description.contains("`\(BrokenInit.moduleName)`.init(context:) threw: no database URL") == true)
    }
}
