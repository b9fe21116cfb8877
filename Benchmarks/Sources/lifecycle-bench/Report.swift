import Foundation

/// Everything one run measured, as written to JSON.
struct RunReport: Codable {
    struct Machine: Codable {
        let processors: Int
        let cpuModel: String
        let toolchain: String
        let operatingSystem: String
    }

    let date: String
    let mode: String
    let rounds: Int
    let sampleTargetMicroseconds: Double
    let machine: Machine
    let allocationCounting: String
    /// Every case at every N.
    let results: [Measurement]
    let targets: [TargetCheck]
    let smokeChecks: [TargetCheck]
}

/// A target of the issue, or one of CI's smoke checks, against what was measured.
struct TargetCheck: Codable {
    let name: String
    let requirement: String
    let measured: String
    /// `nil` when the run did not measure what the target needs (quick mode, or a missing trait).
    let met: Bool?
}

/// Looks up measurements by system and N.
struct ResultTable {
    let results: [Measurement]
    let sizes: [Int]

    func find(_ system: System, _ n: Int) -> Measurement? {
        results.first { $0.system == system.id && $0.modules == n }
    }

    /// `numerator ÷ denominator` from the minima and from the medians.
    func ratio(_ numerator: System, _ denominator: System, _ n: Int) -> (min: Double, median: Double)? {
        guard let top = find(numerator, n), let bottom = find(denominator, n) else { return nil }
        return (top.minNanoseconds / bottom.minNanoseconds, top.medianNanoseconds / bottom.medianNanoseconds)
    }
}

// MARK: - Formatting

/// `1,000`.
func grouped(_ n: Int) -> String {
    let digits = String(n)
    var out = ""
    for (offset, character) in digits.enumerated() {
        if offset > 0, (digits.count - offset) % 3 == 0 { out += "," }
        out.append(character)
    }
    return out
}

/// Three significant digits, without exponent: `0.0123`, `1.23`, `123`, `12345`.
func significant(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : magnitude >= 0.1 ? 3 : 4
    return String(format: "%.\(decimals)f", value)
}

// MARK: - Markdown

/// The Markdown report: one table per group, the ratios, allocations, and the targets.
func markdown(_ report: RunReport, sizes: [Int]) -> String {
    let table = ResultTable(results: report.results, sizes: sizes)
    let header = "| system | " + sizes.map { "N=\(grouped($0))" }.joined(separator: " | ") + " |\n"
    let rule = "|---|" + sizes.map { _ in "---:|" }.joined() + "\n"
    var out = "Run \(report.date), \(report.mode) mode, \(report.rounds) round-robin rounds, "
    out += "samples of at least \(significant(report.sampleTargetMicroseconds / 1_000)) ms. "
    out += "\(report.machine.processors) CPUs (\(report.machine.cpuModel)), \(report.machine.operatingSystem). "
    out += "\(report.machine.toolchain).\n\nEach cell is **min / median**"
    out += " over the rounds. Ratios divide the minima, then the medians.\n"

    for group in Group.allCases {
        let systems = System.all.filter { system in
            system.group == group && sizes.contains { table.find(system, $0) != nil }
        }
        guard !systems.isEmpty else { continue }
        out += "\n### \(group.title)\n\n" + header + rule
        for system in systems {
            out += "| \(system.label) |"
            for n in sizes {
                guard let m = table.find(system, n) else {
                    out += " – |"
                    continue
                }
                if group.perModule {
                    out += " \(significant(m.minPerModule)) / \(significant(m.medianPerModule)) |"
                } else {
                    out += " \(significant(m.minNanoseconds / 1e6)) / \(significant(m.medianNanoseconds / 1e6)) |"
                }
            }
            out += "\n"
        }
        let comparisons = Comparison.all.filter { $0.numerator.group == group }
        for comparison in comparisons {
            guard sizes.contains(where: { table.ratio(comparison.numerator, comparison.denominator, $0) != nil })
            else { continue }
            out += "| *\(comparison.label)* |"
            for n in sizes {
                if let ratio = table.ratio(comparison.numerator, comparison.denominator, n) {
                    out += " *\(significant(ratio.min))× / \(significant(ratio.median))×* |"
                } else {
                    out += " – |"
                }
            }
            out += "\n"
        }
        if group == .build {
            out += "| *first build in the process (cold caches), generic, all hooks: ms* |"
            for n in sizes {
                let first = table.find(.buildNumbered, n).map { significant($0.firstNanoseconds / 1e6) } ?? "–"
                out += " \(first) |"
            }
            out += "\n"
            if generatedModulesAvailable {
                out += "| *first build in the process (cold caches), generated: ms* |"
                for n in sizes {
                    let first = table.find(.buildGenerated, n).map { significant($0.firstNanoseconds / 1e6) } ?? "–"
                    out += " \(first) |"
                }
                out += "\n"
            }
        }
    }

    out += "\n### Heap allocations (\(report.allocationCounting))\n\n"
    out += "Per event for dispatch, per build or lifecycle otherwise; steady state, after the timed rounds.\n\n"
    out += header + rule
    for system in System.all {
        guard sizes.contains(where: { table.find(system, $0)?.allocationsPerRepetition != nil }) else { continue }
        out += "| \(system.label) |"
        for n in sizes {
            let value = table.find(system, n)?.allocationsPerRepetition
            out += " \(value.map(significant) ?? "–") |"
        }
        out += "\n"
    }

    out += "\n### Targets\n\n| target | requirement | measured | met |\n|---|---|---|---|\n"
    for check in report.targets + report.smokeChecks {
        let verdict = check.met.map { $0 ? "yes" : "**no**" } ?? "not measured"
        out += "| \(check.name) | \(check.requirement) | \(check.measured) | \(verdict) |\n"
    }
    return out
}
