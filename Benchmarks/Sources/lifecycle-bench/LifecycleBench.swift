import Foundation
import SyntheticModules

/// `lifecycle-bench`: measures ModuleLifecycle's fan-out, proxy build and whole lifecycle against
/// hand-written loops, NotificationCenter and swift-service-lifecycle, its routing against Hummingbird's
/// router trie and a hand-written chain, and its request scopes against the same hooks called by hand, and
/// prints a Markdown report.
///
///     lifecycle-bench [--quick] [--rounds R] [--sizes 10,100] [--route-sizes 100,10000] [--scope-tasks 1,16]
///                     [--plot FILE.svg] [--json FILE] [--markdown FILE] [--only ID,...]
///
/// `--quick` (CI) measures N up to 1,000 for a few rounds and exits 1 if a smoke check fails: the proxy's
/// dispatch more than 5× its hand-written limit, or the build, the lifecycle, work, routing or scopes past
/// their limits (`smokeChecks`, `routingSmokeChecks`, `scopeSmokeChecks`). Otherwise the exit status is 0 whatever
/// the targets say.
@main
struct LifecycleBench {
    static func main() async {
        let options: Options
        do {
            options = try Options(CommandLine.arguments.dropFirst())
        } catch {
            FileHandle.standardError.write(Data("lifecycle-bench: \(error)\n\n\(Options.usage)\n".utf8))
            exit(64)
        }
        if options.help {
            print(Options.usage)
            return
        }
        let passed = await run(options)
        exit(passed ? 0 : 1)
    }

    /// Measures every size, reports, and tells whether the smoke checks passed (always true outside quick
    /// mode, where nothing fails the run).
    nonisolated static func run(_ options: Options) async -> Bool {
        let started = ContinuousClock.now
        let includeGenerated = generatedModulesAvailable && !options.quick
        guard generatedTypesMatchTheGraph() else {
            fatalError("the generated module types do not follow SyntheticGraph: regenerate them")
        }
        let counting = allocationCounterWorks()
        // Build the type tables before anything is timed.
        _ = SyntheticCatalog.numbered.count + SyntheticCatalog.lean.count + SyntheticCatalog.serviceNumbers.count

        var results: [Measurement] = []
        // The module rows, unless `--only` names routing or scope rows alone.
        let moduleSizes = options.selects { !$0.group.hasOwnSizes } ? options.sizes : []
        for n in moduleSizes {
            log("N=\(grouped(n)): building fixtures")
            let fixture = Fixture(count: n)
            let cases = makeCases(fixture, includeGenerated: includeGenerated, only: options.only, quick: options.quick)
            log("N=\(grouped(n)): \(cases.count) cases, \(options.settings.rounds) rounds")
            results += await measureRoundRobin(cases, settings: options.settings) { log("N=\(grouped(n)): \($0)") }
            fixture.tearDown()
        }

        var routing = await measureRouting(options, systems: routingSystems(options))
        var scopes = await measureScopes(options, systems: scopeSystems(options))

        if options.quick {
            results = await remeasureFailingSmokeChecks(results, options, includeGenerated: includeGenerated)
            routing = await remeasureFailingRoutingChecks(routing, options)
            scopes = await remeasureFailingScopeChecks(scopes, options)
        }

        let table = ResultTable(results: results, sizes: options.sizes)
        let routingTable = ResultTable(results: routing, sizes: options.routeSizes)
        let scopeTable = ResultTable(results: scopes, sizes: options.scopeTasks)
        let report = RunReport(
            date: ISO8601DateFormatter().string(from: Date()),
            mode: options.quick ? "quick" : "full",
            rounds: options.settings.rounds,
            sampleTargetMicroseconds: options.settings.sampleTarget.nanoseconds / 1e3,
            machine: MachineDescription.current(),
            allocationCounting: counting
                ? "counted by interposing malloc, calloc, realloc and the aligned allocators"
                : "not counted: this platform has no malloc interposer",
            results: results,
            routeSizes: options.routeSizes,
            routeInputs: options.routeInputs.rawValue,
            routeInputsPerRepetition: RouteTable.inputCount(options.routeInputs),
            routing: routing,
            scopeTasks: options.scopeTasks,
            scopes: scopes,
            targets: (results.isEmpty ? [] : evaluateTargets(table)) + evaluateRoutingTargets(routingTable)
                + evaluateScopeTargets(scopeTable),
            smokeChecks: smokeChecks(table) + routingSmokeChecks(routingTable) + scopeSmokeChecks(scopeTable)
        )
        let text = markdown(report, sizes: options.sizes)
        print(text)
        do {
            if let path = options.markdownPath { try text.write(toFile: path, atomically: true, encoding: .utf8) }
            if let path = options.jsonPath {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(report).write(to: URL(fileURLWithPath: path))
            }
            if let path = options.plotPath {
                let title =
                    "ModuleLifecycle fan-out, build and lifecycle vs N (\(report.date), "
                    + "\(report.machine.processors) CPUs)"
                try svgChart(table, title: title).write(toFile: path, atomically: true, encoding: .utf8)
            }
        } catch {
            log("could not write the report: \(error)")
            return false
        }
        log("done in \(significant((ContinuousClock.now - started).nanoseconds / 1e9)) s")

        guard options.quick else { return true }
        let failed = report.smokeChecks.filter { $0.met == false }
        for check in failed { log("smoke check failed: \(check.name): \(check.measured)") }
        if failed.isEmpty {
            log("smoke checks passed: dispatch, build, lifecycle, work, routing and scopes are within their limits")
        }
        return failed.isEmpty
    }
}

