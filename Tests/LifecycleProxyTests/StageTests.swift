import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Records stage hooks, and in warm-up holds until its latch opens, so tests control overlap.
final class StageLog: Sendable {
    private let log = Locked<[String]>([])
    let latches = Locked<[String: Latch]>([:])

    func record(_ entry: String) { log.withLock { $0.append(entry) } }
    var entries: [String] { log.withLock { $0 } }

    func latch(_ name: String) -> Latch {
        latches.withLock { latches in
            if let latch = latches[name] { return latch }
            let latch = Latch()
            latches[name] = latch
            return latch
        }
    }
}

enum StageLogKey: LaunchOptionKey {
    static let defaultValue = StageLog()
}

protocol StagedModule: LifecycleModule, SetupStage, InitializeStage, WarmUpStage, DidFinishLaunching {
    var log: StageLog { get }
    init(log: StageLog)
}

extension StagedModule {
    static var shortName: String { String(describing: Self.self) }
    init(context: LifecycleContext) { self.init(log: context.launchOptions[StageLogKey.self]) }
    func setUp(_ context: LifecycleContext) { log.record("setup \(Self.shortName)") }
    func initialize(_ context: LifecycleContext) { log.record("initialize \(Self.shortName)") }
    func warmUp(_ context: LifecycleContext) async {
        log.record("warmUp start \(Self.shortName)")
        await log.latch(Self.shortName).hold()
        log.record("warmUp end \(Self.shortName)")
    }
    func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        log.record("didFinishLaunching \(Self.shortName)")
        return true
    }
}

struct WarmDatabase: StagedModule {
    static let priority: ModulePriority = .low
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

struct WarmSearch: StagedModule {
    static let priority: ModulePriority = .high
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

/// Depends on the database, so its warm-up waits for the database's.
struct WarmCache: StagedModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [WarmDatabase.self]
    let log: StageLog
    init(log: StageLog) { self.log = log }
}

@Suite("Staged launch", .timeLimit(.minutes(1)))
struct StageTests {
    func host(_ log: StageLog, waits: Bool = true) throws -> ApplicationHost {
        var options = LaunchOptions()
        options[StageLogKey.self] = log
        return try ApplicationHost(
            manifest: ModuleManifest([WarmCache.self, WarmSearch.self, WarmDatabase.self]),
            launchOptions: options,
            configuration: .init(didFinishLaunchingWaitsForWarmUp: waits, clock: VirtualClock())
        )
    }

    @Test("Stages run in order — setup, initialize, warm-up — before didFinishLaunching; each is a real event")
    func stageOrder() async throws {
        let log = StageLog()
        for name in ["WarmSearch", "WarmDatabase", "WarmCache"] { log.latch(name).open() }
        let host = try host(log)
        #expect(host.responds(to: .warmUp))
        // Cache depends on Database, so Database comes first despite its lower priority.
        #expect(host.plan(for: .setup).map { shortName($0.name) } == ["WarmSearch", "WarmDatabase", "WarmCache"])
        try await host.launch()
        let entries = log.entries
        let setup = entries.filter { $0.hasPrefix("setup") }
        let initialize = entries.filter { $0.hasPrefix("initialize") }
        #expect(setup == ["setup WarmSearch", "setup WarmDatabase", "setup WarmCache"])
        #expect(initialize == ["initialize WarmSearch", "initialize WarmDatabase", "initialize WarmCache"])
        let lastSetup = try #require(entries.lastIndex { $0.hasPrefix("setup") })
        let firstInitialize = try #require(entries.firstIndex { $0.hasPrefix("initialize") })
        let lastInitialize = try #require(entries.lastIndex { $0.hasPrefix("initialize") })
        let firstWarmUp = try #require(entries.firstIndex { $0.hasPrefix("warmUp") })
        let lastWarmUp = try #require(entries.lastIndex { $0.hasPrefix("warmUp") })
        let firstDid = try #require(entries.firstIndex { $0.hasPrefix("didFinishLaunching") })
        #expect(lastSetup < firstInitialize && lastInitialize < firstWarmUp && lastWarmUp < firstDid)
        // Journal records for the stages.
        let events = Set(try #require(host.journal).entries.map(\.event))
        #expect(events.isSuperset(of: ["setup", "initialize", "warmUp"]))
    }

    @Test("Warm-up runs concurrently; a module waits for the warm-up of what it depends on")
    func warmUpConcurrencyAndDependencies() async throws {
        let log = StageLog()
        let host = try host(log)
        let launch = Task { try await host.launch() }
        // Search and Database start together (no dependencies); Cache waits for Database.
        await log.latch("WarmSearch").waitUntilEntered()
        await log.latch("WarmDatabase").waitUntilEntered()
        #expect(!log.entries.contains("warmUp start WarmCache"))
        // Both are in flight at once: overlapping intervals. They run as concurrent tasks, so which one's
        // first line runs first is up to the scheduler.
        #expect(
            Set(log.entries.filter { $0.hasPrefix("warmUp") }) == [
                "warmUp start WarmSearch", "warmUp start WarmDatabase",
            ]
        )
        log.latch("WarmDatabase").open()
        await log.latch("WarmCache").waitUntilEntered()
        #expect(!log.entries.contains("warmUp end WarmSearch"), "Search is still warming while Cache starts")
        log.latch("WarmCache").open()
        log.latch("WarmSearch").open()
        _ = try await launch.value
        let entries = log.entries
        let databaseEnd = try #require(entries.firstIndex(of: "warmUp end WarmDatabase"))
        let cacheStart = try #require(entries.firstIndex(of: "warmUp start WarmCache"))
        #expect(databaseEnd < cacheStart)
    }

