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
    /// Every case at every N of the module rows.
    let results: [Measurement]
    /// The numbers of routes the matching rows were measured at.
    let routeSizes: [Int]
    /// The inputs they matched: `all`, `hits` or `misses`.
    let routeInputs: String
    /// How many inputs one repetition of a matching row matches: its times and allocations are per pass.
    let routeInputsPerRepetition: Int
    /// The routing rows: `modules` is the number of routes for matching, of interceptors for the chain.
    let routing: [Measurement]
    /// The numbers of concurrent tasks the scope rows were measured at.
    let scopeTasks: [Int]
    /// The scope rows: `modules` is the number of concurrent tasks; times and allocations are per request.
    let scopes: [Measurement]
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
        if group == .work, sizes.count > 1 {
            out += workGrowthMarkdown(systems, table: table, sizes: sizes)
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

    out += routingMarkdown(report)
    out += scopeMarkdown(report)

    if !report.results.isEmpty {
        out += "\n### Heap allocations (\(report.allocationCounting))\n\n"
        out += "Per event for dispatch, per build or lifecycle otherwise; steady state, after the timed rounds.\n\n"
        out += header + rule
    }
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

/// The work rows' growth from each N measured to the next, min / median, under their table.
func workGrowthMarkdown(_ systems: [System], table: ResultTable, sizes: [Int]) -> String {
    let steps = zip(sizes, sizes.dropFirst()).map { ($0, $1) }
    var out = "\nGrowth of the time from one N to the next (min / median):\n\n"
    out += "| system | " + steps.map { "N=\(grouped($0.0)) → \(grouped($0.1))" }.joined(separator: " | ") + " |\n"
    out += "|---|" + steps.map { _ in "---:|" }.joined() + "\n"
    for system in systems {
        out += "| \(system.label) |"
        for (small, large) in steps {
            guard let from = table.find(system, small), let to = table.find(system, large) else {
                out += " – |"
                continue
            }
            let min = to.minNanoseconds / from.minNanoseconds
            let median = to.medianNanoseconds / from.medianNanoseconds
            out += " \(significant(min))× / \(significant(median))× |"
        }
        out += "\n"
    }
    return out
}

/// The routing section: matching at each route size with the ratios and the growth, then the chain, then
/// their allocations. Empty when the run measured no routing row.
func routingMarkdown(_ report: RunReport) -> String {
    let sizes = report.routeSizes
    let table = ResultTable(results: report.routing, sizes: sizes)
    guard !report.routing.isEmpty else { return "" }
    /// One repetition of a matching row is a pass over the inputs; the tables show one match.
    let perMatch = Double(max(1, report.routeInputsPerRepetition))
    func cell(_ m: Measurement?, per divisor: Double = 1) -> String {
        m.map { " \(significant($0.minNanoseconds / divisor)) / \(significant($0.medianNanoseconds / divisor)) |" }
            ?? " – |"
    }
    func ratioCell(_ ratio: (min: Double, median: Double)?) -> String {
        ratio.map { " *\(significant($0.min))× / \(significant($0.median))×* |" } ?? " – |"
    }
    let comparisons = Comparison.all.filter { $0.numerator.group.isRouting }
    var out = ""

    let matching = System.all.filter { system in
        system.group == .routeMatch && sizes.contains { table.find(system, $0) != nil }
    }
    if !matching.isEmpty {
        let smallest = sizes.min() ?? 0
        let largest = sizes.max() ?? 0
        let growthHeader = largest > smallest ? " N=\(grouped(largest)) ÷ N=\(grouped(smallest)) |" : ""
        out += "\n### \(Group.routeMatch.title)\n\nInputs: "
        let inputs: String =
            switch report.routeInputs {
            case RouteTable.Inputs.hits.rawValue: "\(RouteTable.hitCount) hits spread over the table"
            case RouteTable.Inputs.misses.rawValue: "\(RouteTable.missCount) misses"
            default: "\(RouteTable.hitCount) hits spread over the table, and \(RouteTable.missCount) misses"
            }
        out += inputs + ".\n\n"
        out += "| system | " + sizes.map { "N=\(grouped($0))" }.joined(separator: " | ") + " |\(growthHeader)\n"
        out += "|---|" + sizes.map { _ in "---:|" }.joined() + (growthHeader.isEmpty ? "" : "---:|") + "\n"
        for system in matching {
            out += "| \(system.label) |" + sizes.map { cell(table.find(system, $0), per: perMatch) }.joined()
            if !growthHeader.isEmpty {
                let growth = table.find(system, smallest).flatMap { small in
                    table.find(system, largest).map {
                        (
                            min: $0.minNanoseconds / small.minNanoseconds,
                            median: $0.medianNanoseconds / small.medianNanoseconds
                        )
                    }
                }
                out += ratioCell(growth)
            }
            out += "\n"
        }
        for comparison in comparisons where comparison.numerator.group == .routeMatch {
            guard sizes.contains(where: { table.ratio(comparison.numerator, comparison.denominator, $0) != nil })
            else { continue }
            out += "| *\(comparison.label)* |"
            out += sizes.map { ratioCell(table.ratio(comparison.numerator, comparison.denominator, $0)) }.joined()
            out += growthHeader.isEmpty ? "\n" : " |\n"
        }
    }

    let interceptors = chainInterceptors.count
    let chain = System.all.filter { $0.group == .routeChain && table.find($0, interceptors) != nil }
    if !chain.isEmpty {
        out += "\n### \(Group.routeChain.title)\n\n| system | min / median | heap allocations per opening |\n"
        out += "|---|---:|---:|\n"
        for system in chain {
            let m = table.find(system, interceptors)
            out += "| \(system.label) |\(cell(m))"
            out += " \(m?.allocationsPerRepetition.map(significant) ?? "–") |\n"
        }
        for comparison in comparisons where comparison.numerator.group == .routeChain {
            guard let ratio = table.ratio(comparison.numerator, comparison.denominator, interceptors) else { continue }
            out += "| *\(comparison.label)* |\(ratioCell(ratio)) |\n"
        }
    }

    if report.routing.contains(where: { $0.group == Group.routeMatch.rawValue && $0.allocationsPerRepetition != nil }) {
        out += "\n### Heap allocations per match (\(report.allocationCounting))\n\n"
        out += "| system | " + sizes.map { "N=\(grouped($0))" }.joined(separator: " | ") + " |\n"
        out += "|---|" + sizes.map { _ in "---:|" }.joined() + "\n"
        for system in matching {
            out += "| \(system.label) |"
            for n in sizes {
                let allocations = table.find(system, n)?.allocationsPerRepetition.map { significant($0 / perMatch) }
                out += " \(allocations ?? "–") |"
            }
            out += "\n"
        }
    }
    return out
}

/// The scope section: ns per request at each number of concurrent tasks, the ratios, and the heap allocations
/// per request. Empty when the run measured no scope row.
func scopeMarkdown(_ report: RunReport) -> String {
    guard !report.scopes.isEmpty else { return "" }
    let tasks = report.scopeTasks
    let table = ResultTable(results: report.scopes, sizes: tasks)
    let systems = System.all.filter { system in
        system.group == .scopeRequest && tasks.contains { table.find(system, $0) != nil }
    }
    func columns(_ cell: (Int) -> String) -> String { tasks.map(cell).joined() + "\n" }
    let header =
        "| system | " + tasks.map(tasksLabel).joined(separator: " | ") + " |\n"
        + "|---|" + tasks.map { _ in "---:|" }.joined() + "\n"
    var out = "\n### \(Group.scopeRequest.title)\n\n"
    out += "Wall time per request, each task looping its share of the requests; min / median.\n\n" + header
    for system in systems {
        out += "| \(system.label) |"
        out += columns { n in
            table.find(system, n).map {
                " \(significant($0.minNanoseconds)) / \(significant($0.medianNanoseconds)) |"
            } ?? " – |"
        }
    }
    for comparison in Comparison.all where comparison.numerator.group == .scopeRequest {
        guard tasks.contains(where: { table.ratio(comparison.numerator, comparison.denominator, $0) != nil })
        else { continue }
        out += "| *\(comparison.label)* |"
        out += columns { n in
            table.ratio(comparison.numerator, comparison.denominator, n).map {
                " *\(significant($0.min))× / \(significant($0.median))×* |"
            } ?? " – |"
        }
    }
    if report.scopes.contains(where: { $0.allocationsPerRepetition != nil }) {
        out += "\nHeap allocations per request (\(report.allocationCounting)), steady state, after the timed "
        out += "rounds. With more than one task, the count includes what the freshly spawned tasks allocate for "
        out += "their own frames, spread over the few requests counted; one task spawns none.\n\n" + header
        for system in systems {
            out += "| \(system.label) |"
            out += columns { n in " \(table.find(system, n)?.allocationsPerRepetition.map(significant) ?? "–") |" }
        }
    }
    return out
}