extension LifecycleBench {
    /// A smoke check judges a few quick rounds on a shared machine, where one slow stretch can push a pair
    /// over its limit. Each failing pair is measured again at the judged (largest) N, up to twice, and is
    /// judged on its latest attempt, both systems measured side by side. A real regression fails all three
    /// attempts.
    nonisolated static func remeasureFailingSmokeChecks(
        _ results: [Measurement],
        _ options: Options,
        includeGenerated: Bool
    ) async -> [Measurement] {
        guard let n = options.sizes.max() else { return results }
        var results = results
        for attempt in 1...2 {
            let systems = failingSmokeSystems(ResultTable(results: results, sizes: options.sizes))
            guard !systems.isEmpty else { break }
            log(
                "smoke: measuring \(systems.sorted().joined(separator: ", ")) again at N=\(grouped(n)) (attempt \(attempt + 1))"
            )
            let fixture = Fixture(count: n)
            let cases = makeCases(fixture, includeGenerated: includeGenerated, only: Array(systems), quick: true)
                .filter { systems.contains($0.system.id) }
            let again = await measureRoundRobin(cases, settings: options.settings) { _ in }
            fixture.tearDown()
            results.keepSideBySide(again)
        }
        return results
    }
}

extension LifecycleBench {
    /// The routing systems this run measures: those `--only` selects, and in quick mode only those of the
    /// smoke checks (`RouteTrie` at two sizes, and the chain without budget against the chain by hand).
    nonisolated static func routingSystems(_ options: Options) -> [System] {
        System.all.filter { system in
            system.group.isRouting && options.selects { $0 == system }
                && (!options.quick || routingSmokeSystems.contains(system))
        }
    }

    /// Measures `systems` among the routing rows: the matching rows at every route size and the chain rows,
    /// all in one round-robin, so the growth from one size to the next compares samples taken side by side.
    nonisolated static func measureRouting(_ options: Options, systems: [System]) async -> [Measurement] {
        let ids = systems.map(\.id)
        var cases: [BenchCase] = []
        if systems.contains(where: { $0.group == .routeMatch }) {
            for n in options.routeSizes {
                log("N=\(grouped(n)) routes: building the tries")
                cases += routeMatchCases(n, inputs: options.routeInputs, hummingbird: !options.quick, only: ids)
                cases += overlappingRouteCases(n, matches: RouteTable.inputCount(options.routeInputs), only: ids)
            }
        }
        if systems.contains(where: { $0.group == .routeChain }) {
            cases += routeChainCases(only: ids)
        }
        guard !cases.isEmpty else { return [] }
        log("routing: \(cases.count) cases, \(options.settings.rounds) rounds")
        return await measureRoundRobin(cases, settings: options.settings) { log("routing: \($0)") }
    }

    /// `remeasureFailingSmokeChecks` for the routing checks: each failing check's systems are measured again,
    /// up to twice, side by side, and judged on the latest attempt.
    nonisolated static func remeasureFailingRoutingChecks(
        _ results: [Measurement],
        _ options: Options
    ) async -> [Measurement] {
        var results = results
        for attempt in 1...2 {
            let ids = failingRoutingSmokeSystems(ResultTable(results: results, sizes: options.routeSizes))
            guard !ids.isEmpty else { break }
            log("smoke: measuring \(ids.sorted().joined(separator: ", ")) again (attempt \(attempt + 1))")
            let again = await measureRouting(options, systems: System.all.filter { ids.contains($0.id) })
            results.keepSideBySide(again)
        }
        return results
    }
}

