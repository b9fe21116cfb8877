import LifecycleCore
import LifecycleProxy

// README: embed the host
@main
struct QuickStart {
    static let manifest = ModuleManifest([HTTPServerModule.self, ConfigurationModule.self])

    static func main() async throws {
        let host = try ApplicationHost(manifest: manifest)
        do {
            try await host.launch()  // configuration first: it has the higher priority
            // ... serve until it is time to stop ...
        } catch {
            print("launch: \(error)")  // lists the hooks that failed; the other modules launched
        }
        try await host.terminate()
    }
}
// README: end
