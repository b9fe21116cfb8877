/// What ``LifecycleExploration/run(_:)`` found: how much it explored, and the first broken invariant.
public struct ExplorationReport: Sendable, CustomStringConvertible {
    /// How many lifecycles ran.
    public internal(set) var runs = 0
    /// How many steps they took, closing `terminate()`s included.
    public internal(set) var steps = 0
    /// How many faults were injected into them.
    public internal(set) var injectedFaults = 0
    /// The first run that broke an invariant, shrunk; `nil` when every invariant held.
    public internal(set) var failure: ExplorationFailure?

    /// Whether every invariant held after every step of every run.
    public var holds: Bool { failure == nil }

    public var description: String {
        if let failure { return failure.description }
        return "Every invariant held over \(runs) lifecycles: \(steps) steps, \(injectedFaults) faults injected."
    }
}

/// A run that broke an invariant: its seed, the line that replays it, and the run shrunk.
public struct ExplorationFailure: Sendable, CustomStringConvertible {
    /// The invariant that did not hold; "every step finishes" for a step stuck past
    /// ``LifecycleExploration/stepTimeLimit``.
    public let invariant: String
    /// The run's seed.
    public let seed: UInt64
    /// The shell line that runs this seed alone.
    public let replay: String
    /// The steps of the run as drawn, up to the check that failed.
    public let steps: [ExplorationStep]
    /// The faults injected into it.
    public let faults: [InjectedFaultRecord]
    /// The shortest run found that breaks the same invariant: its steps,
    public let shrunkSteps: [ExplorationStep]
    /// and its faults.
    public let shrunkFaults: [InjectedFaultRecord]
    /// After how many of ``shrunkSteps`` the invariant failed.
    public let failedAfterStep: Int
    /// Whether it failed at the final check, after the closing `terminate()`.
    public let failedAtTheEnd: Bool
    /// How many replays shrinking took.
    public let shrinkingRuns: Int

    init(
        seed: UInt64,
        violation: ExplorationViolation,
        steps: [ExplorationStep],
        faults: [InjectedFaultRecord],
        shrunk: ExplorationShrinker.Shrunk,
        replay: String
    ) {
        self.invariant = violation.invariant
        self.seed = seed
        self.replay = replay
        self.steps = steps
        self.faults = faults
        self.shrunkSteps = shrunk.steps
        self.shrunkFaults = shrunk.faults
        self.failedAfterStep = shrunk.violation.afterStep
        self.failedAtTheEnd = shrunk.violation.isFinal
        self.shrinkingRuns = shrunk.runs
    }

    public var description: String {
        let when = failedAtTheEnd ? "at the end" : "after step \(failedAfterStep)"
        var lines = [
            "Invariant \"\(invariant)\" failed \(when) of seed \(LifecycleExploration.hex(seed)).",
            "Replay: \(replay)",
            "Shrunk from \(Self.count(steps.count, "step")) and \(Self.count(faults.count, "fault")) to "
                + "\(Self.count(shrunkSteps.count, "step")) and \(Self.count(shrunkFaults.count, "fault")) "
                + "(\(Self.count(shrinkingRuns, "replay"))):",
        ]
        for (index, step) in shrunkSteps.enumerated() {
            lines.append("  \(index + 1). \(step)")
            for fault in shrunkFaults where fault.step == index + 1 {
                lines.append("       fault: \(fault)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
