public import LifecycleCore
public import LifecycleServices

/// Service number `Number.value`: one distinct service type per number, so a registry can hold as many
/// services as a benchmark needs.
public struct NumberedService<Number: TypeNumber>: Sendable {
    public let value: Int
}

/// Provides ten services, `NumberedService` 10 × `Number.value` to 10 × `Number.value` + 9: the
/// benchmark's "10 services per module".
public struct ServiceProvidingNumbered<Number: TypeNumber>: LifecycleModule, ServiceProvidingModule {
    public static var priority: ModulePriority { .normal }

    public init(context: LifecycleContext) {}

    public static func provideServices(_ services: inout ServiceProvisions) {
        let base = Number.value * 10
        for k in 0..<10 {
            let number: any TypeNumber.Type = SyntheticCatalog.serviceNumbers[base + k]
            provideNumbered(number, into: &services)
        }
    }
}

private func provideNumbered<N: TypeNumber>(_: N.Type, into services: inout ServiceProvisions) {
    services.singleton(NumberedService<N>.self) { _ in NumberedService(value: N.value) }
}

/// The service the resolution benchmark resolves: a protocol, as services usually are.
public protocol BenchService: Sendable {
    /// The work a caller does with the service: read a value.
    func value() -> Int
}

/// The only implementation of ``BenchService``.
public final class BenchServiceImplementation: BenchService {
    let stored: Int

    public init(stored: Int) { self.stored = stored }

    @inline(never)
    public func value() -> Int { stored }
}

/// Provides ``BenchService``.
public struct BenchServiceModule: LifecycleModule, ServiceProvidingModule {
    public static var priority: ModulePriority { .normal }

    public init(context: LifecycleContext) {}

    public static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any BenchService).self) { _ in BenchServiceImplementation(stored: 7) }
    }
}

extension SyntheticCatalog {
    /// The type numbers of the services, built once: `typeNumber(_:)` walks about log2(n) generic types,
    /// which a registry build must not measure.
    public static let serviceNumbers: [any TypeNumber.Type] = (0..<SyntheticGraph.maximumCount * 10).map(typeNumber)

    /// `ServiceProvidingNumbered` module types 0, 1, 2, …, each providing ten services.
    public static let serviceProviders: [any ServiceProvidingModule.Type] =
        (0..<SyntheticGraph.maximumCount).map { serviceProvider(typeNumber($0)) }

    /// The same modules, declared with an (empty) capability table, as the discovery plugin lists them.
    public static let serviceProvidersDeclared: [DeclaredModule] = serviceProviders.map {
        DeclaredModule($0) { _, _ in }
    }

    private static func serviceProvider<Number: TypeNumber>(_: Number.Type) -> any ServiceProvidingModule.Type {
        ServiceProvidingNumbered<Number>.self
    }
}
