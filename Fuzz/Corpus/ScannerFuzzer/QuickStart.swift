import LifecycleCore
import LifecycleProxy

// README: embed the host
@main
struct QuickStart {
    static func main() async throws {
        // `.discovered` is generated at build time by ModuleDiscoveryPlugin: every module in this target
        // and its dependencies. Priority decides the order.
        let host = try ApplicationHost(manifest: .discovered)
        do {
            try await host.launch()  // configuration first: it has the higher priority
            try await host.waitUntilReady()  // the server's work said it listens
            // ... serve until it is time to stop ...
        } catch {
            print("launch: \(error)")  // lists the hooks that failed; the other modules launched
        }
        try await host.terminate()
    }
}
// README: end
