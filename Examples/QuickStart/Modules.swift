import LifecycleCore

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

struct HTTPServerModule: LifecycleModule, DidFinishLaunching, WillTerminate {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        print("server: listening")
        return true
    }

    func willTerminate(_ context: LifecycleContext) async throws {
        print("server: drained and stopped")
    }
}
// README: end
