// The scope rows' targets and CI's smoke checks over them. N is the number of concurrent tasks.

/// The target: beginning, activating and ending a scope with ten global actions and a composed
/// behavior of three at most 3× the hand-written loop calling the same hooks, at every number of tasks
/// measured (judged on the default end budget, what `withScopes(actions:)` gives; the row without a budget
/// is listed beside it); and at most 2 heap allocations per scope, counted with one task.
func evaluateScopeTargets(_ table: ResultTable) -> [TargetCheck] {
    guard !table.results.isEmpty else { return [] }
    var checks: [TargetCheck] = []
    func listed(_ system: System) -> [(Int, Double)] {
        table.sizes.compactMap { n in table.ratio(system, .scopeHand, n).map { (n, $0.min) } }
    }
    func text(_ ratios: [(Int, Double)]) -> String {
        ratios.map { "\(tasksLabel($0.0)) \(significant($0.1))×" }.joined(separator: ", ")
    }

    let ratioName = "scope begin + activate + end, 10 actions + 3 behaviors, vs by hand, every task count"
    let budgeted = listed(.scopeDefaultBudget)
    if budgeted.isEmpty {
        checks.append(notMeasuredScope(ratioName, "≤ 3× (min)"))
    } else {
        let unbudgeted = listed(.scopeNoBudget)
        checks.append(
            TargetCheck(
                name: ratioName,
                requirement: "≤ 3× (min)",
                measured: "default budget: \(text(budgeted))"
                    + (unbudgeted.isEmpty ? "" : "; endBudget nil: \(text(unbudgeted))"),
                met: budgeted.allSatisfy { $0.1 <= 3 }
            )
        )
    }

    let allocationName = "heap allocations per scope, one task"
    let allocations = [System.scopeDefaultBudget, .scopeNoBudget].compactMap { system in
        table.find(system, 1)?.allocationsPerRepetition.map { (system, $0) }
    }
    if allocations.isEmpty {
        checks.append(notMeasuredScope(allocationName, "≤ 2 per scope"))
    } else {
        let hand = table.find(.scopeHand, 1)?.allocationsPerRepetition.map { "; by hand: \(significant($0))" } ?? ""
        checks.append(
            TargetCheck(
                name: allocationName,
                requirement: "≤ 2 per scope",
                measured: allocations.map { "\($0.0.id): \(significant($0.1))" }.joined(separator: ", ") + hand,
                met: allocations.allSatisfy { $0.1 <= 2 }
            )
        )
    }
    return checks
}

/// "1 task", "16 tasks".
func tasksLabel(_ tasks: Int) -> String { tasks == 1 ? "1 task" : "\(grouped(tasks)) tasks" }

private func notMeasuredScope(_ name: String, _ requirement: String) -> TargetCheck {
    TargetCheck(name: name, requirement: requirement, measured: "not measured in this run", met: nil)
}

/// The systems the scope smoke checks measure; quick mode measures only these.
let scopeSmokeSystems: [System] = [.scopeDefaultBudget, .scopeNoBudget, .scopeHand]

/// A scope row and the largest ratio of its minimum to the hand-written loop's allowed, at one task and at
/// the most tasks measured. The rows measured 2.95–3.1× on 2026-11-25 (the target is 3×); 6× is about twice
/// that, so a 2× regression fails.
private let scopeRatioLimits: [(System, Double)] = [(.scopeDefaultBudget, 6), (.scopeNoBudget, 6)]

/// The most heap allocations per scope the smoke check allows, with one task: twice the target's 2.
private let scopeAllocationLimit = 4.0

/// CI's scope smoke checks, on the minima:
///
/// - each library row against the hand-written loop, at one task and at the most tasks measured: at most
///   6×, where the target is 3× (see `scopeRatioLimits`);
/// - heap allocations per scope with one task: at most 4, where the target is 2.
func scopeSmokeChecks(_ table: ResultTable) -> [TargetCheck] {
    scopeSmokeResults(table).map(\.check)
}

/// The systems of the scope smoke checks that failed in `table`, to measure again.
func failingScopeSmokeSystems(_ table: ResultTable) -> Set<String> {
    var systems: Set<String> = []
    for result in scopeSmokeResults(table) where result.check.met == false {
        systems.formUnion(result.systems.map(\.id))
    }
    return systems
}

/// Every scope smoke check, with the systems it measures.
private func scopeSmokeResults(_ table: ResultTable) -> [(check: TargetCheck, systems: [System])] {
    var results: [(check: TargetCheck, systems: [System])] = []
    let judged = Set([table.sizes.min(), table.sizes.max()].compactMap { $0 }).sorted()
    for (system, limit) in scopeRatioLimits {
        let ratios = judged.compactMap { n in table.ratio(system, .scopeHand, n).map { (n, $0.min) } }
        guard !ratios.isEmpty else { continue }
        let check = TargetCheck(
            name: "smoke: \(system.id) vs \(System.scopeHand.id)",
            requirement: "≤ \(significant(limit))× at \(judged.map(tasksLabel).joined(separator: " and ")) (min)",
            measured: ratios.map { "\(tasksLabel($0.0)) \(significant($0.1))×" }.joined(separator: ", "),
            met: ratios.allSatisfy { $0.1 <= limit }
        )
        results.append((check, [system, .scopeHand]))
    }
    for (system, _) in scopeRatioLimits {
        guard let allocations = table.find(system, 1)?.allocationsPerRepetition else { continue }
        let check = TargetCheck(
            name: "smoke: \(system.id) heap allocations per scope, 1 task",
            requirement: "≤ \(significant(scopeAllocationLimit))",
            measured: significant(allocations),
            met: allocations <= scopeAllocationLimit
        )
        results.append((check, [system]))
    }
    return results
}
