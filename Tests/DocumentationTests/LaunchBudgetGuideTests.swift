import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

// README: launch-budget-module
struct SearchIndexModule: LifecycleModule, LaunchBudgetedModule, SetupStage {
    static let priority: ModulePriority = .normal
    static let launchBudget: Duration = .milliseconds(200)

    init(context: LifecycleContext) {}

    func setUp(_ context: LifecycleContext) {
        // map the index file…
    }
}
// README: end

@Suite("Docs/Hosting.md launch budget examples")
struct LaunchBudgetGuideTests {
    // README: launch-budget-test
    @Test func launchKeepsToItsBudgets() async throws {
        let host = try ApplicationHost(manifest: ModuleManifest(name: "Shop", [SearchIndexModule.self]))
        try await host.launch()
        try await host.waitUntilReady()  // a warm-up that runs after launch counts too, once it is over
        // Three times the budgets on a shared CI machine: a regression guard, not a stopwatch.
        let report = expectWithinLaunchBudgets(host, scale: 3)
        #expect(report?.rows.map(\.module) == [SearchIndexModule.moduleName])
        try await host.terminate()
    }
    // README: end
}
