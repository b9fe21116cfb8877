import ExampleFeatures
import LifecycleCore
import LifecycleServices
import LifecycleWork

/// Owns work (LifecycleWork, `Docs/Work.md`): a loop that counts the open todos every second, from the end
/// of launch until the host stops its work, before `willTerminate`, after Vapor's server has drained.
struct RemindersModule: LifecycleModule, WorkingModule {
    static let priority: ModulePriority = .low
    let transcript: Transcript

    init(context: LifecycleContext) throws {
        transcript = try context.transcript(for: Self.self)
    }

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("reminders", .application()) { module, context in
            try await module.remind(context)
        }
    }

    /// Counts the todos every second until the host asks the work to stop.
    func remind(_ context: WorkContext) async throws {
        let store = try context.lifecycle.services.require(TodoStore.self)
        transcript.write("reminders: started")
        while !context.isShuttingDown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await Task.sleep(for: .seconds(1)) }
                group.addTask { await context.gracefulShutdown() }
                await group.next()
                group.cancelAll()
            }
            _ = await store.count
        }
        transcript.write("reminders: stopped")
    }
}
