import GreetingInterface
import LifecycleCore
import LifecycleProxy
import LifecycleServices
import Synchronization
import Testing

// This target imports the service protocol only. The provider, `GreetingProvider.GreeterModule`, is
// linked and discovered (the plugin's `.discovered` lists it), never imported.

/// Greets on launch through the `Greeter` service, at a higher priority than its provider.
struct WelcomeModule: LifecycleModule, ServiceRequiringModule, SetupStage {
    static let priority: ModulePriority = .high
    static let requiredServices = ServiceRequirements((any Greeter).self)
    let greetings: Greetings

    init(context: LifecycleContext) { greetings = context.launchOptions[GreetingsKey.self] }

    func setUp(_ context: LifecycleContext) async throws {
        greetings.record(try context.services(for: Self.self).require((any Greeter).self).greet("services"))
    }
}

final class Greetings: Sendable {
    private let lines = Mutex<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

enum GreetingsKey: LaunchOptionKey {
    static let defaultValue = Greetings()
}

@Suite("A service across targets")
struct CrossTargetServiceTests {
    @Test("The discovered manifest orders the requirer after a provider it never imports, and resolves it")
    func resolvesAcrossTargets() async throws {
        let greetings = Greetings()
        var options = LaunchOptions()
        options[GreetingsKey.self] = greetings
        let host = try ApplicationHost(manifest: .discovered, launchOptions: options)
        #expect(
            host.plan(for: .setup).map(\.name)
                == ["LifecycleServices.ServiceRegistryModule", "ServicesExampleTests.WelcomeModule"]
        )
        let welcome = try #require(host.participants.first { $0.name == "ServicesExampleTests.WelcomeModule" })
        #expect(
            host.dependencies(of: welcome).map(\.description)
                == ["GreetingProvider.GreeterModule (requires service `Greeter`)"]
        )
        try await host.launch()
        #expect(greetings.all == ["Hello, services!"])
        #expect(host.context.services.resolutions(by: WelcomeModule.self) == [ServiceKey((any Greeter).self): 1])
        try await host.terminate()
    }
}
