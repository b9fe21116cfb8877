import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Never quarantined, whatever the host's policy.
struct NeverQuarantined: RecordingModule, QuarantinePolicyModule {
    static let priority: ModulePriority = .low
    static let quarantinePolicy: QuarantinePolicy? = nil
    let script: Script
}

/// Depends on ``NormalA``.
struct NeedsNormalA: RecordingModule, DependentModule {
    static let priority: ModulePriority = .low
    static let dependencies: [any LifecycleModule.Type] = [NormalA.self]
    let script: Script
}

@Suite("Quarantine", .timeLimit(.minutes(1)))
struct QuarantineTests {
    private func host(
        _ modules: [any LifecycleModule.Type],
        failing: Set<String>,
        clock: VirtualClock,
        policy: QuarantinePolicy? = QuarantinePolicy(failures: 3, within: .seconds(60))
    ) throws -> (ApplicationHost, Script) {
        var script = Script()
        script.failing = failing
        var configuration = ApplicationHost.Configuration(clock: clock, quarantine: policy)
        configuration.onUnobservedError = { _ in }
        return (try makeHost(modules, script: script, configuration: configuration), script)
    }

    @Test("The third failure within the window quarantines the module: torn down, then it receives nothing")
    func quarantinesAtThreshold() async throws {
        let clock = VirtualClock()
        let (host, script) = try host(
            [High.self, NormalA.self, NeedsNormalA.self],
            failing: ["NormalA didReceiveMemoryWarning"],
            clock: clock
        )
        try await host.launch()
        for _ in 0..<2 { await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() } }
        #expect(host.quarantinedModules.isEmpty)
        #expect(host.participant(for: NormalA.self)?.name == NormalA.moduleName)

