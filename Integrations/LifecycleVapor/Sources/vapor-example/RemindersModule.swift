import ExampleFeatures
import LifecycleCore
import LifecycleHosting
import LifecycleServices
import LifecycleWork

/// Owns work (LifecycleWork, `Docs/Work.md`): a loop that counts the open todos every second, from the end
/// of launch until the host stops its work, before `willTerminate`, after Vapor's server has drained. Says
/// when the host leaves the foreground and comes back (SIGUSR1, SIGUSR2, the admin routes) and when a reload
/// asks it to re-read its settings (SIGHUP, `ReloadRequested`).
struct RemindersModule: LifecycleModule, WorkingModule, DidEnterBackground, WillEnterForeground, CustomEventHandling {
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

    func didEnterBackground(_ context: LifecycleContext) {
        transcript.write("reminders: background")
    }

    func willEnterForeground(_ context: LifecycleContext) {
        transcript.write("reminders: foreground")
    }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(ReloadRequested.self) { module, event, _ in
            module.transcript.write("reminders: reloaded on \(event.signal)")
            return false  // nothing to re-read: the example has no settings file
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
