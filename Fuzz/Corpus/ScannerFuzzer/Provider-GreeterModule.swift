import GreetingInterface
public import LifecycleCore
public import LifecycleServices

/// Provides the `Greeter` service. Its implementation is internal: other targets see only the protocol.
public struct GreeterModule: LifecycleModule, ServiceProvidingModule {
    public static let priority: ModulePriority = .low

    public init(context: LifecycleContext) {}

    public static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any Greeter).self) { _ in EnglishGreeter() }
    }
}

struct EnglishGreeter: Greeter {
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}