extension LifecycleBench {
    /// The scope systems this run measures: those `--only` selects, and in quick mode only those of the smoke
    /// checks.
    nonisolated static func scopeSystems(_ options: Options) -> [System] {
        System.all.filter { system in
            system.group == .scopeRequest && options.selects { $0 == system }
                && (!options.quick || scopeSmokeSystems.contains(system))
        }
    }

    /// Measures `systems` among the scope rows at every number of tasks, all in one round-robin.
    nonisolated static func measureScopes(_ options: Options, systems: [System]) async -> [Measurement] {
        guard !systems.isEmpty, let maximumTasks = options.scopeTasks.max() else { return [] }
        let fixture = ScopeFixture(maximumTasks: maximumTasks)
        let ids = systems.map(\.id)
        let cases = options.scopeTasks.flatMap { scopeCases(fixture, tasks: $0, only: ids) }
        log("scopes: \(cases.count) cases, \(options.settings.rounds) rounds")
        return await measureRoundRobin(cases, settings: options.settings) { log("scopes: \($0)") }
    }

    /// `remeasureFailingSmokeChecks` for the scope checks: each failing check's systems are measured again,
    /// up to twice, at every number of tasks, side by side, and judged on the latest attempt.
    nonisolated static func remeasureFailingScopeChecks(
        _ results: [Measurement],
        _ options: Options
    ) async -> [Measurement] {
        var results = results
        for attempt in 1...2 {
            let ids = failingScopeSmokeSystems(ResultTable(results: results, sizes: options.scopeTasks))
            guard !ids.isEmpty else { break }
            log("smoke: measuring \(ids.sorted().joined(separator: ", ")) again (attempt \(attempt + 1))")
            let again = await measureScopes(options, systems: System.all.filter { ids.contains($0.id) })
            results.keepSideBySide(again)
        }
        return results
    }
}

/// Progress, on standard error so the Markdown on standard output stays clean.
func log(_ message: String) {
    FileHandle.standardError.write(Data("lifecycle-bench: \(message)\n".utf8))
}

/// The command line.
struct Options {
    var quick = false
    var help = false
    var sizes = [10, 100, 1_000, 10_000]
    /// The numbers of routes the matching rows are measured at.
    var routeSizes = [100, 1_000, 10_000]
    /// The inputs the matching rows match: all, or the hits or the misses alone.
    var routeInputs = RouteTable.Inputs.all
    /// The numbers of concurrent tasks the scope rows are measured at.
    var scopeTasks = [1, 16, 64]
    var settings = HarnessSettings(rounds: 15, sampleTarget: .milliseconds(2), allocationRepetitions: 200)
    var plotPath: String?
    var jsonPath: String?
    var markdownPath: String?
    /// System id prefixes to measure; empty for all (for profiling one case).
    var only: [String] = []

    /// Whether `--only` selects some system that `matches`.
    func selects(_ matches: (System) -> Bool) -> Bool {
        System.all.contains { system in
            matches(system) && (only.isEmpty || only.contains { system.id.hasPrefix($0) })
        }
    }

