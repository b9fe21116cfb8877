import Foundation
import LifecycleCore
import LifecycleTesting
import Testing

// The fixture modules live in a generic namespace, like RecordingTests' (RuntimeConformancesTests pins the
// module types this target declares).

/// What the modules of one run record: whether the pool is ready, and what the cache served.
private final class PoolLedger: Sendable {
    private let state = Locked<(ready: Bool, served: Int, servedBeforeReady: Int)>((false, 0, 0))

    var isReady: Bool { state.withLock { $0.ready } }
    var servedBeforeReady: Int { state.withLock { $0.servedBeforeReady } }

    func setReady(_ ready: Bool) { state.withLock { $0.ready = ready } }

    func serve() {
        state.withLock { state in
            state.served += 1
            if !state.ready { state.servedBeforeReady += 1 }
        }
    }
}

private enum LedgerKey: LaunchOptionKey {
    static let defaultValue = PoolLedger()
}

/// A custom event the tests' action sends; the caches serve on it.
private struct Refresh: CustomEvent {}

private enum Exploring<Tag> {
    /// Ready once its launch finished; not ready from willTerminate on.
    struct Pool: LifecycleModule, DidFinishLaunching, WillTerminate {
        static var priority: ModulePriority { .high }
        let ledger: PoolLedger
        init(context: LifecycleContext) { ledger = context.launchOptions[LedgerKey.self] }
        func didFinishLaunching(_ context: LifecycleContext) async -> Bool {
            ledger.setReady(true)
            return true
        }
        func willTerminate(_ context: LifecycleContext) { ledger.setReady(false) }
    }

    /// Serves only when the pool is ready.
    struct CarefulCache: LifecycleModule, DependentModule, DidBecomeActive, OpenURL, CustomEventHandling {
        static var priority: ModulePriority { .normal }
        static var dependencies: [any LifecycleModule.Type] { [Pool.self] }
        let ledger: PoolLedger
        init(context: LifecycleContext) { ledger = context.launchOptions[LedgerKey.self] }
        func didBecomeActive(_ context: LifecycleContext) { if ledger.isReady { ledger.serve() } }
        func open(_ url: URL, context: LifecycleContext) -> Bool {
            guard ledger.isReady else { return false }
            ledger.serve()
            return true
        }
        static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
            handlers.on(Refresh.self) { module, _, _ in if module.ledger.isReady { module.ledger.serve() } }
        }
    }

    /// Serves whenever it becomes active, ready pool or not: the bug the exploration must find, since the
    /// pool's launch hook succeeds unless a fault is injected into it.
    struct HastyCache: LifecycleModule, DependentModule, DidBecomeActive {
        static var priority: ModulePriority { .normal }
        static var dependencies: [any LifecycleModule.Type] { [Pool.self] }
        let ledger: PoolLedger
        init(context: LifecycleContext) { ledger = context.launchOptions[LedgerKey.self] }
        func didBecomeActive(_ context: LifecycleContext) { ledger.serve() }
    }
}

private enum Kit {}
private typealias Pool = Exploring<Kit>.Pool
private typealias CarefulCache = Exploring<Kit>.CarefulCache
private typealias HastyCache = Exploring<Kit>.HastyCache

private let neverServesEarly = LifecycleInvariant("the cache never serves before the pool is ready") { snapshot in
    snapshot.launchOptions[LedgerKey.self].servedBeforeReady == 0
}

/// A new ledger for every run.
private let freshLedger: @Sendable () -> LaunchOptions = {
    var options = LaunchOptions()
    options[LedgerKey.self] = PoolLedger()
    return options
}

private let refresh = ExplorationAction("refresh") { host in _ = try await host.send(Refresh()) }

