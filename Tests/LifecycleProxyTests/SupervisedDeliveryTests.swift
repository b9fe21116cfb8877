import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Delivery under budgets looks a hook's budget up when the watchdog needs it, and watches mixed
/// budgets exactly.
@Suite("Supervised delivery", .serialized, .timeLimit(.minutes(1)))
struct SupervisedDeliveryTests {
    @Test("Under a host budget, a delivery reads a module's own budget only for the hook being watched")
    func budgetsOnDemand() async throws {
        let script = Script()
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        let host = try ApplicationHost(
            manifest: ModuleManifest(
                name: "Budgets",
                [
                    Counted<TagA>.self, Counted<TagB>.self, Counted<TagC>.self, Counted<TagD>.self,
                    Counted<TagE>.self, Counted<TagF>.self,
                ]
            ),
            launchOptions: options
        )
        try await host.launch()
        BudgetReads.reset()
        try await host.receiveMemoryWarning()
        #expect(script.journal.receivers(of: "didReceiveMemoryWarning").count == 6)
        // One read per wake-up of the watchdog (about one per event); reading all six would be one per hook.
        #expect(BudgetReads.count < 6, "read \(BudgetReads.count) budgets for 6 hooks")
    }

    @Test("With no host budget, a hook without one is watched at the shortest budget of the others")
    func mixedBudgets() async throws {
        let clock = VirtualClock()
        let first = Latch()
        let second = Latch()
        defer {
            first.open()
            second.open()
        }
        let script = Script()
        var options = LaunchOptions()
        options[FirstLatchKey.self] = first
        options[LatchKey.self] = second
        options[ScriptKey.self] = script
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Mixed", [UnbudgetedHanger.self, PatientHanger.self]),
            launchOptions: options,
            configuration: .init(clock: clock, hookBudget: nil, terminateDeadline: nil)
        )
        try await host.launch()
        let warning = Task { try await host.receiveMemoryWarning() }
        // The unbudgeted hook holds first: the watchdog sleeps for the shortest budget, the patient's 10 s.
        await first.waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        first.open()  // at 4 s the patient hook starts, due at 14 s, and holds
        await second.waitUntilEntered()
        clock.advance(by: .seconds(7))  // the watchdog wakes at 11 s and sleeps again until 14 s
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))

        let error = await #expect(throws: LifecycleError.self) { try await warning.value }
        let timeout = try #require(error?.failures.first?.error as? HookTimeout)
        #expect(timeout.participant == PatientHanger.moduleName)
        #expect(timeout.budget == .seconds(10))
        #expect(timeout.elapsed == .seconds(12))
        #expect(await host.degradedModules.map(\.name) == [PatientHanger.moduleName])
    }
}

enum FirstLatchKey: LaunchOptionKey {
    static let defaultValue = Latch()
}

/// Counts `TimeBudgetedModule.budget(for:)` calls of the ``Counted`` modules.
enum BudgetReads {
    private static let reads = Locked(0)
    static func add() { reads.withLock { $0 += 1 } }
    static func reset() { reads.withLock { $0 = 0 } }
    static var count: Int { reads.withLock { $0 } }
}

protocol CountTag: Sendable {}
enum TagA: CountTag {}
enum TagB: CountTag {}
enum TagC: CountTag {}
enum TagD: CountTag {}
enum TagE: CountTag {}
enum TagF: CountTag {}

/// Has its own budget for memory warnings (the host's, 30 s), and counts how often it is asked for it.
struct Counted<Tag: CountTag>: RecordingModule, TimeBudgetedModule {
    static var priority: ModulePriority { .normal }
    static var shortName: String { "Counted" }
    let script: Script
    static func budget(for event: LifecycleEvent) -> Duration? {
        guard event == .didReceiveMemoryWarning else { return nil }
        BudgetReads.add()
        return .seconds(30)
    }
}

/// Holds its memory warning until the first latch opens, with no budget of its own.
struct UnbudgetedHanger: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .maximum
    let latch: Latch
    let script: Script
    init(context: LifecycleContext) {
        latch = context.launchOptions[FirstLatchKey.self]
        script = context.launchOptions[ScriptKey.self]
    }
    func didReceiveMemoryWarning(_ context: LifecycleContext) async {
        script.journal.record("didReceiveMemoryWarning UnbudgetedHanger")
        await latch.hold()
    }
}
