import LifecycleCore
import LifecycleRouting

/// `--enforce-budgets` and `--budget-scale`, which `run` and `serve` take: whether a module over its
/// launch budget (`LaunchBudgetedModule`) fails the command, and what every budget is multiplied by.
public struct LaunchBudgetOptions: Sendable, Hashable {
    /// `--enforce-budgets`: a module over its budget makes the command exit 5.
    public var enforce: Bool
    /// `--budget-scale`, else `LIFECYCLE_BUDGET_SCALE`: every budget times this; `nil` for 1.
    public var scale: Double?

    /// The options that choose it, declared by ``RunCommand`` and ``ServeCommand``.
    static let declared: [RouteCommand.Option] = [
        .init("enforce-budgets", summary: "exit 5 when a module took longer to launch than its launch budget"),
        .init(
            "budget-scale",
            value: "FACTOR",
            summary: "every launch budget times FACTOR, for a slower machine; default LIFECYCLE_BUDGET_SCALE or 1"
        ),
    ]

    /// The exit code of a command whose modules went over their launch budgets under `--enforce-budgets`.
    public static let exceededExitCode: Int32 = 5

    /// No enforcement, budgets as declared.
    public init(enforce: Bool = false, scale: Double? = nil) {
        self.enforce = enforce
        self.scale = scale
    }

    /// The options of a parsed command line.
    init(parameters: RouteParameters) throws(RouteError) {
        enforce = try parameters.flag("enforce-budgets")
        scale = try parameters.get("budget-scale", as: Double.self)
    }

    /// The scale in force: `--budget-scale`, else `LIFECYCLE_BUDGET_SCALE` in `environment`, else 1.
    ///
    /// - Throws: ``LaunchBudgetError`` (`invalidScale`) for a scale that is not a positive number, naming
    ///   where it came from.
    func resolvedScale(environment: [String: String]) throws(LaunchBudgetError) -> Double {
        let (value, source): (Double?, String)
        if let scale {
            (value, source) = (scale, "--budget-scale")
        } else if let text = environment["LIFECYCLE_BUDGET_SCALE"] {
            (value, source) = (Double(text), "LIFECYCLE_BUDGET_SCALE=\(text)")
        } else {
            return 1
        }
        guard let value, value > 0, value.isFinite else {
            throw LaunchBudgetError(
                .invalidScale,
                problem: "\(source) is not a positive number",
                fix: "give a factor such as 2 (every budget doubled), or leave it out for the declared budgets"
            )
        }
        return value
    }
}

extension LifecycleDemo {
    /// Prints how each module with a launch budget did. Under `enforce`, returns
    /// ``LaunchBudgetOptions/exceededExitCode`` when one went over, or 1 when the report cannot be made;
    /// otherwise `nil`.
    static func checkLaunchBudgets(
        of host: ApplicationHost,
        scale: Double,
        enforce: Bool,
        console: DemoConsole
    ) -> Int32? {
        let report: LaunchBudgetReport
        do {
            report = try host.launchBudgetReport(scale: scale)
        } catch {
            console.write("\(enforce ? "error" : "warning"): \(error)")
            return enforce ? 1 : nil
        }
        for line in report.description.split(separator: "\n") { console.write("  \(line)") }
        guard enforce, !report.overruns.isEmpty else { return nil }
        let names = report.overruns.map { $0.module.split(separator: ".").last.map(String.init) ?? $0.module }
        console.write(
            "error: --enforce-budgets: \(names.joined(separator: ", ")) took longer to launch than "
                + (names.count == 1 ? "its budget; " : "their budgets; ")
                + "make its launch hooks faster, raise its launchBudget, or give a slower machine --budget-scale"
        )
        return LaunchBudgetOptions.exceededExitCode
    }
}