@Suite("Random lifecycles of an adopter's manifest")
struct ExplorationTests {
    @Test("A bug that shows only when the pool's launch fails is found, shrunk to that launch, and replayable")
    func findsAndShrinksTheBug() async throws {
        let exploration = LifecycleExploration(
            manifest: ModuleManifest([Pool.self, HastyCache.self]),
            invariants: [neverServesEarly],
            launchOptions: freshLedger
        )
        let report = try await exploration.run(200)
        let failure = try #require(report.failure)
        #expect(failure.invariant == "the cache never serves before the pool is ready")
        #expect(failure.shrunkSteps == [.launch])
        #expect(failure.failedAfterStep == 1)
        #expect(failure.failedAtTheEnd == false)
        let fault = try #require(failure.shrunkFaults.first)
        #expect(failure.shrunkFaults.count == 1)
        #expect(fault.participant == Pool.moduleName)
        #expect(fault.site == "didFinishLaunching")
        #expect(fault.occurrence == 1)
        #expect(fault.step == 1)
        let seed = "0x" + String(failure.seed, radix: 16, uppercase: true)
        #expect(failure.replay == "LIFECYCLE_EXPLORATION_SEED=\(seed) swift test --filter findsAndShrinksTheBug")
        let text = "\(report)"
        #expect(text.contains("Invariant \"the cache never serves before the pool is ready\" failed after step 1"))
        #expect(text.contains("  1. launch\n       fault: \(fault)"))

        // The seed alone fails again, with the same steps and faults.
        let replayed = try await exploration.run(seeds: [failure.seed])
        #expect(replayed.failure?.steps == failure.steps)
        #expect(replayed.failure?.faults == failure.faults)
    }

    @Test("Modules that guard against the fault hold through every lifecycle, and the generator reaches every step")
    func correctModulesHold() async throws {
        let taken = Locked<Set<String>>([])
        let invalid = Locked(0)
        let coverage = LifecycleInvariant("records what it saw") { snapshot in
            if let step = snapshot.step {
                let kind = "\(step)".split(separator: " ").first.map(String.init) ?? ""
                taken.withLock { _ = $0.insert(kind) }
            }
            if let error = snapshot.error as? LifecycleError, error.code == .invalidTransition {
                invalid.withLock { $0 += 1 }
            }
            return true
        }
        let exploration = LifecycleExploration(
            manifest: ModuleManifest([Pool.self, CarefulCache.self]),
            invariants: [neverServesEarly, coverage],
            actions: [refresh],
            launchOptions: freshLedger
        )
        let report = try await exploration.run(100)
        #expect(report.holds, "\(report)")
        #expect(report.runs == 100)
        #expect(report.injectedFaults > 0)
        #expect(report.steps > 100 * 2)
        let kinds: Set<String> = [
            "launch", "resignActive", "becomeActive", "enterBackground", "enterForeground", "memoryWarning", "open",
            "action", "terminate",
        ]
        #expect(taken.withLock { $0 } == kinds)
        #expect(invalid.withLock { $0 } > 0)
    }

    @Test("A hang is abandoned at its budget on the virtual clock, and reported as a hang")
    func hangsAreAbandonedAtTheirBudget() async throws {
        let neverTimesOut = LifecycleInvariant("no hook runs past its budget") { snapshot in
            !snapshot.deliveries.contains { $0.error is HookTimeout }
        }
        let exploration = LifecycleExploration(
            manifest: ModuleManifest([Pool.self, CarefulCache.self]),
            invariants: [neverTimesOut],
            faults: ExplorationFaults(rate: 0.3),
            launchOptions: freshLedger
        )
        let failure = try #require(try await exploration.run(50).failure)
        #expect(failure.invariant == "no hook runs past its budget")
        #expect(failure.shrunkFaults.map(\.kind) == [.hang])
        // Shrunk to one hang in the one call it needs; the run never waited on real time for it.
        #expect(failure.shrunkSteps == [.launch, .openURL(URL(string: "app://exploration")!)])
        let fault = try #require(failure.shrunkFaults.first)
        #expect(fault.participant == CarefulCache.moduleName)
        #expect(fault.site == "openURL")
    }

