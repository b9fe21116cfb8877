import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// Random lifecycles with faults injected into work attempts (LifecycleExploration, Docs/Testing.md).

/// How many times the consumer's body started, in one run.
private final class StartCount: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

private enum StartCountKey: LaunchOptionKey {
    static let defaultValue = StartCount()
}

/// Consumes for the application's lifetime; gives up at its first failure, without restarting.
private struct Consumer: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(
            restart: .transient,
            intensity: .init(maxRestarts: 0, within: .seconds(60)),
            escalation: .ignore
        )
        work.run("consume", policy: policy) { _, context in
            context.lifecycle.launchOptions[StartCountKey.self].increment()
            await context.gracefulShutdown()
        }
    }
}

@Suite("Work: faults injected by random lifecycles")
struct WorkExplorationTests {
    @Test("A work attempt that fails in place of its body is found, and shrunk to that one fault")
    func workAttemptsAreFaulted() async throws {
        let exploration = LifecycleExploration(
            manifest: ModuleManifest(name: "Work", [Consumer.self]).withWork(),
            invariants: [
                LifecycleInvariant("the consumer runs in every lifecycle") { snapshot in
                    !snapshot.isFinal || !snapshot.steps.contains(.launch)
                        || snapshot.launchOptions[StartCountKey.self].value > 0
                }
            ],
            faults: ExplorationFaults(rate: 0.3, hangs: false),
            launchOptions: {
                var options = LaunchOptions()
                options[StartCountKey.self] = StartCount()
                return options
            }
        )
        let failure = try #require(try await exploration.run(100).failure)
        #expect(failure.failedAtTheEnd)
        #expect(failure.shrunkSteps == [.launch, .terminate])
        let fault = try #require(failure.shrunkFaults.first)
        #expect(failure.shrunkFaults.count == 1)
        #expect(fault.participant == Consumer.moduleName)
        #expect(fault.site == "work consume")
        #expect(fault.occurrence == 1)
        #expect(fault.kind == .failure)
    }
}
