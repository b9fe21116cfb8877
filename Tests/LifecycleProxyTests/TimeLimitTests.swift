import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Holds a hook until opened — ignoring cancellation entirely, like a hook stuck in a blocking call.
final class Latch: Sendable {
    private let state = Locked<(entered: Int, open: Bool, waiters: [CheckedContinuation<Void, Never>])>((0, false, []))

    func hold() async {
        await withCheckedContinuation { continuation in
            let resume = state.withLock { state in
                state.entered += 1
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    func waitUntilEntered() async {
        while state.withLock({ $0.entered }) == 0 { await Task.yield() }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

enum LatchKey: LaunchOptionKey {
    static let defaultValue = Latch()
}

/// Hangs in memory warnings and in willTerminate, and records the others in the script.
struct Hanger: LifecycleModule, DidReceiveMemoryWarning, WillTerminate, DidBecomeActive {
    static let priority: ModulePriority = .high
    let latch: Latch
    let script: Script
    init(context: LifecycleContext) {
        latch = context.launchOptions[LatchKey.self]
        script = context.launchOptions[ScriptKey.self]
    }
    func didBecomeActive(_ context: LifecycleContext) {}
    func didReceiveMemoryWarning(_ context: LifecycleContext) async {
        script.journal.record("didReceiveMemoryWarning Hanger")
        await latch.hold()
    }
    func willTerminate(_ context: LifecycleContext) async {
        script.journal.record("willTerminate Hanger")
        await latch.hold()
    }
}

/// Like Hanger, but with its own 10 s budget for memory warnings.
struct PatientHanger: LifecycleModule, TimeBudgetedModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .high
    let latch: Latch
    init(context: LifecycleContext) { latch = context.launchOptions[LatchKey.self] }
    static func budget(for event: LifecycleEvent) -> Duration? {
        event == .didReceiveMemoryWarning ? .seconds(10) : nil
    }
    func didReceiveMemoryWarning(_ context: LifecycleContext) async { await latch.hold() }
}

@Suite("Time limits", .timeLimit(.minutes(1)))
struct TimeLimitTests {
    struct Setup {
        let host: ApplicationHost
        let clock: VirtualClock
        let latch: Latch
        let script: Script

        /// Once a hook is held and the watchdog is asleep, moves the virtual clock by `duration`.
        func advanceWhileHeld(by duration: Duration) async {
            await latch.waitUntilEntered()
            await clock.waitForSleepers(1)
            clock.advance(by: duration)
        }
    }

    func setup(
        _ modules: [any LifecycleModule.Type],
        configure: (inout ApplicationHost.Configuration) -> Void = { _ in }
    ) throws -> Setup {
        let clock = VirtualClock()
        let latch = Latch()
        let script = Script()
        var configuration = ApplicationHost.Configuration(clock: clock, hookBudget: .seconds(1))
        configure(&configuration)
        var options = LaunchOptions()
        options[LatchKey.self] = latch
        options[ScriptKey.self] = script
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", modules),
            launchOptions: options,
            configuration: configuration
        )
        return Setup(host: host, clock: clock, latch: latch, script: script)
    }

    @Test("Under .degrade a hook past its budget is reported, its module degraded, and the others still served")
    func degrade() async throws {
        let setup = try setup([Hanger.self, NormalA.self])
        defer { setup.latch.open() }
        try await setup.host.launch()
        let warning = Task { try await setup.host.receiveMemoryWarning() }
        await setup.advanceWhileHeld(by: .seconds(2))

        let error = await #expect(throws: LifecycleError.self) { try await warning.value }
        #expect(error?.code == .hookFailed)
        let timeout = try #require(error?.failures.first?.error as? HookTimeout)
        #expect(timeout.participant == Hanger.moduleName)
        #expect(timeout.event == .didReceiveMemoryWarning)
        #expect(timeout.budget == .seconds(1))
        #expect(timeout.elapsed == .seconds(2))
        #expect(error?.description.contains("exceeded its 1.0 seconds budget in didReceiveMemoryWarning") == true)
        #expect(setup.script.journal.receivers(of: "didReceiveMemoryWarning") == ["Hanger", "NormalA"])
        #expect(await setup.host.degradedModules.map(\.name) == [Hanger.moduleName])
        #expect(setup.host.state == .active)
        // The journal records the timeout too.
        let last = try #require(setup.host.journal?.entries.last { $0.participant == Hanger.moduleName })
        #expect(last.error?.contains("exceeded") == true)
    }

    @Test("Under .fail the request stops at the slow hook: later participants receive nothing")
    func fail() async throws {
        let setup = try setup([Hanger.self, NormalA.self]) { $0.timeoutPolicy = .fail }
        defer { setup.latch.open() }
        try await setup.host.launch()
        let warning = Task { try await setup.host.receiveMemoryWarning() }
        await setup.advanceWhileHeld(by: .seconds(2))

        let error = await #expect(throws: LifecycleError.self) { try await warning.value }
        #expect(error?.code == .timedOut)
        #expect(error?.failures.first?.error is HookTimeout)
        #expect(setup.script.journal.receivers(of: "didReceiveMemoryWarning") == ["Hanger"])
    }

    @Test("A custom event's handler past its budget is reported, and the handlers after it still answer")
    func customEventHandlerTimeout() async throws {
        let setup = try setup([KnockHanger.self, KnockAnswerer.self])
        defer { setup.latch.open() }
        try await setup.host.launch()
        let knock = Task { try await setup.host.send(Knock()) }
        await setup.advanceWhileHeld(by: .seconds(2))

        let error = await #expect(throws: LifecycleError.self) { try await knock.value }
        #expect(error?.code == .hookFailed)
        #expect(error?.result == true, "KnockAnswerer's answer is kept: the hung handler does not hide it")
        let timeout = try #require(error?.failures.first?.error as? HookTimeout)
        #expect(timeout.participant == KnockHanger.moduleName)
        #expect(timeout.event == LifecycleEvent(custom: Knock.self))
        #expect(setup.script.journal.receivers(of: "Knock") == ["KnockHanger", "KnockAnswerer"])
        let records = setup.host.journal?.entries.filter { $0.event == "Knock" } ?? []
        #expect(records.map { shortName($0.participant) } == ["KnockHanger", "KnockAnswerer"])
        #expect(records.first?.error?.contains("exceeded") == true)
        #expect(records.last?.result == true)
    }

    @Test("A module's own budget overrides the host's")
    func moduleBudget() async throws {
        let setup = try setup([PatientHanger.self])
        defer { setup.latch.open() }
        try await setup.host.launch()
        let warning = Task { try await setup.host.receiveMemoryWarning() }
        await setup.advanceWhileHeld(by: .seconds(2))  // past the host's 1 s, within the module's 10 s
        await setup.clock.waitForSleepers(1)  // the watchdog went back to sleep: no timeout
        setup.clock.advance(by: .seconds(9))
        let error = await #expect(throws: LifecycleError.self) { try await warning.value }
        let timeout = try #require(error?.failures.first?.error as? HookTimeout)
        #expect(timeout.budget == .seconds(10))
        #expect(timeout.elapsed == .seconds(11))
    }

    @Test("A per-event budget in the configuration overrides the host default")
    func eventBudget() async throws {
        let setup = try setup([Hanger.self]) { $0.eventBudgets[.didReceiveMemoryWarning] = .seconds(5) }
        defer { setup.latch.open() }
        try await setup.host.launch()
        let warning = Task { try await setup.host.receiveMemoryWarning() }
        await setup.advanceWhileHeld(by: .seconds(6))
        let error = await #expect(throws: LifecycleError.self) { try await warning.value }
        #expect((error?.failures.first?.error as? HookTimeout)?.budget == .seconds(5))
    }

    @Test("terminate() has an overall deadline: a hanging willTerminate cannot keep the host alive")
    func terminateDeadline() async throws {
        // No per-hook budget: only the deadline bounds terminate.
        let setup = try setup([Low.self, Hanger.self, NormalA.self]) {
            $0.hookBudget = nil
            $0.terminateDeadline = .seconds(5)
        }
        defer { setup.latch.open() }
        try await setup.host.launch()
        let terminate = Task { try await setup.host.terminate() }
        await setup.advanceWhileHeld(by: .seconds(5))

        let error = await #expect(throws: LifecycleError.self) { try await terminate.value }
        #expect(error?.code == .deadlineExceeded)
        // Reverse order: Low, NormalA, then Hanger (highest) — Low and NormalA finished; Hanger hung.
        #expect(setup.script.journal.receivers(of: "willTerminate") == ["Low", "NormalA", "Hanger"])
        #expect(error?.abandoned.map { shortName($0.name) } == ["Hanger"])
        #expect(setup.host.state == .terminated)
    }

    @Test("Participants after the hung one at the deadline are abandoned and listed")
    func deadlineAbandonsTheRest() async throws {
        let setup = try setup([HangerLow.self, NormalA.self, High.self]) {
            $0.hookBudget = nil
            $0.terminateDeadline = .seconds(5)
        }
        defer { setup.latch.open() }
        try await setup.host.launch()
        let terminate = Task { try await setup.host.terminate() }
        await setup.advanceWhileHeld(by: .seconds(5))
        let error = await #expect(throws: LifecycleError.self) { try await terminate.value }
        #expect(error?.abandoned.map { shortName($0.name) } == ["HangerLow", "NormalA", "High"])
        #expect(setup.script.journal.receivers(of: "willTerminate") == ["HangerLow"])
    }

    @Test("With no budget and no deadline, delivery is direct and unsupervised")
    func unlimited() async throws {
        let setup = try setup([NormalA.self]) {
            $0.hookBudget = nil
            $0.terminateDeadline = nil
        }
        try await setup.host.launch()
        try await setup.host.terminate()
        #expect(setup.clock.totalSleepCalls == 0, "no watchdog ever ran: delivery took the direct path")
        #expect(setup.script.journal.receivers(of: "willTerminate") == ["NormalA"])
    }

    @Test("A hook finishing as its budget expires: every participant still gets every event exactly once")
    func noDoubleDeliveryAtTheBoundary() async throws {
        // Real time here, on purpose: the race is between a real hook and a real timer.
        let script = Script()
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        let host = try ApplicationHost(
            manifest: ModuleManifest([Racer.self, NormalA.self, NormalB.self]),
            launchOptions: options,
            // No quarantine: the racing module times out often, and must still receive every warning. The tight
            // budget is the warnings' only: launch must not race it.
            configuration: .init(
                hookBudget: nil,
                eventBudgets: [.didReceiveMemoryWarning: .microseconds(300)],
                quarantine: nil
            )
        )
        try await host.launch()
        let rounds = 200
        for _ in 0..<rounds { _ = try? await host.receiveMemoryWarning() }
        // Every participant received every warning exactly once, timed out or not.
        for name in ["Racer", "NormalA", "NormalB"] {
            #expect(
                script.journal.receivers(of: "didReceiveMemoryWarning").filter { $0 == name }.count == rounds,
                "\(name)"
            )
        }
    }
}

/// Busy for a moment, then returns: races a tight budget.
struct Racer: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .normal
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
    func didReceiveMemoryWarning(_ context: LifecycleContext) async throws {
        script.journal.record("didReceiveMemoryWarning Racer")
        try? await Task.sleep(for: .microseconds(300))
    }
}

/// A Hanger at the lowest priority: first to receive willTerminate. Records when its hook returns.
struct HangerLow: LifecycleModule, WillTerminate {
    static let priority: ModulePriority = .minimum
    let latch: Latch
    let script: Script
    init(context: LifecycleContext) {
        latch = context.launchOptions[LatchKey.self]
        script = context.launchOptions[ScriptKey.self]
    }
    func willTerminate(_ context: LifecycleContext) async {
        script.journal.record("willTerminate HangerLow")
        await latch.hold()
        script.journal.record("finished HangerLow")
    }
}

/// A custom Bool event for the time-limit tests.
struct Knock: CustomEvent {
    typealias Result = Bool
}

/// Handles `Knock` by hanging until the latch opens.
struct KnockHanger: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .high
    let latch: Latch
    let script: Script
    init(context: LifecycleContext) {
        latch = context.launchOptions[LatchKey.self]
        script = context.launchOptions[ScriptKey.self]
    }
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Knock.self) { module, _, _ in
            module.script.journal.record("Knock KnockHanger")
            await module.latch.hold()
            return false
        }
    }
}

/// Handles `Knock` by answering `true`.
struct KnockAnswerer: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .normal
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Knock.self) { module, _, _ in
            module.script.journal.record("Knock KnockAnswerer")
            return true
        }
    }
}