    @Test("Readiness: await one module or everyone; with waiting off, launch returns before warm-up ends")
    func readiness() async throws {
        let log = StageLog()
        let host = try host(log, waits: false)
        try await host.launch()  // returns while warm-up is still held
        #expect(log.entries.contains("didFinishLaunching WarmSearch"))
        #expect(!log.entries.contains("warmUp end WarmSearch"))

        let searchReady = Task { try await host.waitUntilReady(WarmSearch.self) }
        let allReady = Task { try await host.waitUntilReady() }
        log.latch("WarmSearch").open()
        try await searchReady.value
        #expect(log.entries.contains("warmUp end WarmSearch"))
        log.latch("WarmDatabase").open()
        log.latch("WarmCache").open()
        try await allReady.value
        #expect(log.entries.contains("warmUp end WarmCache"))
    }

    @Test("Waiting for readiness of a host that terminates first is a typed error")
    func neverReady() async throws {
        let log = StageLog()
        let host = try host(log, waits: false)
        try await host.launch()
        let waiting = Task { try await host.waitUntilReady() }
        try await host.terminate()
        let error = await #expect(throws: LifecycleError.self) { try await waiting.value }
        #expect(error?.code == .notReady)
        for name in ["WarmSearch", "WarmDatabase", "WarmCache"] { log.latch(name).open() }
    }

    @Test("terminate() stops a background warm-up: nothing more starts once the host is terminating")
    func terminateStopsBackgroundWarmUp() async throws {
        let log = StageLog()
        let host = try host(log, waits: false)
        try await host.launch()
        await log.latch("WarmDatabase").waitUntilEntered()
        try await host.terminate()
        log.latch("WarmDatabase").open()  // Cache depended on it; it must not start now
        log.latch("WarmSearch").open()
        try await host.waitUntilIdle()
        for _ in 0..<100 { await Task.yield() }
        #expect(!log.entries.contains("warmUp start WarmCache"))
        #expect(host.state == .terminated)
    }

    @Test("A refused terminate() does not make readiness impossible")
    func refusedTerminateKeepsReadiness() async throws {
        let log = StageLog()
        for name in ["WarmSearch", "WarmDatabase", "WarmCache"] { log.latch(name).open() }
        let host = try host(log)
        await #expect(throws: LifecycleError.self) { try await host.terminate() }  // not running yet
        try await host.launch()
        try await host.waitUntilReady()
    }

    @Test("A cancelled waitUntilReady() throws `cancelled` at once")
    func readinessWaitIsCancellable() async throws {
        let host = try host(StageLog())
        let waiting = Task { try await host.waitUntilReady() }
        waiting.cancel()
        let error = await #expect(throws: LifecycleError.self) { try await waiting.value }
        #expect(error?.code == .cancelled)
    }

    @Test("A warm-up failure of an aborting module stops the stage and rolls launch back")
    func warmUpAbort() async throws {
        let log = StageLog()
        var options = LaunchOptions()
        options[StageLogKey.self] = log
        let host = try ApplicationHost(
            manifest: ModuleManifest([FailingWarmUp.self, WarmSearch.self]),
            launchOptions: options,
            configuration: .init(launchFailurePolicy: .abort, clock: VirtualClock())
        )
        log.latch("WarmSearch").open()
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.code == .launchAborted)
        #expect(error?.failures.first?.participant.name == FailingWarmUp.moduleName)
        #expect(!log.entries.contains("didFinishLaunching WarmSearch"))
        #expect(host.state == .terminated)
    }
}

/// Fails in warm-up.
struct FailingWarmUp: LifecycleModule, WarmUpStage {
    static let priority: ModulePriority = .maximum
    init(context: LifecycleContext) {}
    func warmUp(_ context: LifecycleContext) throws {
        throw FixtureFailure(participant: "FailingWarmUp", event: "warmUp")
    }
}
