import LifecycleCore
import LifecycleWork

// README: declare a module
struct ConfigurationModule: LifecycleModule, WillFinishLaunching {
    static let priority: ModulePriority = .high

    let port: Int

    init(context: LifecycleContext) throws {
        port = Int(context.launchOptions.argument("--port") ?? "8080") ?? 8080
    }

    func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        print("configuration: port \(port)")
        return true
    }
}

struct HTTPServerModule: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    // The server is work the module owns: it starts once launch has completed, is asked to stop before
    // willTerminate, and is cancelled if it does not stop within its policy's grace period.
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("serve", reportsReadiness: true) { module, context in
            print("server: listening")
            context.reportReady()
            await context.gracefulShutdown()
            print("server: drained and stopped")
        }
    }
}
// README: end
