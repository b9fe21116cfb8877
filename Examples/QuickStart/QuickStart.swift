import LifecycleCore
import LifecycleProxy

// README: embed the host
@main
struct QuickStart {
    static let manifest = ModuleManifest([HTTPServerModule.self, ConfigurationModule.self])

    static func main() async throws {
        let host = try ApplicationHost(manifest: manifest)
        try await host.launch()  // configuration first: it has the higher priority
        // ... serve until it is time to stop ...
        try await host.terminate()
    }
}
// README: end
