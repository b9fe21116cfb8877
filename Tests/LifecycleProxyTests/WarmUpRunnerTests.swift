import LifecycleCore
import LifecycleProxy
import Testing

// The warm-up stage keeps its own runners instead of a task group: a budgeted hook may have to be
// abandoned, and a child task of a group cannot outlive its group (Docs/Architecture.md, "Concurrency").
// These are the runners' invariants, observed from the hooks themselves: which task each one ran in.

/// Which task each warm-up ran in, by module.
final class RunnerLog: Sendable {
    private let tasks = Locked<[String: Int]>([:])

    /// Records the task the caller runs in for `module`.
    func record(_ module: String) {
        let task = withUnsafeCurrentTask { $0?.hashValue } ?? 0
        tasks.withLock { $0[module] = task }
    }

    var byModule: [String: Int] { tasks.withLock { $0 } }
}

enum RunnerLogKey: LaunchOptionKey {
    static let defaultValue = RunnerLog()
}

protocol RunnerModule: LifecycleModule, WarmUpStage {
    init()
}

extension RunnerModule {
    static var priority: ModulePriority { .normal }
    init(context: LifecycleContext) { self.init() }
    func warmUp(_ context: LifecycleContext) {
        context.launchOptions[RunnerLogKey.self].record(String(describing: Self.self))
    }
}

struct ChainA: RunnerModule {}
struct ChainB: RunnerModule, DependentModule {
    static let dependencies: [any LifecycleModule.Type] = [ChainA.self]
}
struct ChainC: RunnerModule, DependentModule {
    static let dependencies: [any LifecycleModule.Type] = [ChainB.self]
}
struct ChainD: RunnerModule, DependentModule {
    static let dependencies: [any LifecycleModule.Type] = [ChainC.self]
}

struct RunnerRoot: RunnerModule {}
struct RunnerFanFirst: RunnerModule, DependentModule {
    static let dependencies: [any LifecycleModule.Type] = [RunnerRoot.self]
}
struct RunnerFanSecond: RunnerModule, DependentModule {
    static let dependencies: [any LifecycleModule.Type] = [RunnerRoot.self]
}
struct RunnerFanLast: RunnerModule, DependentModule {
    static let dependencies: [any LifecycleModule.Type] = [RunnerRoot.self]
}

@Suite("Warm-up runners: a chain runs in one task; the last dependent released continues in its runner")
struct WarmUpRunnerTests {
    func launch(_ modules: [any LifecycleModule.Type]) async throws -> [String: Int] {
        let log = RunnerLog()
        var options = LaunchOptions()
        options[RunnerLogKey.self] = log
        let host = try ApplicationHost(manifest: ModuleManifest(name: "Runners", modules), launchOptions: options)
        try await host.launch()
        try await host.terminate()
        return log.byModule
    }

    @Test("Modules that become ready one after another warm up in one runner task, with budgets or without")
    func chainRunsInOneTask() async throws {
        let tasks = try await launch([ChainA.self, ChainB.self, ChainC.self, ChainD.self])
        #expect(tasks.count == 4)
        #expect(Set(tasks.values).count == 1, "one task for the chain, not one per hook: \(tasks)")
    }

    @Test("A hook that releases several dependents runs the last of them itself; the others get runners of their own")
    func lastDependentContinues() async throws {
        let tasks = try await launch([RunnerRoot.self, RunnerFanFirst.self, RunnerFanSecond.self, RunnerFanLast.self])
        let root = try #require(tasks["RunnerRoot"])
        #expect(
            tasks["RunnerFanLast"] == root,
            "the last one released, in delivery order, continues in the root's runner"
        )
        #expect(tasks["RunnerFanFirst"] != root)
        #expect(tasks["RunnerFanSecond"] != root)
        #expect(tasks["RunnerFanFirst"] != tasks["RunnerFanSecond"])
    }
}
