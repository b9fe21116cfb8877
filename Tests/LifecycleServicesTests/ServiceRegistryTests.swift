import LifecycleCore
import LifecycleProxy
import LifecycleServices
import Testing

/// Builds a host over `modules` with services, recording into a fresh recorder.
func servicesHost(
    _ modules: [any LifecycleModule.Type],
    configure: (inout ServiceOverrides) -> Void = { _ in }
) throws -> (ApplicationHost, Recorder) {
    let recorder = Recorder()
    var options = LaunchOptions()
    options[RecorderKey.self] = recorder
    let host = try ApplicationHost(
        manifest: ModuleManifest(name: "Services", modules).withServices(configure),
        launchOptions: options,
        configuration: .init(hookBudget: nil, terminateDeadline: nil)
    )
    return (host, recorder)
}

func short(_ name: String) -> String { String(name.split(separator: ".").last ?? "") }

@Suite("Services: resolution, order and teardown")
struct ServiceRegistryTests {
    @Test("A requirer launches after its provider, whatever their priorities, and the plan says why")
    func requirementOrdersLikeADependency() throws {
        let (host, _) = try servicesHost([CacheModule.self, PoolModule.self])
        #expect(
            host.plan(for: .setup).map { short($0.name) } == ["ServiceRegistryModule", "PoolModule", "CacheModule"]
        )
        #expect(
            host.plan(for: .willTerminate).map { short($0.name) }
                == ["CacheModule", "PoolModule", "ServiceRegistryModule"]
        )
        let cache = try #require(host.participants.first { short($0.name) == "CacheModule" })
        let dependencies = host.dependencies(of: cache)
        #expect(dependencies.map { short($0.module.name) } == ["PoolModule"])
        #expect(dependencies.first?.reason == .added("requires service `DatabaseClient`"))
        #expect(dependencies.first?.description.contains("requires service `DatabaseClient`") == true)
    }

    @Test("Resolution is typed: the singleton is created once on first use, a transient anew each time")
    func lifetimes() async throws {
        let (host, recorder) = try servicesHost([CacheModule.self, PoolModule.self])
        try await host.launch()
        #expect(recorder.entries.contains("setUp CacheModule with pool"))
        let services = host.context.services
        let first = try services.require((any DatabaseClient).self)
        let second = try services.require((any DatabaseClient).self)
        #expect((first as? PooledDatabase) === (second as? PooledDatabase))
        #expect(recorder.count("create DatabaseClient") == 1)
        let ids = try (0..<3).map { _ in try services.require((any RequestIDs).self).value }
        #expect(ids == [1, 2, 3])
        #expect(try services.optional((any Metrics).self) == nil)
        #expect(services.resolutions[ServiceKey((any DatabaseClient).self)] == 3)  // setUp, then twice here
        #expect(services.resolutions[ServiceKey((any RequestIDs).self)] == 3)
        try await host.terminate()
    }

    @Test("Singletons shut down after every module's willTerminate, and nothing resolves after")
    func teardown() async throws {
        let (host, recorder) = try servicesHost([CacheModule.self, PoolModule.self])
        try await host.launch()
        try await host.terminate()
        let tail = recorder.entries.filter { $0.hasPrefix("willTerminate") || $0.hasPrefix("shutdown") }
        #expect(tail == ["willTerminate CacheModule with pool", "willTerminate PoolModule", "shutdown pool"])
        let error = #expect(throws: ServiceError.self) { try host.context.services.require((any DatabaseClient).self) }
        #expect(error?.code == .terminated)
        #expect(error?.provider.map(short) == "PoolModule")
        #expect(error?.description.contains("after every module received willTerminate") == true)
    }

    @Test("A module's own resolver counts what the module resolved, and refuses what it does not require")
    func ownResolver() async throws {
        let (host, _) = try servicesHost([CacheModule.self, PoolModule.self])
        try await host.launch()
        let services = host.context.services
        // setUp resolved through CacheModule's own resolver; the host-wide resolver is not attributed.
        #expect(services.resolutions(by: CacheModule.self) == [ServiceKey((any DatabaseClient).self): 1])
        _ = try services.require((any DatabaseClient).self)
        #expect(services.resolutions(by: CacheModule.self) == [ServiceKey((any DatabaseClient).self): 1])
        #expect(services.resolutions(by: PoolModule.self).isEmpty)
        let error = #expect(throws: ServiceError.self) {
            try host.context.services(for: CacheModule.self).require((any RequestIDs).self)
        }
        #expect(error?.code == .notProvided)
        #expect(error?.description.contains("which `LifecycleServicesTests.CacheModule` does not require") == true)
        try await host.terminate()
    }

    @Test("Resolving in an initializer is too early: a typed error naming the service")
    func tooEarly() throws {
        let error = #expect(throws: ManifestError.self) {
            try servicesHost([EagerResolver.self, PoolModule.self])
        }
        #expect(error?.code == .moduleInitializationFailed)
        let cause = try #require(error?.underlyingErrors.first as? ServiceError)
        #expect(cause.code == .notLaunched)
        #expect(cause.description.contains("`DatabaseClient`"))
        #expect(cause.description.contains("before the launch's setup stage"))
    }

    @Test("A host without services says how to get them")
    func noRegistry() throws {
        let host = try ApplicationHost(manifest: ModuleManifest([PoolModule.self]), launchOptions: LaunchOptions())
        let error = #expect(throws: ServiceError.self) { try host.context.services.require((any DatabaseClient).self) }
        #expect(error?.code == .noRegistry)
        #expect(error?.description.contains("withServices()") == true)
    }

    @Test("require of a service nobody provides throws; optional returns nil")
    func notProvided() async throws {
        let (host, _) = try servicesHost([PoolModule.self])
        try await host.launch()
        let error = #expect(throws: ServiceError.self) { try host.context.services.require((any Metrics).self) }
        #expect(error?.code == .notProvided)
        #expect(error?.description.contains("No module provides service `Metrics`") == true)
        #expect(try host.context.services.optional((any Metrics).self) == nil)
        try await host.terminate()
    }

    @Test(
        "Eager singletons are created first thing in their stage; a factory may resolve only what its provider requires"
    )
    func eagerAndUndeclared() async throws {
        let (host, recorder) = try servicesHost([EagerProvider.self, PoolModule.self])
        try await host.launch()
        let creations = recorder.entries.filter { $0.hasPrefix("create") || $0.hasPrefix("setUp") }
        #expect(creations == ["create Alpha", "setUp EagerProvider", "setUp PoolModule", "create Beta"])
        let error = #expect(throws: ServiceError.self) { try host.context.services.require((any Metrics).self) }
        #expect(error?.code == .notProvided)
        #expect(error?.description.contains("which `LifecycleServicesTests.EagerProvider` does not require") == true)
        try await host.terminate()
    }

    @Test("A throwing factory is a typed error naming the service and its provider, and is not cached")
    func factoryFailure() async throws {
        let (host, _) = try servicesHost([BrokenProvider.self])
        try await host.launch()
        for _ in 0..<2 {
            let error = #expect(throws: ServiceError.self) { try host.context.services.require((any Metrics).self) }
            #expect(error?.code == .factoryFailed)
            #expect(error?.underlyingError is FactoryFailure)
            #expect(error?.description.contains("provided by `LifecycleServicesTests.BrokenProvider`, threw") == true)
        }
        #expect(host.context.services.resolutions[ServiceKey((any Metrics).self)] == 2)
        try await host.terminate()
    }
}
