/// A module that declares how much launch time it may take: the total of its launch hooks
/// (`willFinishLaunching`, `setup`, `initialize`, `warmUp`, `didFinishLaunching`).
///
/// ```swift
/// struct SearchIndexModule: LifecycleModule, LaunchBudgetedModule, WarmUpStage {
///     static let priority: ModulePriority = .normal
///     static let launchBudget: Duration = .milliseconds(200)
///     …
/// }
/// ```
///
/// A launch budget stops nothing. It is a target that ``ApplicationHost/launchBudgetReport(scale:)``
/// checks once launch is through, so a team keeps launch time in check: `lifecycle-demo plan` shows it,
/// the launch profile flags a module over it, `lifecycle-demo serve --enforce-budgets` refuses to serve,
/// and the test kit's `expectWithinLaunchBudgets(_:scale:)` fails a test. A hook that must not run
/// longer than some time is a different thing, with a different tool: ``TimeBudgetedModule`` gives a hook
/// a budget past which the host abandons it.
///
/// `Docs/Hosting.md`, "Launch budgets", says how to use budgets in CI without flaky timing.
public protocol LaunchBudgetedModule: LifecycleModule {
    /// The most time this module's launch hooks may take together, measured by the host's journal.
    static var launchBudget: Duration { get }
}
