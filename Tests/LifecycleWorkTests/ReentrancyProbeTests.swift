import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

final class HostBox: Sendable {
    let host = Locked<ApplicationHost?>(nil)
}

enum HostBoxKey: LaunchOptionKey {
    static let defaultValue = HostBox()
}

/// Work started after `setup` that asks the host something while launch is still running.
private struct EarlyAsker: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("asker", .application(startingAfter: .setup)) { _, context in
            let host = context.lifecycle.launchOptions[HostBoxKey.self].host.withLock { $0 }
            do {
                try await host?.waitUntilIdle()
                context.recorder.record("idle")
            } catch {
                context.recorder.record("threw \((error as? LifecycleError).map { "\($0.code)" } ?? "\(error)")")
            }
            await context.gracefulShutdown()
        }
    }
}

/// Holds launch (its didFinishLaunching) until the asker has an answer, or a bounded number of yields.
private struct Holder: LifecycleModule, DependentModule, DidFinishLaunching {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [EarlyAsker.self]
    let context: LifecycleContext
    init(context: LifecycleContext) { self.context = context }
    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        let recorder = context.launchOptions[RecorderKey.self]
        _ = await recorder.wait { !$0.isEmpty }
        return false
    }
}

@Suite("Probe: work asking the host during launch")
struct ReentrancyProbeTests {
    @Test("a work's host request during launch is not reentrant")
    func probe() async throws {
        let recorder = Recorder()
        let box = HostBox()
        var options = LaunchOptions()
        options[RecorderKey.self] = recorder
        options[HostBoxKey.self] = box
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Probe", [EarlyAsker.self, Holder.self]).withWork(),
            launchOptions: options,
            configuration: .init(hookBudget: nil, terminateDeadline: nil, journalCapacity: 0)
        )
        box.host.withLock { $0 = host }
        _ = try await host.launch()
        _ = await recorder.wait { !$0.isEmpty }
        try await host.terminate()
        print("PROBE entries:", recorder.entries)
        #expect(recorder.entries.first == "idle")
    }
}
