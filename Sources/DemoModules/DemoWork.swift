public import LifecycleCore
public import LifecycleWork

/// Consumes the demo's job queue while the application is active: its work stops before
/// `willResignActive` (the queue keeps what arrives meanwhile) and starts again after `didBecomeActive`.
public struct QueueConsumerModule: WorkingModule {
    public static let priority: ModulePriority = .low + 100
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public static func declareWork(_ work: inout WorkList<Self>) {
        work.run("consume", .whileActive) { module, context in
            let jobs = module.services.jobs
            while let job = await jobs.next(context) {
                module.services.console.write("    QueueConsumer: processed \(job)")
                jobs.done()
            }
            module.services.console.write("    QueueConsumer: paused, \(jobs.waiting) job(s) waiting")
        }
    }
}

/// Serves HTTP on the loopback interface for the application's lifetime, in `lifecycle-demo serve` only
/// (`--port <n>`, default a free port): a real listener as a module's work. It reports ready once it
/// listens, so the runner's `READY=1` waits for it, and closes on graceful shutdown, before `willTerminate`.
public struct ListenerModule: WorkingModule, EnvironmentGatedModule {
    public static let priority: ModulePriority = .low + 200
    let services: DemoServices
    let port: UInt16

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
        port = context.launchOptions.argument("--port").flatMap { UInt16($0) } ?? 0
    }

    public static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        options.arguments.contains("serve") ? .enabled : .disabled("it listens only in lifecycle-demo serve")
    }

    public static func declareWork(_ work: inout WorkList<Self>) {
        work.run("listen", reportsReadiness: true) { module, context in
            let listener = try DemoListener(port: module.port) { path in
                path == "/health" ? "\(context.lifecycle.applicationState)\n" : nil
            }
            module.services.console.write("    Listener: serving HTTP on 127.0.0.1:\(listener.port)")
            context.reportReady()
            await context.gracefulShutdown()
            let served = listener.shutDown()
            module.services.console.write("    Listener: closed after \(served) request(s)")
        }
    }
}
