import Foundation
import SyntheticModules

/// `lifecycle-bench`: measures ModuleLifecycle's fan-out, proxy build and whole lifecycle against
/// hand-written loops, NotificationCenter and swift-service-lifecycle, and prints a Markdown report.
///
///     lifecycle-bench [--quick] [--rounds R] [--sizes 10,100] [--plot FILE.svg] [--json FILE]
///                     [--markdown FILE]
///
/// `--quick` (CI) measures N up to 1,000 for a few rounds and exits 1 if a smoke check fails: the proxy's
/// dispatch more than 5× its hand-written limit, or the build or the lifecycle past their limits
/// (`smokeChecks`). Otherwise the exit status is 0 whatever the targets say.
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
        for n in options.sizes {
            log("N=\(grouped(n)): building fixtures")
            let fixture = Fixture(count: n)
            let cases = makeCases(fixture, includeGenerated: includeGenerated, only: options.only)
            log("N=\(grouped(n)): \(cases.count) cases, \(options.settings.rounds) rounds")
            results += await measureRoundRobin(cases, settings: options.settings) { log("N=\(grouped(n)): \($0)") }
            fixture.tearDown()
        }

        if options.quick {
            results = await remeasureFailingSmokeChecks(results, options, includeGenerated: includeGenerated)
        }

        let table = ResultTable(results: results, sizes: options.sizes)
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
            targets: evaluateTargets(table),
            smokeChecks: smokeChecks(table)
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
        if failed.isEmpty { log("smoke checks passed: dispatch, build and lifecycle are within their limits") }
        return failed.isEmpty
    }
}

extension LifecycleBench {
    /// A smoke check judges a few quick rounds on a shared machine, where one slow stretch can push a pair
    /// over its limit. Each failing pair is measured again at the judged (largest) N, up to twice, and
    /// each of its systems keeps its best measurement: its lowest minimum, from more rounds. A real
    /// regression fails all three attempts.
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
            let cases = makeCases(fixture, includeGenerated: includeGenerated, only: Array(systems))
                .filter { systems.contains($0.system.id) }
            let again = await measureRoundRobin(cases, settings: options.settings) { _ in }
            fixture.tearDown()
            for measurement in again {
                guard
                    let index = results.firstIndex(where: {
                        $0.system == measurement.system && $0.modules == measurement.modules
                    }),
                    measurement.minNanoseconds < results[index].minNanoseconds
                else { continue }
                results[index] = measurement
            }
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
    var settings = HarnessSettings(rounds: 15, sampleTarget: .milliseconds(2), allocationRepetitions: 200)
    var plotPath: String?
    var jsonPath: String?
    var markdownPath: String?
    /// System id prefixes to measure; empty for all (for profiling one case).
    var only: [String] = []

    static let usage = """
        usage: lifecycle-bench [--quick] [--rounds R] [--sizes 10,100,...] [--plot FILE.svg] [--json FILE]
                               [--markdown FILE] [--only ID,...]
          --quick          CI smoke mode: N up to 1,000, 5 rounds; exits 1 if dispatch is more than 5x its
                           hand-written limit, or the build or the lifecycle regressed (Targets.swift)
          --rounds R       round-robin rounds (default 15)
          --sizes LIST     the Ns to measure (default 10,100,1000,10000)
          --plot FILE      write an SVG chart: ns per module vs N, log scales
          --json FILE      write every sample as JSON
          --markdown FILE  write the Markdown report (it is always printed)
          --only IDS       measure only the systems whose id starts with one of IDS (comma-separated)
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
            default:
                throw UsageError(description: "unknown argument \(argument)")
            }
        }
        if quick {
            sizes = [10, 100, 1_000]
            settings = HarnessSettings(rounds: 5, sampleTarget: .milliseconds(1), allocationRepetitions: 50)
        }
        if let explicitRounds { settings.rounds = explicitRounds }
        if let explicitSizes { sizes = explicitSizes }
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
