import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Sleeps 30 ms in `setUp` against a 1 ms launch budget: over, whatever the machine.
private struct SlowSetup: LifecycleModule, LaunchBudgetedModule, SetupStage, DidFinishLaunching {
    static let priority: ModulePriority = .high
    static let launchBudget: Duration = .milliseconds(1)
    init(context: LifecycleContext) {}
    func setUp(_ context: LifecycleContext) async throws { try await Task.sleep(for: .milliseconds(30)) }
    func didFinishLaunching(_ context: LifecycleContext) -> Bool { false }
}

/// Does nothing, within a minute's budget: within, whatever the machine.
private struct QuickWithBudget: LifecycleModule, LaunchBudgetedModule, WillFinishLaunching {
    static let priority: ModulePriority = .normal
    static let launchBudget: Duration = .seconds(60)
    init(context: LifecycleContext) {}
    func willFinishLaunching(_ context: LifecycleContext) -> Bool { false }
}

/// No budget: not in the report.
private struct Unbudgeted: LifecycleModule, WillFinishLaunching {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func willFinishLaunching(_ context: LifecycleContext) -> Bool { false }
}

/// Warms up until the latch opens, after launch.
private struct HeldWarmUp: LifecycleModule, LaunchBudgetedModule, WarmUpStage {
    static let priority: ModulePriority = .normal
    static let launchBudget: Duration = .seconds(60)
    let latch: Latch
    init(context: LifecycleContext) { latch = context.launchOptions[LatchKey.self] }
    func warmUp(_ context: LifecycleContext) async throws { await latch.hold() }
}

@Suite("Launch budgets", .timeLimit(.minutes(1)))
struct LaunchBudgetTests {
    private func host(
        _ modules: [any LifecycleModule.Type],
        configure: (inout ApplicationHost.Configuration) -> Void = { _ in }
    ) throws -> ApplicationHost {
        var configuration = ApplicationHost.Configuration()
        configure(&configuration)
        return try ApplicationHost(manifest: ModuleManifest(name: "Tests", modules), configuration: configuration)
    }

    @Test("The report lists each budgeted module in delivery order, its launch time against its budget")
    func report() async throws {
        let host = try host([Unbudgeted.self, QuickWithBudget.self, SlowSetup.self])
        try await host.launch()
        let report = try host.launchBudgetReport()
        #expect(report.rows.map(\.module) == [SlowSetup.moduleName, QuickWithBudget.moduleName])
        let slow = try #require(report.rows.first)
        #expect(slow.spentMilliseconds >= 30)
        #expect(slow.budgetMilliseconds == 1)
        #expect(slow.calls == 2)  // setup and didFinishLaunching; didBecomeActive is after launch
        #expect(slow.isOver)
        #expect(report.overruns.map(\.module) == [SlowSetup.moduleName])
        #expect(report.rows.last?.calls == 1)
        #expect(report.description.hasPrefix("1 of 2 modules over budget:"))
        #expect(report.description.contains("SlowSetup: "))
    }

    @Test("A scale gives every module that many times its budget")
    func scale() async throws {
        let host = try host([SlowSetup.self])
        try await host.launch()
        let report = try host.launchBudgetReport(scale: 60_000)  // 60 s for a 30 ms setup
        #expect(report.rows.first?.allowedMilliseconds == 60_000)
        #expect(report.overruns.isEmpty)
        #expect(report.description.hasPrefix("every module within its launch budget (budgets × 60000.0):"))
    }

    @Test("The test kit's assertion records one issue per module over its budget, none within")
    func assertion() async throws {
        let over = try host([SlowSetup.self, QuickWithBudget.self])
        try await over.launch()
        withKnownIssue {
            expectWithinLaunchBudgets(over)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("\(SlowSetup.moduleName) exceeded its launch budget") == true
        }
        let within = try host([QuickWithBudget.self, Unbudgeted.self])
        try await within.launch()
        let report = expectWithinLaunchBudgets(within)
        #expect(report?.rows.count == 1)
    }

    @Test("No journal, launch not over, a bad scale and an overflowed journal are typed errors with a fix")
    func errors() async throws {
        let unlaunched = try host([QuickWithBudget.self])
        #expect(throws: LaunchBudgetError.self) { try unlaunched.launchBudgetReport() }
        do {
            _ = try unlaunched.launchBudgetReport()
        } catch {
            #expect(error.code == .launchInProgress)
            #expect(error.problem == "the host is notRunning")
        }

        let journalOff = try host([QuickWithBudget.self]) { $0.journalCapacity = 0 }
        try await journalOff.launch()
        #expect(
            throws: LaunchBudgetError(
                .journalOff,
                problem: "the host keeps no journal (journalCapacity is 0), so launch hooks were not timed",
                fix: "build the host with a journalCapacity above the number of launch hook calls"
            )
        ) { try journalOff.launchBudgetReport() }

        let small = try host([QuickWithBudget.self, Unbudgeted.self, SlowSetup.self]) { $0.journalCapacity = 2 }
        try await small.launch()
        #expect { try small.launchBudgetReport() } throws: { ($0 as? LaunchBudgetError)?.code == .journalOverflowed }

        for scale in [0, -1, Double.nan, .infinity] {
            #expect { try small.launchBudgetReport(scale: scale) } throws: {
                ($0 as? LaunchBudgetError)?.code == .invalidScale
            }
        }
    }

    @Test("A warm-up still running after launch makes the report wait for waitUntilReady()")
    func backgroundWarmUp() async throws {
        let latch = Latch()
        defer { latch.open() }
        var options = LaunchOptions()
        options[LatchKey.self] = latch
        var configuration = ApplicationHost.Configuration()
        configuration.didFinishLaunchingWaitsForWarmUp = false
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [HeldWarmUp.self]),
            launchOptions: options,
            configuration: configuration
        )
        try await host.launch()
        await latch.waitUntilEntered()
        #expect {
            try host.launchBudgetReport()
        } throws: {
            let error = $0 as? LaunchBudgetError
            return error?.code == .launchInProgress && error?.problem.contains(HeldWarmUp.moduleName) == true
        }
        latch.open()
        try await host.waitUntilReady()
        let report = try host.launchBudgetReport()
        #expect(report.rows.map(\.calls) == [1])
        #expect(report.overruns.isEmpty)
    }

    @Test("The explained plan shows a module's launch budget in launch events only")
    func plan() throws {
        let host = try host([QuickWithBudget.self, Unbudgeted.self, SlowSetup.self])
        let launch = host.explainPlan(for: .willFinishLaunching)
        #expect(launch.steps.map(\.launchBudgetMilliseconds) == [60_000, nil])
        #expect(launch.steps.first?.description.hasSuffix("[launch budget 60000.0 ms]") == true)
        let setup = host.explainPlan(for: .setup)
        #expect(setup.steps.map(\.launchBudgetMilliseconds) == [1])
        #expect(host.explainPlan(for: .willTerminate).steps.allSatisfy { $0.launchBudgetMilliseconds == nil })
        let json = String(decoding: try JSONEncoder().encode(launch), as: UTF8.self)
        #expect(json.contains("\"launchBudgetMilliseconds\":60000"))
    }
}
