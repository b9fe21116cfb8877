/// Why ``ApplicationHost/launchBudgetReport(scale:)`` cannot say whether launch kept to its budgets.
public struct LaunchBudgetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is missing.
    public enum Code: String, Sendable, Hashable {
        /// The host keeps no journal (`journalCapacity` is 0), so launch was not timed.
        case journalOff
        /// The journal dropped entries, so some launch hook calls are gone.
        case journalOverflowed
        /// Launch, or a warm-up that runs after it, is not over.
        case launchInProgress
        /// The scale is not a positive finite number.
        case invalidScale
    }

    /// What is missing.
    public let code: Code
    /// What is wrong, naming the host state, the capacity or the value.
    public let problem: String
    /// How to fix it.
    public let fix: String

    package init(_ code: Code, problem: String, fix: String) {
        self.code = code
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "launch budgets (\(code.rawValue)): \(problem): \(fix)" }
}
