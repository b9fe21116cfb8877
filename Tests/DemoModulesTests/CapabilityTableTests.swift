import DemoModules
import LifecycleCore
import LifecycleProxy
import LifecycleServices
import TestingExample
import Testing

/// The runtime scan as the oracle for the generated capability tables: for every module of the
/// repository's generated manifests, the table the discovery plugin wrote says exactly what the runtime's
/// conformance checks say.
@Suite("Generated capability tables against the runtime")
struct CapabilityTableTests {
    /// Each generated library manifest, with launch options that enable every one of its modules.
    static let manifests: [(ModuleManifest, LaunchOptions)] = [
        (.DemoModules, demoOptions),
        (
            .TestingExample,
            LaunchOptions(
                arguments: ["--profile", "development"],
                environment: ["PAYMENTS_API_KEY": "test-key"]
            )
        ),
    ]

    static var demoOptions: LaunchOptions {
        var options = LaunchOptions(arguments: ["serve", "--profile", "production", "--slow-terminate", "1"])
        options[DemoServicesKey.self] = DemoServices(console: DemoConsole(echo: false))
        return options
    }

    @Test("The plugin declared every module: none is left to the runtime", arguments: 0..<2)
    func everyModuleDeclared(index: Int) {
        let manifest = Self.manifests[index].0
        #expect(manifest.entries.count >= 4)
        let undeclared = manifest.entries.filter { $0.capabilities == nil }.map(\.moduleName)
        #expect(undeclared.isEmpty, "read at run time: \(undeclared)")
    }

    @Test("Every declaration matches the runtime's conformances, hooks, forms and statics", arguments: 0..<2)
    func declarationsMatchTheRuntime(index: Int) throws {
        let (manifest, options) = Self.manifests[index]
        let proxy = try DelegateProxy(manifest: manifest, launchOptions: options)
        #expect(proxy.disabledModules.isEmpty)
        // Every entry, plus the service registry first and the router last when the manifest's modules
        // provide services and serve routes (the demo's do).
        let prepared = !manifest.preparations.isEmpty
        #expect(prepared == (index == 0))
        #expect(proxy.participants.count == manifest.entries.count + (prepared ? 2 : 0))
        if prepared {
            #expect(proxy.participants.first?.name == ServiceRegistryModule.moduleName)
            #expect(proxy.participants.last?.name == "LifecycleRouting.RouterModule")
        }
        try proxy.checkDeclarations()
        for entry in manifest.entries {
            #expect(entry.capabilities?.shape == entry.castShape, "\(entry.moduleName)")
        }
    }
}
