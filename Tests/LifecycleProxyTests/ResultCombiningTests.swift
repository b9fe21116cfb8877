import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

@Suite("Combined results and responds(to:)")
struct ResultCombiningTests {
    static let url = URL(string: "demo://x")!

    /// Every combination of two implementers' answers, with a non-implementer between them.
    static let truthTable: [(first: Bool, second: Bool, combined: Bool)] = [
        (false, false, false),
        (false, true, true),
        (true, false, true),
        (true, true, true),
    ]

    @Test("open-URL is the OR of every implementer's answer, and every implementer is called", arguments: truthTable)
    func openURLIsOrCombinedWithoutShortCircuit(first: Bool, second: Bool, combined: Bool) async throws {
        let script = Script(answers: ["High openURL": first, "Low openURL": second])
        let proxy = try makeProxy([High.self, Silent.self, Low.self], script: script)

        let outcome = await proxy.openDirectly(Self.url)

        #expect(outcome.result == combined)
        #expect(outcome.delivered == 2)
        // No short-circuit: Low is called even when High already handled the URL.
        #expect(script.journal.receivers(of: "openURL") == ["High", "Low"])
    }

    @Test("Launch events are OR-combined the same way", arguments: truthTable)
    func launchIsOrCombined(first: Bool, second: Bool, combined: Bool) async throws {
        let script = Script(answers: [
            "High willFinishLaunching": first, "Low willFinishLaunching": second,
            "High didFinishLaunching": second, "Low didFinishLaunching": first,
        ])
        let host = try makeHost([High.self, Silent.self, Low.self], script: script)
        let result = try await host.launch()
        #expect(result == LaunchResult(willFinishLaunching: combined, didFinishLaunching: combined))
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["High", "Low"])
    }

    @Test("The delegate's answer counts like a module's")
    func delegateAnswerCounts() async throws {
        let script = Script(answers: ["Delegate openURL": true])
        let host = try makeHost([Low.self], delegate: true, script: script)
        try await host.launch()
        #expect(try await host.open(Self.url) == true)
        #expect(script.journal.receivers(of: "openURL") == ["Delegate", "Low"])
    }

    @Test("When nobody implements an event, the default applies: launch true, open-URL false")
    func defaultsWhenNobodyImplements() async throws {
        let host = try makeHost([Silent.self])
        #expect(try await host.launch() == LaunchResult(willFinishLaunching: true, didFinishLaunching: true))
        #expect(try await host.open(Self.url) == false)

        let proxy = try makeProxy([Silent.self])
        let outcome = await proxy.openDirectly(Self.url)
        #expect(outcome.result == false)
        #expect(outcome.delivered == 0)
    }

    @Test("Non-implementers are not called and do not count")
    func nonImplementersDoNotCount() async throws {
        let script = Script(answers: ["URLOnly openURL": false])
        let proxy = try makeProxy([Silent.self, URLOnly.self], script: script)
        #expect(proxy.plan(for: .openURL).map { shortName($0.name) } == ["URLOnly"])
        #expect(proxy.plan(for: .didBecomeActive).isEmpty)
        // URLOnly answered false: the result is false, not the "nobody implements" default.
        let outcome = await proxy.openDirectly(Self.url)
        #expect(outcome.result == false)
        #expect(outcome.delivered == 1)
        // A launch event nobody implements keeps its default (true), even with modules present.
        let launch = await proxy.deliverDirectly(.willFinishLaunching)
        #expect(launch.result == true)
        #expect(launch.delivered == 0)
    }

    @Test("responds(to:) is true exactly when the delegate or at least one module implements the event")
    func respondsToMatchesImplementers() throws {
        let onlyModule = try makeProxy([Silent.self, URLOnly.self])
        let onlyDelegate = try makeProxy([Silent.self], delegate: MemoryWarningDelegate())
        let nobody = try makeProxy([Silent.self])
        let everyone = try makeProxy([High.self], delegate: MemoryWarningDelegate())

        // The fixtures implement every built-in event except the launch stages (see StageTests).
        let stages: [LifecycleEvent] = [.setup, .initialize, .warmUp]
        for event in LifecycleEvent.builtinEvents where !stages.contains(event) {
            #expect(onlyModule.responds(to: event) == (event == .openURL), "\(event)")
            #expect(onlyDelegate.responds(to: event) == (event == .didReceiveMemoryWarning), "\(event)")
            #expect(nobody.responds(to: event) == false, "\(event)")
            #expect(everyone.responds(to: event) == true, "\(event)")
        }
        #expect(onlyModule.responds(to: LifecycleEvent(custom: Ping.self)) == false)
    }
}
