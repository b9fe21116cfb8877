import LifecycleCore
import LifecycleProxy
import Testing

@Suite("Delivery order")
struct OrderingTests {
    @Test("Forward events go to the delegate, then modules by priority, highest first; ties keep manifest order")
    func priorityOrderWithManifestTieBreak() async throws {
        let script = Script()
        let host = try makeHost(
            [Low.self, NormalB.self, High.self, NormalA.self, Between.self],
            delegate: true,
            script: script
        )
        try await host.launch()

        let expected = ["Delegate", "High", "Between", "NormalB", "NormalA", "Low"]
        #expect(script.journal.receivers(of: "willFinishLaunching") == expected)
        #expect(script.journal.receivers(of: "didFinishLaunching") == expected)
        #expect(script.journal.receivers(of: "didBecomeActive") == expected)
    }

    @Test("Swapping two equal-priority modules in the manifest swaps them in delivery, and nothing else")
    func tieBreakFollowsManifestOrder() async throws {
        let first = try makeProxy([NormalA.self, NormalB.self, High.self])
        let second = try makeProxy([NormalB.self, NormalA.self, High.self])
        #expect(first.plan(for: .didBecomeActive).map(\.name).map(shortName) == ["High", "NormalA", "NormalB"])
        #expect(second.plan(for: .didBecomeActive).map(\.name).map(shortName) == ["High", "NormalB", "NormalA"])
    }

    @Test("Teardown events are the exact mirror: modules lowest priority first, then the delegate")
    func teardownIsMirrored() async throws {
        let script = Script()
        let host = try makeHost([Low.self, NormalB.self, High.self, NormalA.self], delegate: true, script: script)
        try await host.launch()
        try await host.enterBackground()
        try await host.enterForeground()
        try await host.terminate()

        let forward = script.journal.receivers(of: "willFinishLaunching")
        #expect(forward == ["Delegate", "High", "NormalB", "NormalA", "Low"])
        #expect(script.journal.receivers(of: "willResignActive") == forward.reversed())
        #expect(script.journal.receivers(of: "didEnterBackground") == forward.reversed())
        #expect(script.journal.receivers(of: "willTerminate") == forward.reversed())
        #expect(script.journal.receivers(of: "willEnterForeground") == forward)
    }

    @Test("Each transition emits its events in the documented sequence")
    func transitionsEmitDocumentedSequences() async throws {
        let script = Script()
        let host = try makeHost([NormalA.self], script: script)
        try await host.launch()
        try await host.resignActive()
        try await host.becomeActive()
        try await host.resignActive()
        try await host.enterBackground()  // from inactive: no second willResignActive
        try await host.enterForeground()
        try await host.enterBackground()  // from active: resign, then background
        try await host.terminate()
        #expect(
            script.journal.entries.map { $0.split(separator: " ")[0] } == [
                "willFinishLaunching", "didFinishLaunching", "didBecomeActive",
                "willResignActive",
                "didBecomeActive",
                "willResignActive",
                "didEnterBackground",
                "willEnterForeground", "didBecomeActive",
                "willResignActive", "didEnterBackground",
                "willTerminate",
            ]
        )
        #expect(host.state == .terminated)
    }

    @Test("Hooks read the state of the transition: will-events the state left, did-events the state entered")
    func hooksSeeTheirTransitionState() async throws {
        let seen = StateLog()
        var options = LaunchOptions()
        options[StateLogKey.self] = seen
        let host = try ApplicationHost(manifest: ModuleManifest([StateReader.self]), launchOptions: options)
        try await host.launch()
        try await host.enterBackground()
        try await host.enterForeground()
        try await host.terminate()
        #expect(
            seen.entries == [
                "willFinishLaunching launching", "didFinishLaunching launching", "didBecomeActive active",
                "willResignActive active", "didEnterBackground background",
                "willEnterForeground background", "didBecomeActive active",
                "willTerminate terminating",
            ]
        )
    }

    @Test("onDelivery reports every hook call in delivery order, with results for Bool events and errors")
    func deliveryObserverSeesEveryCall() async throws {
        let records = Locked<[String]>([])
        let script = Script(answers: ["High willFinishLaunching": true], failing: ["Low didBecomeActive"])
        let host = try makeHost(
            [Low.self, High.self],
            delegate: true,
            script: script,
            configuration: .init(onDelivery: { record in
                let result = record.result.map { " \($0)" } ?? ""
                let error = record.error == nil ? "" : " threw"
                records.withLock { $0.append("\(record.event) \(shortName(record.participant.name))\(result)\(error)") }
            })
        )
        await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(
            records.withLock { $0 } == [
                "willFinishLaunching Delegate false", "willFinishLaunching High true", "willFinishLaunching Low false",
                "didFinishLaunching Delegate false", "didFinishLaunching High false", "didFinishLaunching Low false",
                "didBecomeActive Delegate", "didBecomeActive High", "didBecomeActive Low threw",
            ]
        )
    }
}

func shortName(_ name: String) -> String {
    String(name.split(separator: ".").last ?? "")
}
