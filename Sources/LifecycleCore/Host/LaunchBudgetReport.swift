/// How the modules with a launch budget (``LaunchBudgetedModule``) did in the launch that ran:
/// ``ApplicationHost/launchBudgetReport(scale:)`` makes one.
///
/// ```swift
/// try await host.launch()
/// try await host.waitUntilReady()
/// let report = try host.launchBudgetReport()
/// for row in report.overruns { print(row) }  // "SearchIndexModule: 312.0 ms of its 200.0 ms launch budget"
/// ```
public struct LaunchBudgetReport: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One module with a launch budget.
    public struct Row: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The module's module-qualified type name.
        public let module: String
        /// Its declared budget, in milliseconds.
        public let budgetMilliseconds: Double
        /// The budget it was held to: the declared one times the report's ``LaunchBudgetReport/scale``.
        public let allowedMilliseconds: Double
        /// The time its launch hooks took together, in milliseconds (a hook abandoned on a timeout counts
        /// the time until it was abandoned).
        public let spentMilliseconds: Double
        /// How many launch hook calls that was.
        public let calls: Int

        /// Whether it took longer than it was allowed.
        public var isOver: Bool { spentMilliseconds > allowedMilliseconds }

        public var description: String {
            let name = module.split(separator: ".").last.map(String.init) ?? module
            let verdict = isOver ? "over" : "within"
            return "\(name): \(milliseconds(spentMilliseconds)) of its \(milliseconds(allowedMilliseconds)) "
                + "launch budget (\(verdict))"
        }
    }

    /// The modules with a launch budget, in delivery order.
    public let rows: [Row]
    /// What every budget was multiplied by: 1 unless the caller allowed a slower machine more.
    public let scale: Double

    /// The rows over their budget.
    public var overruns: [Row] { rows.filter(\.isOver) }

    public var description: String {
        guard !rows.isEmpty else { return "no module declares a launch budget" }
        let over = overruns.count
        let head = over == 0 ? "every module within its launch budget" : "\(over) of \(rows.count) modules over budget"
        let scaled = scale == 1 ? "" : " (budgets × \(scale))"
        return ([head + scaled + ":"] + rows.map { "  \($0)" }).joined(separator: "\n")
    }
}

extension ApplicationHost {
    /// How each module with a launch budget (``LaunchBudgetedModule``) did in the launch that ran: the
    /// time its launch hooks took together, from the ``journal``, against its budget times `scale`.
    ///
    /// Call it once launch is over: after `launch()`, and after ``waitUntilReady(file:line:)`` when the
    /// warm-up runs after launch. Modules registered later count their catch-up launch hooks.
    ///
    /// - Parameter scale: What every budget is multiplied by, to allow a slower machine more: 2 gives every
    ///   module twice its budget. 1 by default.
    /// - Throws: ``LaunchBudgetError`` when the answer cannot be known: no journal, a journal that dropped
    ///   entries, launch not over, or a scale that is not a positive number.
    public nonisolated func launchBudgetReport(scale: Double = 1) throws(LaunchBudgetError) -> LaunchBudgetReport {
        guard scale > 0, scale.isFinite else {
            throw LaunchBudgetError(
                .invalidScale,
                problem: "the scale is \(scale)",
                fix: "pass a positive number, such as 1 (budgets as declared) or 2 (twice the time)"
            )
        }
        guard let journal else {
            throw LaunchBudgetError(
                .journalOff,
                problem: "the host keeps no journal (journalCapacity is 0), so launch hooks were not timed",
                fix: "build the host with a journalCapacity above the number of launch hook calls"
            )
        }
        let dispatcher = self.dispatcher
        let participants = dispatcher.participants
        let state = self.state
        // After termination began, the report is about the launch that ran, whatever readiness says now.
        let waiting = state.isRunning ? readiness.notReady(among: participants.map(\.id)) : []
        guard state != .notRunning, state != .launching, waiting.isEmpty else {
            let names = participants.filter { waiting.contains($0.id) }.map(\.name)
            let what =
                state.isRunning
                ? "warm-up is still running for \(names.joined(separator: ", "))" : "the host is \(state)"
            throw LaunchBudgetError(
                .launchInProgress,
                problem: what,
                fix: "ask once launch() returned and waitUntilReady() returned"
            )
        }
        guard journal.droppedCount == 0 else {
            throw LaunchBudgetError(
                .journalOverflowed,
                problem: "the journal dropped its \(journal.droppedCount) oldest entries, launch hook calls among them",
                fix: "raise journalCapacity above \(journal.capacity), or ask right after launch"
            )
        }
        let profile = journal.profile(for: Set(HostStateMachine.launchEvents))
        let spent = Dictionary(profile.map { ($0.participant, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = participants.compactMap { participant -> LaunchBudgetReport.Row? in
            guard let budget = dispatcher.launchBudget(of: participant) else { return nil }
            let used = spent[participant.name]
            return LaunchBudgetReport.Row(
                module: participant.name,
                budgetMilliseconds: budget.milliseconds,
                allowedMilliseconds: budget.milliseconds * scale,
                spentMilliseconds: used?.total.milliseconds ?? 0,
                calls: used?.calls ?? 0
            )
        }
        return LaunchBudgetReport(rows: rows, scale: scale)
    }
}

extension Duration {
    /// The duration in milliseconds.
    package var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

/// `12.5 ms`, with one decimal.
private func milliseconds(_ value: Double) -> String {
    "\((value * 10).rounded() / 10) ms"
}