    @Test("A fault in a custom event's handler is injected and recorded like a hook's")
    func handlersAreFaulted() async throws {
        let handlersAnswer = LifecycleInvariant("every refresh handler answers") { snapshot in
            !snapshot.deliveries.contains { $0.event == LifecycleEvent(custom: Refresh.self) && $0.error != nil }
        }
        let exploration = LifecycleExploration(
            manifest: ModuleManifest([Pool.self, CarefulCache.self]),
            invariants: [handlersAnswer],
            actions: [refresh],
            faults: ExplorationFaults(rate: 0.2, hangs: false),
            launchOptions: freshLedger
        )
        let failure = try #require(try await exploration.run(100).failure)
        #expect(failure.shrunkSteps.first == .launch)
        #expect(failure.shrunkSteps.last == .action("refresh"))
        let fault = try #require(failure.shrunkFaults.last)
        #expect(fault.participant == CarefulCache.moduleName)
        #expect(fault.site == "\(LifecycleEvent(custom: Refresh.self))")
        #expect(fault.kind == .failure)
    }

    @Test("Modules removed and registered again at random: a dependency never outlives what it depends on")
    func membershipChanges() async throws {
        let taken = Locked<Set<String>>([])
        let refused = Locked(0)
        let poolStaysForTheCache = LifecycleInvariant("the pool takes part whenever the cache does") { snapshot in
            if let step = snapshot.step {
                taken.withLock { _ = $0.insert("\(step)".split(separator: " ").first.map(String.init) ?? "") }
            }
            if let error = snapshot.error as? LifecycleError,
                error.code == .removalFailed || error.code == .registrationFailed
            {
                refused.withLock { $0 += 1 }
            }
            return snapshot.host.participant(for: CarefulCache.self) == nil
                || snapshot.host.participant(for: Pool.self) != nil
        }
        let exploration = LifecycleExploration(
            manifest: ModuleManifest([Pool.self, CarefulCache.self]),
            invariants: [neverServesEarly, poolStaysForTheCache],
            changesMembership: true,
            launchOptions: freshLedger
        )
        let report = try await exploration.run(100)
        #expect(report.holds, "\(report)")
        #expect(taken.withLock { $0.isSuperset(of: ["remove", "register"]) })
        // Removing the pool under the cache, or registering the cache without its pool, is refused.
        #expect(refused.withLock { $0 } > 0)
    }

    @Test("Modules that faults put in quarantine take no part until a step releases them")
    func quarantineAndRelease() async throws {
        let released = Locked(0)
        let quarantinedTakeNoPart = LifecycleInvariant("a quarantined module takes no part") { snapshot in
            if case .releaseQuarantine? = snapshot.step, snapshot.error == nil { released.withLock { $0 += 1 } }
            let out = Set(snapshot.host.quarantinedModules.map(\.module))
            return snapshot.host.participants.allSatisfy { !out.contains($0.name) }
        }
        var configuration = ApplicationHost.Configuration()
        configuration.quarantine = QuarantinePolicy(failures: 2, within: .seconds(60))
        let exploration = LifecycleExploration(
            manifest: ModuleManifest([Pool.self, CarefulCache.self]),
            invariants: [neverServesEarly, quarantinedTakeNoPart],
            faults: ExplorationFaults(rate: 0.3, hangs: false),
            steps: 20,
            changesMembership: true,
            configuration: configuration,
            launchOptions: freshLedger
        )
        let report = try await exploration.run(100)
        #expect(report.holds, "\(report)")
        #expect(released.withLock { $0 } > 0)
    }

    @Test("Without faults, the same manifest's bug stays hidden: the faults are what found it")
    func withoutFaultsTheBugHides() async throws {
        let exploration = LifecycleExploration(
            manifest: ModuleManifest([Pool.self, HastyCache.self]),
            invariants: [neverServesEarly],
            faults: .none,
            launchOptions: freshLedger
        )
        let report = try await exploration.run(100)
        #expect(report.holds, "\(report)")
        #expect(report.injectedFaults == 0)
    }
}