    static let usage = """
        usage: lifecycle-bench [--quick] [--rounds R] [--sizes 10,100,...] [--route-sizes 100,...]
                               [--scope-tasks 1,16,...] [--plot FILE.svg] [--json FILE] [--markdown FILE]
                               [--only ID,...]
          --quick          CI smoke mode: N up to 1,000, 5 rounds; routes 100 and 10,000, no Hummingbird;
                           exits 1 if dispatch is more than 5x its hand-written limit, or the build, the
                           lifecycle, work, routing or scopes regressed (Targets.swift, ScopeTargets.swift)
          --rounds R       round-robin rounds (default 15)
          --sizes LIST     the Ns to measure (default 10,100,1000,10000)
          --route-sizes LIST  the numbers of routes to match among (default 100,1000,10000)
          --route-inputs all|hits|misses  the inputs matched (default all: 48 hits and 16 misses)
          --scope-tasks LIST  the numbers of concurrent tasks the scope rows run at (default 1,16,64)
          --plot FILE      write an SVG chart: ns per module vs N, log scales
          --json FILE      write every sample as JSON
          --markdown FILE  write the Markdown report (it is always printed)
          --only IDS       measure only the systems whose id starts with one of IDS (comma-separated);
                           `--only route` measures the routing rows alone, `--only scope` the scope rows
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init<Arguments: Collection<String>>(_ arguments: Arguments) throws {
        var remaining = Array(arguments)[...]
        func value(for flag: String) throws -> String {
            guard let next = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return next
        }
        var explicitRounds: Int?
        var explicitSizes: [Int]?
        var explicitRouteSizes: [Int]?
        var explicitScopeTasks: [Int]?
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--help", "-h": help = true
            case "--plot": plotPath = try value(for: argument)
            case "--json": jsonPath = try value(for: argument)
            case "--markdown": markdownPath = try value(for: argument)
            case "--only": only = try value(for: argument).split(separator: ",").map(String.init)
            case "--rounds":
                guard let rounds = Int(try value(for: argument)), rounds > 0 else {
                    throw UsageError(description: "--rounds needs a positive number")
                }
                explicitRounds = rounds
            case "--sizes":
                let list = try value(for: argument).split(separator: ",").compactMap { Int($0) }
                guard !list.isEmpty, list.allSatisfy({ (1...SyntheticGraph.maximumCount).contains($0) }) else {
                    throw UsageError(description: "--sizes needs numbers in 1...\(SyntheticGraph.maximumCount)")
                }
                explicitSizes = list
            case "--route-inputs":
                guard let inputs = RouteTable.Inputs(rawValue: try value(for: argument)) else {
                    throw UsageError(description: "--route-inputs needs all, hits or misses")
                }
                routeInputs = inputs
            case "--route-sizes":
                let list = try value(for: argument).split(separator: ",").compactMap { Int($0) }
                guard !list.isEmpty, list.allSatisfy({ (1...100_000).contains($0) }) else {
                    throw UsageError(description: "--route-sizes needs numbers in 1...100000")
                }
                explicitRouteSizes = list
            case "--scope-tasks":
                let list = try value(for: argument).split(separator: ",").compactMap { Int($0) }
                guard !list.isEmpty, list.allSatisfy({ (1...1_024).contains($0) }) else {
                    throw UsageError(description: "--scope-tasks needs numbers in 1...1024")
                }
                explicitScopeTasks = list
            default:
                throw UsageError(description: "unknown argument \(argument)")
            }
        }
        if quick {
            sizes = [10, 100, 1_000]
            settings = HarnessSettings(rounds: 5, sampleTarget: .milliseconds(1), allocationRepetitions: 50)
            routeSizes = [100, 10_000]
        }
        if let explicitRounds { settings.rounds = explicitRounds }
        if let explicitSizes { sizes = explicitSizes }
        if let explicitRouteSizes { routeSizes = explicitRouteSizes }
        if let explicitScopeTasks { scopeTasks = explicitScopeTasks }
    }
}

/// The machine a run happened on.
enum MachineDescription {
    static func current() -> RunReport.Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        return RunReport.Machine(
            processors: ProcessInfo.processInfo.activeProcessorCount,
            cpuModel: model,
            toolchain: swiftVersion(),
            operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString
        )
    }

    /// The first line of `swift --version`, or the compiler version this binary was built with.
    private static func swiftVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first {
                return String(line)
            }
        }
        #if compiler(>=6.3)
        return "Swift 6.3 or later (swift --version unavailable)"
        #else
        return "Swift before 6.3 (swift --version unavailable)"
        #endif
    }
}

extension [Measurement] {
    /// Replaces each measurement with the one of `again` for the same system and size, when that one is
    /// faster (by its minimum): what a re-measured smoke check keeps.
    /// Replaces the measurements of the systems measured `again` with those: a pair's two systems are then
    /// judged side by side, from the same round-robin. (Keeping each system's lowest minimum across
    /// attempts judged minima from different attempts: the loop a ratio divides by only got faster with
    /// every attempt, and the ratio only higher.)
    mutating func keepSideBySide(_ again: [Measurement]) {
        for measurement in again {
            guard
                let index = firstIndex(where: { $0.system == measurement.system && $0.modules == measurement.modules })
            else { continue }
            self[index] = measurement
        }
    }
}
