#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import LifecycleCore
public import LifecycleProxy
public import Testing

/// Runs a manifest through random lifecycles from a seed, with faults injected into its modules' hooks,
/// their handlers of custom events, messages and routes, and their work, and checks the invariants the test
/// declares after every step.
///
/// ```swift
/// @Test func everyOpenedConnectionIsClosedByTerminate() async {
///     let exploration = LifecycleExploration(
///         manifest: .TestingExample,
///         invariants: [
///             LifecycleInvariant("every opened connection is closed by terminate") { snapshot in
///                 let pool = snapshot.launchOptions[ConnectionPoolKey.self]
///                 return !snapshot.isFinal || snapshot.wasFaulted(DatabasePoolModule.self, in: .willTerminate)
///                     || pool?.openConnections == 0
///             }
///         ],
///         launchOptions: {
///             var options = shopOptions
///             options[ConnectionPoolKey.self] = ConnectionPool(url: "postgres://test/shop")  // new for every run
///             return options
///         }
///     )
///     await exploration.expectInvariantsHold(runs: 200)
/// }
/// ```
///
/// Each run builds a new host over the manifest, so every module is created for that run alone, then takes
/// ``steps`` steps drawn from its seed (``ExplorationStep``) and ends with `terminate()`. Each step waits
/// until the host is idle, so what its hooks posted is delivered too, then every invariant is checked.
/// Time is a ``VirtualClock``: it moves only while an injected hang waits, in small steps until the host
/// abandons the hang at its budget, so a hang costs no real time and never a flaky test.
///
/// An injected fault replaces the call: a module whose `willTerminate` was faulted did not clean up, so an
/// invariant about cleaning up allows it (``LifecycleSnapshot/wasFaulted(_:in:)``), as above.
///
/// When an invariant fails, the run is shrunk: steps and faults are taken away while the same invariant
/// still fails. The report (``ExplorationReport``) names the invariant, the seed, the line that replays
/// it, and the shrunk sequence. Set `LIFECYCLE_EXPLORATION_SEED` to the seed to run that one alone.
public struct LifecycleExploration: Sendable {
    /// The modules every run creates, for example the plugin's `ModuleManifest.discovered`.
    public var manifest: ModuleManifest
    /// What must hold after every step.
    public var invariants: [LifecycleInvariant]
    /// The test's own steps, drawn while the host is running.
    public var actions: [ExplorationAction]
    /// The URLs `openURL` steps open.
    public var urls: [URL]
    /// The faults injected into the modules' calls.
    public var faults: ExplorationFaults
    /// How many steps a run draws before its closing `terminate()`. A run that terminates early stops there.
    public var steps: Int
    /// Whether runs also remove the manifest's modules and register them again, as a reload that switches a
    /// module off and on does, and release the ones faults put in quarantine (``ExplorationStep/remove(_:)``,
    /// ``ExplorationStep/register(_:)``, ``ExplorationStep/releaseQuarantine(_:)``). Off by default: turn it on
    /// when your invariants must hold while modules come and go.
    public var changesMembership: Bool
    /// The host's settings. The exploration sets its clock, its fault injection and its `onDelivery` (after
    /// yours, if any), collects unobserved errors for ``LifecycleSnapshot/unobservedErrors``, and, when hangs
    /// are injected, gives hooks a one-second budget if they have none, so that a hang ends.
    public var configuration: ApplicationHost.Configuration
    /// The launch options of each run, called once per run: put the objects your modules record into here,
    /// new for every run, and read them back in invariants through ``LifecycleSnapshot/launchOptions``.
    public var launchOptions: @Sendable () -> LaunchOptions
    /// The seed runs are numbered from: run `i` uses a seed derived from this and `i`.
    public var baseSeed: UInt64
    /// How long, in real time, one step may take before the run reports it as stuck: a step that waits on
    /// nothing the virtual clock controls (a deadlock, a module awaiting something that never comes).
    public var stepTimeLimit: Duration

    /// The environment variable that, set to a seed (`0x…`), makes ``run(_:)`` run that seed alone.
    public static let seedVariable = "LIFECYCLE_EXPLORATION_SEED"

