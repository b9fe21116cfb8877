public import LifecycleCore
public import Testing

/// Checks that every module with a launch budget (`LaunchBudgetedModule`) kept to it in the launch
/// `host` ran, from the host's own report (`ApplicationHost.launchBudgetReport(scale:)`).
///
/// ```swift
/// try await host.launch()
/// try await host.waitUntilReady()
/// expectWithinLaunchBudgets(host, scale: 3)  // a shared CI machine gets three times the budgets
/// ```
///
/// One issue for each module over its budget, naming the module, the time it took and its budget, with
/// the whole report; one issue, with the fix, when the report cannot be made (no journal, a journal that
/// dropped entries, launch not over). `Docs/Hosting.md`, "Launch budgets", says how to keep such a test
/// from flaking.
///
/// - Returns: The report, for further checks; `nil` when it could not be made.
@discardableResult
public func expectWithinLaunchBudgets(
    _ host: ApplicationHost,
    scale: Double = 1,
    sourceLocation: SourceLocation = #_sourceLocation
) -> LaunchBudgetReport? {
    let report: LaunchBudgetReport
    do {
        report = try host.launchBudgetReport(scale: scale)
    } catch {
        Issue.record(Comment(rawValue: "\(error)"), sourceLocation: sourceLocation)
        return nil
    }
    for row in report.overruns {
        Issue.record(
            Comment(rawValue: "\(row.module) exceeded its launch budget: \(row)\n\(report)"),
            sourceLocation: sourceLocation
        )
    }
    return report
}
