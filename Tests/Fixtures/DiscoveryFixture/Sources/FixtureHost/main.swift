import LifecycleCore
import LifecycleProxy

struct HostModule: LifecycleModule {
    static let priority: ModulePriority = .maximum
    init(context: LifecycleContext) {}
}

// Printed for Scripts/test-discovery-fixture.sh: the generated manifest, then the delivery order.
let manifest = ModuleManifest.discovered
for entry in manifest.entries { print("entry \(entry.moduleName)") }
let host = try ApplicationHost(manifest: manifest, launchOptions: LaunchOptions())
for participant in host.participants { print("order \(participant.name)") }
try await host.launch()
try await host.waitUntilReady()  // every work that reports readiness has (the work step adds one)
try await host.terminate()
print("state \(host.state)")