    /// Creates an exploration of `manifest`.
    public init(
        manifest: ModuleManifest,
        invariants: [LifecycleInvariant],
        actions: [ExplorationAction] = [],
        urls: [URL] = [URL(string: "app://exploration")!],
        faults: ExplorationFaults = .standard,
        steps: Int = 12,
        changesMembership: Bool = false,
        configuration: ApplicationHost.Configuration = ApplicationHost.Configuration(),
        launchOptions: @escaping @Sendable () -> LaunchOptions = { LaunchOptions() }
    ) {
        self.manifest = manifest
        self.invariants = invariants
        self.actions = actions
        self.urls = urls
        self.faults = faults
        self.steps = steps
        self.changesMembership = changesMembership
        self.configuration = configuration
        self.launchOptions = launchOptions
        self.baseSeed = 0x11FE_C7C1_E000_0001
        self.stepTimeLimit = .seconds(60)
    }

    /// The manifest's module named `name` (`moduleName`), if any.
    func module(named name: String) -> (any LifecycleModule.Type)? {
        manifest.entries.first { $0.type.moduleName == name }?.type
    }

    /// The seed of run `index`.
    public func seed(ofRun index: Int) -> UInt64 {
        SplitMix64.seed(ofRun: index, from: baseSeed)
    }

    /// Runs `runs` random lifecycles, or the seed of ``seedVariable`` alone when it is set, and stops at the
    /// first that breaks an invariant, which it shrinks.
    ///
    /// - Throws: `ManifestError` when the manifest cannot be built into a host at all.
    public func run(_ runs: Int = 100) async throws(ManifestError) -> ExplorationReport {
        let seeds: [UInt64]
        if let seed = Self.seedFromEnvironment() {
            seeds = [seed]
        } else {
            seeds = (0..<max(runs, 0)).map { seed(ofRun: $0) }
        }
        return try await run(seeds: seeds)
    }

    /// Runs the lifecycles of `seeds`, in order, and stops at the first that breaks an invariant, which it
    /// shrinks.
    ///
    /// - Throws: `ManifestError` when the manifest cannot be built into a host at all.
    public func run(seeds: [UInt64]) async throws(ManifestError) -> ExplorationReport {
        var report = ExplorationReport()
        for seed in seeds {
            let schedule = FaultSchedule(.drawn(seed: seed, faults))
            let result = try await ExplorationRun(self, script: .drawn(seed: seed), faults: schedule).run()
            report.runs += 1
            report.steps += result.steps.count
            report.injectedFaults += result.injected.count
            guard let violation = result.violation else { continue }
            let shrunk = await ExplorationShrinker(self, result: result, violation: violation).shrink()
            report.failure = ExplorationFailure(
                seed: seed,
                violation: violation,
                steps: result.steps,
                faults: result.injected,
                shrunk: shrunk,
                replay: Self.replayLine(seed)
            )
            break
        }
        return report
    }

    /// Runs ``run(_:)`` and records an issue with the report when an invariant failed or the manifest could
    /// not be built.
    public func expectInvariantsHold(runs: Int = 100, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            let report = try await run(runs)
            if let failure = report.failure {
                Issue.record(Comment(rawValue: "\(failure)"), sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record(Comment(rawValue: "The manifest cannot be explored: \(error)"), sourceLocation: sourceLocation)
        }
    }

    static func seedFromEnvironment() -> UInt64? {
        guard let text = ProcessInfo.processInfo.environment[seedVariable] else { return nil }
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text
        return UInt64(digits, radix: 16)
    }

    /// The shell line that runs `seed` alone, in the current test when there is one.
    static func replayLine(_ seed: UInt64) -> String {
        let assignment = "\(seedVariable)=\(hex(seed))"
        guard let name = Test.current?.name else { return "\(assignment) swift test" }
        let function = name.split(separator: "(").first.map(String.init) ?? name
        return "\(assignment) swift test --filter \(function)"
    }

    static func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16, uppercase: true) }
}
