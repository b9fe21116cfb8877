import LifecycleCore
import LifecycleProxy
import LifecycleServices
import Synchronization
import SyntheticModules

#if GeneratedModules
import GeneratedServices
#endif

// The services rows: resolving a singleton from a registry of N services, against the same look-up by
// hand and the limit, and building a host's registry for N modules of ten services each.

/// A hand-written registry: a `Mutex`-protected dictionary keyed by `ObjectIdentifier` of the service
/// type, whose values box the service.
final class LockedRegistry: Sendable {
    final class Box: Sendable {
        let service: any BenchService
        init(_ service: any BenchService) { self.service = service }
    }

    private let table: Mutex<[ObjectIdentifier: AnyObject]>

    init(filler: Int, service: any BenchService) {
        var table: [ObjectIdentifier: AnyObject] = [:]
        for index in 0..<filler { table[ObjectIdentifier(typeNumber(index))] = Box(service) }
        table[ObjectIdentifier((any BenchService).self)] = Box(service)
        self.table = Mutex(table)
    }

    @inline(__always)
    func lookup() -> (any BenchService)? {
        guard let box = table.withLock({ $0[ObjectIdentifier((any BenchService).self)] }) else { return nil }
        return unsafeDowncast(box, to: Box.self).service
    }
}

/// The limit: the service in a stored property, read directly.
final class ServiceHolder: Sendable {
    let service: any BenchService
    init(_ service: any BenchService) { self.service = service }
}

@inline(never)
func resolveFromRegistry(_ services: ServiceResolver, _ count: Int) -> Int {
    var sum = 0
    for _ in 0..<count { sum &+= (try? services.require((any BenchService).self).value()) ?? 0 }
    return sum
}

@inline(never)
func resolveFromLockedDictionary(_ registry: LockedRegistry, _ count: Int) -> Int {
    var sum = 0
    for _ in 0..<count { sum &+= registry.lookup()?.value() ?? 0 }
    return sum
}

@inline(never)
func readStoredProperty(_ holder: ServiceHolder, _ count: Int) -> Int {
    var sum = 0
    for _ in 0..<count { sum &+= holder.service.value() }
    return sum
}

func serviceCases(_ n: Int) -> [BenchCase] {
    // A registry of ~N services: N / 10 modules of ten, and the one resolved.
    let providers = Array(SyntheticCatalog.serviceProvidersDeclared.prefix(max(1, n / 10)))
    let manifest = ModuleManifest(
        name: "services",
        declared: providers + [DeclaredModule(BenchServiceModule.self) { _, _ in }]
    ).withServices(
        providers: Array(SyntheticCatalog.serviceProviders.prefix(max(1, n / 10))) + [BenchServiceModule.self],
        requirers: []
    )
    guard let host = try? ApplicationHost(manifest: manifest, launchOptions: LaunchOptions()) else {
        fatalError("services: the host did not build")
    }
    let implementation = BenchServiceImplementation(stored: 7)
    let locked = LockedRegistry(filler: n, service: implementation)
    let holder = ServiceHolder(implementation)
    let expected = 7 * n

    func check(_ sum: Int, _ system: System) {
        if sum != expected { fatalError("\(system.id) resolved \(sum), expected \(expected)") }
    }

    return [
        BenchCase(system: .servicesResolve, modules: n, expectedTicks: nil) { meter, iterations in
            if host.state == .notRunning { _ = try? await host.launch() }
            let services = host.context.services
            check(resolveFromRegistry(services, n), .servicesResolve)  // creates the singleton
            meter.begin()
            for _ in 0..<iterations { check(resolveFromRegistry(services, n), .servicesResolve) }
            meter.end()
        },
        BenchCase(system: .lockedDictionary, modules: n, expectedTicks: nil) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(resolveFromLockedDictionary(locked, n), .lockedDictionary) }
            meter.end()
        },
        BenchCase(system: .storedService, modules: n, expectedTicks: nil) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(readStoredProperty(holder, n), .storedService) }
            meter.end()
        },
    ]
}

/// Building a proxy for N modules of ten services each, with and without their services: over the
/// generic providers at every N, and over the generated non-generic ones up to their count.
func serviceBuildCases(_ n: Int, includeGenerated: Bool) -> [BenchCase] {
    var cases = [
        registryBuild(
            .buildServices,
            declared: SyntheticCatalog.serviceProvidersDeclared.prefix(n),
            providers: SyntheticCatalog.serviceProviders.prefix(n),
            requirers: []
        ),
        registryBuild(.buildNoServices, declared: SyntheticCatalog.serviceProvidersDeclared.prefix(n)),
    ]
    #if GeneratedModules
    if includeGenerated, n <= generatedServiceProviders.count {
        cases.append(
            registryBuild(
                .buildServicesGenerated,
                declared: generatedServiceProvidersDeclared.prefix(n),
                providers: generatedServiceProviders.prefix(n),
                requirers: generatedServiceRequirers.prefix(n - 1)
            )
        )
        cases.append(registryBuild(.buildNoServicesGenerated, declared: generatedServiceProvidersDeclared.prefix(n)))
    }
    #endif
    return cases
}

/// Builds a proxy for the modules of `declared`, with the services of `providers` and `requirers`, or
/// without services when both are `nil`.
private func registryBuild(
    _ system: System,
    declared: ArraySlice<DeclaredModule>,
    providers: ArraySlice<any ServiceProvidingModule.Type>? = nil,
    requirers: ArraySlice<any ServiceRequiringModule.Type>? = nil
) -> BenchCase {
    let n = declared.count
    let plain = ModuleManifest(name: system.id, declared: Array(declared))
    let withServices = providers != nil
    let manifest =
        if let providers {
            plain.withServices(providers: Array(providers), requirers: Array(requirers ?? []))
        } else {
            plain
        }
    let participants = n + (withServices ? 1 : 0)
    return BenchCase(system: system, modules: n, expectedTicks: nil) { meter, iterations in
        for _ in 0..<iterations {
            meter.begin()
            let proxy = try? DelegateProxy(manifest: manifest)
            meter.end()
            if proxy?.participants.count != participants { fatalError("\(system.id) did not build \(n) participants") }
        }
    }
}
