import LifecycleCore
import LifecycleProxy
import LifecycleServices
import Synchronization
import Foundation
import Testing

/// Provides the database only in production.
struct ProductionPool: LifecycleModule, ServiceProvidingModule, EnvironmentGatedModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        options.profile == "production" ? .enabled : .disabled("production only")
    }
    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any DatabaseClient).self) { resolver in
            PooledDatabase(name: "production", recorder: resolver.launchOptions[RecorderKey.self])
        }
    }
}

@Suite("Services: validation before anything is created")
struct ServiceValidationTests {
    @Test("Two providers of one service are an error naming both and the fix; an override chooses one")
    func duplicateProvider() async throws {
        let error = #expect(throws: ManifestError.self) { try servicesHost([PoolModule.self, ReplicaModule.self]) }
        #expect(error?.code == .duplicateServiceProvider)
        #expect(error?.modules.map(short) == ["PoolModule", "ReplicaModule"])
        #expect(error?.description.contains("service `DatabaseClient` is provided by") == true)
        // The fix names the real types, a protocol with `any`, as ExistentialAny requires.
        #expect(
            error?.description.contains(
                "$0.choose(LifecycleServicesTests.PoolModule.self, for: (any DatabaseClient).self)"
            ) == true
        )

        let (host, _) = try servicesHost([PoolModule.self, ReplicaModule.self, CacheModule.self]) {
            $0.choose(ReplicaModule.self, for: (any DatabaseClient).self)
        }
        try await host.launch()
        #expect(try host.context.services.require((any DatabaseClient).self).name == "replica")
        let cache = try #require(host.participants.first { short($0.name) == "CacheModule" })
        #expect(host.dependencies(of: cache).map { short($0.module.name) } == ["ReplicaModule"])
        try await host.terminate()
    }

    @Test("Choosing a module that does not provide the service is an error naming the real providers")
    func wrongChoice() throws {
        let error = #expect(throws: ManifestError.self) {
            try servicesHost([PoolModule.self, ReplicaModule.self]) {
                $0.choose(AlphaModule.self, for: (any DatabaseClient).self)
            }
        }
        #expect(error?.code == .missingServiceProvider)
        #expect(error?.description.contains("does not provide it") == true)
        #expect(error?.description.contains("`LifecycleServicesTests.PoolModule`") == true)
    }

    @Test("A required service nobody provides is an error naming the module, the service and the fix")
    func missingProvider() throws {
        let error = #expect(throws: ManifestError.self) { try servicesHost([NeedsMetrics.self, PoolModule.self]) }
        #expect(error?.code == .missingServiceProvider)
        #expect(error?.modules.map(short) == ["NeedsMetrics"])
        #expect(error?.description.contains("`LifecycleServicesTests.NeedsMetrics` requires service `Metrics`") == true)
        #expect(error?.description.contains("replace it in tests") == true)
        // The fix as the code must spell it: `(any Metrics).self` for a protocol, under ExistentialAny.
        #expect(error?.description.contains("`withServices { $0.replace((any Metrics).self) { … } }`") == true)
    }

    @Test("A manifest without a name of its own is left out of the missing-provider error")
    func missingProviderUnnamedManifest() throws {
        let error = #expect(throws: ManifestError.self) {
            try ApplicationHost(manifest: ModuleManifest([NeedsMetrics.self]).withServices())
        }
        #expect(error?.code == .missingServiceProvider)
        #expect(error?.description.contains("requires service `Metrics`, which no enabled module provides.") == true)
        #expect(error?.description.contains("`manifest`") == false)
    }

    @Test("The missing-provider fix spells a concrete service without `any`, and names each service once")
    func missingConcreteProvider() throws {
        let error = #expect(throws: ManifestError.self) {
            try servicesHost([NeedsMetrics.self, NeedsTally.self, AlsoNeedsTally.self])
        }
        #expect(error?.code == .missingServiceProvider)
        #expect(
            error?.description.contains(
                "`withServices { $0.replace((any Metrics).self) { … }; $0.replace(Tally.self) { … }; "
                    + "$0.replace(Ledger.self) { … } }`"
            ) == true,
            "\(error?.description ?? "")"
        )
    }

    @Test("A provider disabled in this environment provides nothing: its requirers are refused")
    func disabledProvider() throws {
        let error = #expect(throws: ManifestError.self) { try servicesHost([ProductionPool.self, CacheModule.self]) }
        #expect(error?.code == .missingServiceProvider)
        #expect(error?.description.contains("no enabled module") == true)
    }

    @Test("Providers that require each other's services are a cycle, reported with its path")
    func providerCycle() throws {
        let error = #expect(throws: ManifestError.self) { try servicesHost([AlphaModule.self, BetaModule.self]) }
        #expect(error?.code == .serviceProviderCycle)
        #expect(error?.modules.map(short) == ["AlphaModule", "BetaModule"])
        #expect(
            error?.description.contains(
                "`LifecycleServicesTests.AlphaModule` requires `Beta` from `LifecycleServicesTests.BetaModule` "
                    + "requires `Alpha` from `LifecycleServicesTests.AlphaModule`"
            ) == true
        )
    }

    @Test("A test replaces a provider with a fake in one line, and sees what was resolved")
    func overrideWithAFake() async throws {
        let (host, recorder) = try servicesHost([CacheModule.self, PoolModule.self]) {
            $0.replace((any DatabaseClient).self) { _ in FakeDatabase() }
        }
        try await host.launch()
        #expect(recorder.entries.contains("setUp CacheModule with fake"))
        #expect(recorder.count("create DatabaseClient") == 0, "the module's own factory never ran")
        #expect(host.context.services.resolutions[ServiceKey((any DatabaseClient).self)] == 1)
        try await host.terminate()
    }

    @Test("Eager fakes are created first in their stage, in the order the overrides were made")
    func eagerOverridesInOrder() async throws {
        for order in [["Metrics", "Alpha", "Beta"], ["Beta", "Metrics", "Alpha"]] {
            let (host, recorder) = try servicesHost([PoolModule.self]) { overrides in
                for name in order {
                    let record: @Sendable (ServiceResolver) -> Void = {
                        $0.launchOptions[RecorderKey.self].record("fake \(name)")
                    }
                    switch name {
                    case "Metrics":
                        overrides.replace((any Metrics).self, lifetime: .singleton(eager: .setup)) {
                            record($0)
                            return NoMetrics()
                        }
                    case "Alpha":
                        overrides.replace((any Alpha).self, lifetime: .singleton(eager: .setup)) {
                            record($0)
                            return AlphaValue()
                        }
                    default:
                        overrides.replace((any Beta).self, lifetime: .singleton(eager: .setup)) {
                            record($0)
                            return BetaValue()
                        }
                    }
                }
            }
            try await host.launch()
            #expect(recorder.entries.filter { $0.hasPrefix("fake") } == order.map { "fake \($0)" })
            #expect(
                recorder.entries.firstIndex(of: "fake \(order[2])")! < recorder.entries.firstIndex(
                    of: "setUp PoolModule"
                )!
            )
            try await host.terminate()
        }
    }

    @Test("A fake can stand in for a service no module provides")
    func fakeWithoutProvider() async throws {
        let (host, _) = try servicesHost([NeedsMetrics.self]) { $0.replace((any Metrics).self) { _ in NoMetrics() } }
        try await host.launch()
        #expect(try host.context.services.require((any Metrics).self) is NoMetrics)
        try await host.terminate()
    }

    @Test("Manifests combine with their services: a requirer in one, its provider in another")
    func combinedManifests() throws {
        let providers = ModuleManifest(name: "Providers", [PoolModule.self]).withServices()
        let users = ModuleManifest(name: "Users", [CacheModule.self]).withServices()
        let host = try ApplicationHost(
            manifest: ModuleManifest(combining: [users, providers]),
            launchOptions: LaunchOptions()
        )
        #expect(
            host.plan(for: .setup).map { short($0.name) } == ["ServiceRegistryModule", "PoolModule", "CacheModule"]
        )
    }

    @Test("16 threads resolving a lazy singleton at the same moment create it exactly once", arguments: 0..<20)
    func singletonOnceUnderContention(round: Int) async throws {
        let (host, recorder) = try servicesHost([PoolModule.self])
        try await host.launch()
        let services = host.context.services
        // 16 OS threads, not tasks: on a 2-core machine the cooperative pool would run the tasks two at a
        // time. Each waits until all 16 have arrived, then they all resolve at once.
        let names = resolveOnThreads(16) { try services.require((any DatabaseClient).self).name }
        #expect(names == Array(repeating: "pool", count: 16))
        #expect(recorder.count("create DatabaseClient") == 1, "round \(round)")
        try await host.terminate()
    }
}

/// Runs `body` on `count` threads that start together, and returns what each returned ("error" if it
/// threw), in thread order.
func resolveOnThreads(_ count: Int, _ body: @escaping @Sendable () throws -> String) -> [String] {
    let gate = StartGate()
    let results = Locked<[Int: String]>([:])
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            gate.arriveAndWait(for: count)
            let result = (try? body()) ?? "error"
            results.withLock { $0[index] = result }
            done.leave()
        }.start()
    }
    done.wait()
    return results.withLock { results in (0..<count).map { results[$0] ?? "missing" } }
}

/// Holds threads until `count` of them have arrived, so they all act at once.
final class StartGate: Sendable {
    private let arrived = Atomic<Int>(0)

    func arriveAndWait(for count: Int) {
        arrived.wrappingAdd(1, ordering: .relaxed)
        while arrived.load(ordering: .relaxed) < count {}
    }
}