        let before = script.journal.entries.count
        await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        try await host.waitUntilIdle()
        // The event completes for everyone; then the module and its dependent leave, dependents first.
        #expect(
            Array(script.journal.entries.dropFirst(before)) == [
                "didReceiveMemoryWarning High", "didReceiveMemoryWarning NormalA",
                "didReceiveMemoryWarning NeedsNormalA",
                "willResignActive NeedsNormalA", "didEnterBackground NeedsNormalA", "willTerminate NeedsNormalA",
                "willResignActive NormalA", "didEnterBackground NormalA", "willTerminate NormalA",
            ]
        )
        #expect(host.quarantinedModules.map(\.module) == [NormalA.moduleName])
        #expect(host.quarantinedModules.first?.reason.hasPrefix("3 failures within 60.0 seconds; the last:") == true)
        #expect(host.participants.map(\.name) == [High.moduleName])
        #expect(host.participant(for: NormalA.self) == nil)
        #expect(host.disabledModules.map(\.reason).first?.hasPrefix("quarantined: 3 failures") == true)
        #expect(host.disabledModules.map(\.name) == [NormalA.moduleName, NeedsNormalA.moduleName])

        let after = script.journal.entries.count
        try await host.receiveMemoryWarning()
        #expect(Array(script.journal.entries.dropFirst(after)) == ["didReceiveMemoryWarning High"])
        let notes = (host.journal?.entries ?? []).filter { $0.note != nil }.map(\.event)
        #expect(notes == ["quarantined", "switchedOff", "switchedOff"])
    }

    @Test("A module removed by the request whose teardown failure crossed its threshold is not quarantined")
    func aRemovedModuleIsNotQuarantined() async throws {
        let clock = VirtualClock()
        let (host, _) = try host(
            [High.self, NormalA.self],
            failing: ["NormalA didReceiveMemoryWarning", "NormalA didEnterBackground"],
            clock: clock,
            policy: QuarantinePolicy(failures: 2, within: .seconds(60))
        )
        try await host.launch()
        await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        // Its teardown's didEnterBackground fails: the second failure, but the module has left.
        await #expect(throws: LifecycleError.self) { try await host.remove(NormalA.self) }
        try await host.waitUntilIdle()
        #expect(host.quarantinedModules.isEmpty)
        #expect(host.disabledModules.isEmpty)
        // Registered again, it is a new instance that counts from zero, and nothing is left to release.
        try await host.register(NormalA.self)
        #expect(host.participant(for: NormalA.self) != nil)
        let error = await #expect(throws: LifecycleError.self) { try await host.releaseQuarantine(NormalA.self) }
        #expect(error?.code == .reconfigurationFailed)
    }

    @Test("A module that failed a little and left leaves no failures behind, however often it comes and goes")
    func departedInstancesAreForgotten() async throws {
        let clock = VirtualClock()
        let (host, _) = try host([High.self, NormalA.self], failing: ["NormalA didReceiveMemoryWarning"], clock: clock)
        try await host.launch()
        for _ in 0..<50 {
            // One failure per instance, under the threshold of five; then it leaves and a new one comes.
            await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
            try await host.remove(NormalA.self)
            try await host.register(NormalA.self)
        }
        try await host.waitUntilIdle()
        #expect(host.quarantinedModules.isEmpty)
        // Before the departed instances were forgotten, the ledger kept all fifty.
        #expect(host.quarantineLedger.participantsWithFailures == 0)
        await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        #expect(host.quarantineLedger.participantsWithFailures == 1)
        try await host.terminate()
    }

    @Test("Failures older than the window do not count (virtual clock)")
    func windowSlides() async throws {
        let clock = VirtualClock()
        let (host, _) = try host([High.self, NormalA.self], failing: ["NormalA didReceiveMemoryWarning"], clock: clock)
        try await host.launch()
        for _ in 0..<10 {
            await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
            await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
            clock.advance(by: .seconds(61))
        }
        try await host.waitUntilIdle()
        #expect(host.quarantinedModules.isEmpty)
        #expect(host.participants.map(\.name) == [High.moduleName, NormalA.moduleName])
    }

    @Test("A module's own policy wins: nil is never; a host policy of nil quarantines nobody")
    func policies() async throws {
        let clock = VirtualClock()
        let (host, _) = try host(
            [High.self, NeverQuarantined.self],
            failing: ["NeverQuarantined didReceiveMemoryWarning"],
            clock: clock
        )
        try await host.launch()
        for _ in 0..<6 { await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() } }
        try await host.waitUntilIdle()
        #expect(host.quarantinedModules.isEmpty)

        let (off, _) = try self.host(
            [High.self, NormalA.self],
            failing: ["NormalA didReceiveMemoryWarning"],
            clock: clock,
            policy: nil
        )
        try await off.launch()
        for _ in 0..<6 { await #expect(throws: LifecycleError.self) { try await off.receiveMemoryWarning() } }
        try await off.waitUntilIdle()
        #expect(off.quarantinedModules.isEmpty)
    }

    @Test("releaseQuarantine brings the module and its dependents back with a catch-up; a reload releases too")
    func release() async throws {
        let clock = VirtualClock()
        let (host, script) = try host(
            [High.self, NormalA.self, NeedsNormalA.self],
            failing: ["NormalA didReceiveMemoryWarning"],
            clock: clock
        )
        try await host.launch()
        for _ in 0..<3 { await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() } }
        try await host.waitUntilIdle()
        #expect(host.quarantinedModules.count == 1)

        await #expect {
            try await host.releaseQuarantine(High.self)
        } throws: { error in
            (error as? LifecycleError)?.code == .reconfigurationFailed
                && "\(error)".contains("quarantined now: \(NormalA.moduleName)")
        }

        let before = script.journal.entries.count
        let changes = try await host.releaseQuarantine(NormalA.self)
        #expect(changes.turnedOn == [NormalA.moduleName, NeedsNormalA.moduleName])
        #expect(
            Array(script.journal.entries.dropFirst(before)) == [
                "willFinishLaunching NormalA", "didFinishLaunching NormalA", "didBecomeActive NormalA",
                "willFinishLaunching NeedsNormalA", "didFinishLaunching NeedsNormalA", "didBecomeActive NeedsNormalA",
            ]
        )
        #expect(host.quarantinedModules.isEmpty && host.disabledModules.isEmpty)

        // Quarantined again, then a reload releases it.
        for _ in 0..<3 { await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() } }
        try await host.waitUntilIdle()
        #expect(host.quarantinedModules.count == 1)
        let reloaded = try await host.reloadModules(nil)
        #expect(reloaded.turnedOn == [NormalA.moduleName, NeedsNormalA.moduleName])
        #expect(host.quarantinedModules.isEmpty)
    }

    @Test("Timeouts count as failures (virtual clock)")
    func timeoutsCount() async throws {
        let clock = VirtualClock()
        var configuration = ApplicationHost.Configuration(
            clock: clock,
            hookBudget: .seconds(1),
            quarantine: QuarantinePolicy(failures: 2, within: .seconds(60))
        )
        configuration.onUnobservedError = { _ in }
        let gate = HangGate()
        var options = LaunchOptions(arguments: ["test"])
        options[HangGateKey.self] = gate
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [HangsOnMemoryWarning.self]),
            launchOptions: options,
            configuration: configuration
        )
        try await host.launch()
        for _ in 0..<2 {
            let warning = Task { try await host.receiveMemoryWarning() }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(2))
            await #expect(throws: LifecycleError.self) { try await warning.value }
        }
        try await host.waitUntilIdle()
        #expect(host.quarantinedModules.map(\.module) == [HangsOnMemoryWarning.moduleName])
        #expect(host.quarantinedModules.first?.lastFailure.contains("budget") == true)
        gate.open()
    }
}

/// Lets hung hooks go at the end of a test.
final class HangGate: Sendable {
    private let state = Locked<(opened: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if !state.opened { state.waiters.append(continuation) }
                return state.opened
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.opened = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

enum HangGateKey: LaunchOptionKey {
    static let defaultValue = HangGate()
}

/// Its memory-warning hook waits until its gate opens.
struct HangsOnMemoryWarning: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .normal
    let gate: HangGate
    init(context: LifecycleContext) { gate = context.launchOptions[HangGateKey.self] }
    func didReceiveMemoryWarning(_ context: LifecycleContext) async { await gate.wait() }
}
