/// Makes a failing run shorter: takes steps away, then faults, one at a time, keeping each removal after
/// which the same invariant still fails, until none can go or ``maximumRuns`` replays have run.
struct ExplorationShrinker {
    /// What the shrinker ended with.
    struct Shrunk: Sendable {
        var steps: [ExplorationStep]
        var faults: [InjectedFaultRecord]
        var violation: ExplorationViolation
        /// How many replays it ran.
        var runs: Int
        /// Whether the run failed again when replayed with its faults listed; if not, nothing was shrunk.
        var reproduced: Bool
    }

    static let maximumRuns = 300

    private let exploration: LifecycleExploration
    private let original: ExplorationRun.Result
    private let violation: ExplorationViolation

    init(_ exploration: LifecycleExploration, result: ExplorationRun.Result, violation: ExplorationViolation) {
        self.exploration = exploration
        self.original = result
        self.violation = violation
    }

    func shrink() async -> Shrunk {
        var best = Shrunk(
            steps: original.steps,
            faults: original.injected,
            violation: violation,
            runs: 0,
            reproduced: false
        )
        var faults = Dictionary(original.injected.map { ($0.call, $0.kind) }, uniquingKeysWith: { first, _ in first })
        var steps = original.steps
        guard let first = await replay(steps, faults, &best.runs) else { return best }
        best.reproduced = true
        record(first, into: &best)

        var changed = true
        while changed, best.runs < Self.maximumRuns {
            changed = false
            var index = 0
            while index < steps.count, best.runs < Self.maximumRuns {
                var fewer = steps
                fewer.remove(at: index)
                // Steps count from 1 in the faults' calls.
                let kept = Dictionary(
                    faults.compactMap { call, kind in call.without(step: index + 1).map { ($0, kind) } },
                    uniquingKeysWith: { first, _ in first }
                )
                if let result = await replay(fewer, kept, &best.runs) {
                    steps = fewer
                    faults = kept
                    record(result, into: &best)
                    changed = true
                } else {
                    index += 1
                }
            }
            // Only the faults the last failing replay injected still matter.
            faults = faults.filter { entry in best.faults.contains { $0.call == entry.key } }
            for call in faults.keys.sorted() where best.runs < Self.maximumRuns {
                var fewer = faults
                fewer[call] = nil
                if let result = await replay(steps, fewer, &best.runs) {
                    faults = fewer
                    record(result, into: &best)
                    changed = true
                }
            }
        }
        return best
    }

    private func record(_ result: ExplorationRun.Result, into best: inout Shrunk) {
        best.steps = result.steps
        best.faults = result.injected
        if let violation = result.violation { best.violation = violation }
    }

    /// Replays `steps` with exactly `faults`; the result when the same invariant fails again.
    private func replay(
        _ steps: [ExplorationStep],
        _ faults: [InjectedFaultRecord.Call: InjectedFaultRecord.Kind],
        _ runs: inout Int
    ) async -> ExplorationRun.Result? {
        runs += 1
        let schedule = FaultSchedule(.exactly(faults))
        guard
            let result = try? await ExplorationRun(exploration, script: .exactly(steps), faults: schedule).run(),
            result.violation?.invariant == violation.invariant
        else { return nil }
        return result
    }
}
