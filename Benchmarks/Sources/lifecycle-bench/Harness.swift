import CAllocationCounter
import SyntheticModules

/// Times one repetition's measured region, and counts its heap allocations when asked.
///
/// A case calls ``begin()`` and ``end()`` around the part it measures, as often as it needs: the lifecycle
/// cases build a fresh host between the two, outside the measured region.
final class Meter {
    /// The measured time so far.
    private(set) var elapsed: Duration = .zero
    /// The allocations counted so far; only when ``countsAllocations`` is set.
    private(set) var allocations: UInt64 = 0
    /// Whether ``begin()`` and ``end()`` count heap allocations as well.
    let countsAllocations: Bool
    private var began: ContinuousClock.Instant?

    init(countsAllocations: Bool = false) {
        self.countsAllocations = countsAllocations
    }

    /// Starts the measured region.
    @inline(__always)
    func begin() {
        if countsAllocations { allocation_counter_begin() }
        began = ContinuousClock.now
    }

    /// Ends the measured region.
    @inline(__always)
    func end() {
        let now = ContinuousClock.now
        if countsAllocations { allocations += allocation_counter_end() }
        if let began { elapsed += began.duration(to: now) }
        began = nil
    }
}

/// One system measured at one N: what it is, and how to run it.
struct BenchCase {
    let system: System
    /// The modules one repetition reaches.
    let modules: Int
    /// The hook calls one repetition must make, checked before anything is measured; `nil` when the
    /// count is not exact (concurrent warm-up) or not applicable.
    let expectedTicks: Int?
    /// Runs `iterations` repetitions, calling the meter around the measured parts.
    let measure: (_ meter: Meter, _ iterations: Int) async -> Void
}

/// How long and how often the harness measures.
struct HarnessSettings {
    /// Round-robin rounds: each round measures every case once, in a rotated order.
    var rounds: Int
    /// The least time one sample should take; the harness picks iterations to reach it.
    var sampleTarget: Duration
    /// Repetitions counted for the allocation figures, at most.
    var allocationRepetitions: Int
}

/// The statistics of one case.
struct Measurement: Codable {
    let system: String
    let label: String
    let group: String
    let modules: Int
    /// Repetitions per sample.
    let iterations: Int
    /// The very first repetition in the process: cold caches, first-time metadata and conformance lookups.
    let firstNanoseconds: Double
    /// The fastest sample, per repetition: the stable statistic on a noisy machine.
    let minNanoseconds: Double
    /// The median sample, per repetition.
    let medianNanoseconds: Double
    /// Every sample, per repetition, in round order.
    let samplesNanoseconds: [Double]
    /// Heap allocations per repetition, in steady state; `nil` when this build cannot count them.
    let allocationsPerRepetition: Double?

    var minPerModule: Double { minNanoseconds / Double(modules) }
    var medianPerModule: Double { medianNanoseconds / Double(modules) }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Measures `cases` round-robin: every case once per round, so a slow moment of the machine spreads over
/// all cases instead of landing on one.
///
/// 1. Each case runs once, cold; its hook count is checked.
/// 2. Each case's iterations are chosen so one sample takes at least `sampleTarget`.
/// 3. `rounds` rounds; round r starts at case r, so no case is always first or last.
/// 4. Steady-state allocations are counted in a separate pass, outside the timed samples.
func measureRoundRobin(
    _ cases: [BenchCase],
    settings: HarnessSettings,
    progress: (String) -> Void
) async
    -> [Measurement]
{
    var first: [Double] = []
    for benchCase in cases {
        HookTally.reset()
        let meter = Meter()
        await benchCase.measure(meter, 1)
        first.append(meter.elapsed.nanoseconds)
        if let expected = benchCase.expectedTicks, HookTally.count != expected {
            fatalError(
                "\(benchCase.system.id) at N=\(benchCase.modules) made \(HookTally.count) hook calls, "
                    + "expected \(expected): the case does not reach every module"
            )
        }
    }

    var iterations: [Int] = []
    for benchCase in cases {
        var count = 1
        while true {
            let meter = Meter()
            await benchCase.measure(meter, count)
            if meter.elapsed >= settings.sampleTarget || count >= 1 << 24 { break }
            let scale = settings.sampleTarget.nanoseconds / max(meter.elapsed.nanoseconds, 1)
            count = max(count * 2, Int((Double(count) * scale * 1.1).rounded(.up)))
        }
        iterations.append(count)
    }

    var samples = Array(repeating: [Double](), count: cases.count)
    for round in 0..<settings.rounds {
        for offset in cases.indices {
            let index = (round + offset) % cases.count
            let meter = Meter()
            await cases[index].measure(meter, iterations[index])
            samples[index].append(meter.elapsed.nanoseconds / Double(iterations[index]))
        }
        progress("round \(round + 1)/\(settings.rounds)")
    }

    var allocations: [Double?] = []
    for (index, benchCase) in cases.enumerated() {
        guard allocation_counter_available() != 0 else {
            allocations.append(nil)
            continue
        }
        let repetitions = max(1, min(iterations[index], settings.allocationRepetitions))
        let meter = Meter(countsAllocations: true)
        await benchCase.measure(meter, repetitions)
        allocations.append(Double(meter.allocations) / Double(repetitions))
    }

    return cases.indices.map { index in
        let sorted = samples[index].sorted()
        return Measurement(
            system: cases[index].system.id,
            label: cases[index].system.label,
            group: cases[index].system.group.rawValue,
            modules: cases[index].modules,
            iterations: iterations[index],
            firstNanoseconds: first[index],
            minNanoseconds: sorted.first ?? .nan,
            medianNanoseconds: sorted.isEmpty ? .nan : sorted[sorted.count / 2],
            samplesNanoseconds: samples[index],
            allocationsPerRepetition: allocations[index]
        )
    }
}

/// Checks that the allocation counter really sees allocations made inside the Swift runtime, which
/// calls malloc from its own shared library.
func allocationCounterWorks() -> Bool {
    guard allocation_counter_available() != 0 else { return false }
    final class Probe {}
    allocation_counter_begin()
    let probes = (0..<8).map { _ in Probe() }
    let counted = allocation_counter_end()
    withExtendedLifetime(probes) {}
    return counted >= 8
}
