import LifecycleProxy
import LifecycleCore
import Testing

/// Low priority, but others depend on it.
struct Database: RecordingModule {
    static let priority: ModulePriority = .low
    let script: Script
}

/// High priority, and depends on the low-priority Database.
struct Cache: RecordingModule, DependentModule {
    static let priority: ModulePriority = .high
    static let dependencies: [any LifecycleModule.Type] = [Database.self]
    let script: Script
}

/// Depends on Cache, so transitively on Database.
struct Search: RecordingModule, DependentModule {
    static let priority: ModulePriority = .maximum
    static let dependencies: [any LifecycleModule.Type] = [Cache.self]
    let script: Script
}

struct CycleA: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [CycleB.self]
    init(context: LifecycleContext) {}
}

struct CycleB: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [CycleC.self]
    init(context: LifecycleContext) {}
}

struct CycleC: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [CycleA.self]
    init(context: LifecycleContext) {}
}

struct PairA: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [PairB.self]
    init(context: LifecycleContext) {}
}

struct PairB: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [PairA.self]
    init(context: LifecycleContext) {}
}

struct SelfDependent: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [SelfDependent.self]
    init(context: LifecycleContext) {}
}

@Suite("Dependencies")
struct DependencyTests {
    @Test("Dependencies start first; priority orders what dependencies leave free; ties keep manifest order")
    func topologicalOrderWithPriority() async throws {
        let script = Script()
        // Manifest order deliberately puts dependents first.
        let host = try makeHost([Search.self, Cache.self, NormalA.self, Database.self, NormalB.self], script: script)
        try await host.launch()
        // Ready at first: NormalA, Database, NormalB (Search and Cache wait). NormalA and NormalB (5000)
        // beat Database (1000), in manifest order; Database then frees Cache, which frees Search.
        let expected = ["NormalA", "NormalB", "Database", "Cache", "Search"]
        #expect(script.journal.receivers(of: "willFinishLaunching") == expected)
        #expect(host.plan(for: .didBecomeActive).map { shortName($0.name) } == expected)
    }

    @Test("On the way down, dependencies stop last: the exact mirror")
    func teardownMirrorsDependencies() async throws {
        let script = Script()
        let host = try makeHost([Search.self, Cache.self, Database.self], script: script)
        try await host.launch()
        try await host.enterBackground()
        try await host.terminate()
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["Database", "Cache", "Search"])
        #expect(script.journal.receivers(of: "willTerminate") == ["Search", "Cache", "Database"])
        #expect(script.journal.receivers(of: "didEnterBackground") == ["Search", "Cache", "Database"])
    }

    @Test("A cycle is a typed error whose message gives the full path, and nothing is created")
    func cycleMessage() {
        let error = #expect(throws: ManifestError.self) {
            try makeProxy([NormalA.self, CycleA.self, CycleB.self, CycleC.self])
        }
        #expect(error?.code == .dependencyCycle)
        let a = CycleA.moduleName
        let b = CycleB.moduleName
        let c = CycleC.moduleName
        #expect(error?.modules == [a, b, c, a])
        #expect(error?.description.hasPrefix("Dependency cycle: \(a) → \(b) → \(c) → \(a).") == true)
        #expect(error?.description.contains("`\(c)` depends on `\(a)`") == true)
    }

    @Test("A cycle of two is reported with both modules")
    func twoCycle() {
        let error = #expect(throws: ManifestError.self) { try makeProxy([PairB.self, PairA.self]) }
        #expect(error?.code == .dependencyCycle)
        #expect(error?.modules == [PairB.moduleName, PairA.moduleName, PairB.moduleName])
    }

    @Test("A module depending on itself is its own typed error")
    func selfDependency() {
        let error = #expect(throws: ManifestError.self) { try makeProxy([SelfDependent.self]) }
        #expect(error?.code == .selfDependency)
        #expect(error?.modules == [SelfDependent.moduleName])
    }

    @Test("A dependency missing from the manifest is a typed error naming both modules")
    func missingDependency() {
        let error = #expect(throws: ManifestError.self) { try makeProxy([Search.self, Database.self]) }
        #expect(error?.code == .missingDependency)
        #expect(error?.modules == [Search.moduleName])
        #expect(
            error?.description.contains(
                "`\(Search.moduleName)` depends on `\(Cache.moduleName)`, which is not in manifest `Tests`"
            ) == true
        )
        // A manifest written by hand without a name is "the manifest", not "manifest `manifest`".
        let unnamed = #expect(throws: ManifestError.self) {
            try ApplicationHost(manifest: ModuleManifest([Search.self, Database.self]))
        }
        #expect(unnamed?.description.contains("`\(Cache.moduleName)`, which is not in the manifest.") == true)
        #expect(unnamed?.description.contains("`manifest`") == false)
    }

    @Test("Without dependencies the order is priority, then manifest order, as before")
    func noDependenciesIsPriorityOrder() throws {
        let proxy = try makeProxy([Low.self, NormalB.self, High.self, NormalA.self])
        #expect(proxy.plan(for: .didBecomeActive).map { shortName($0.name) } == ["High", "NormalB", "NormalA", "Low"])
    }
}
