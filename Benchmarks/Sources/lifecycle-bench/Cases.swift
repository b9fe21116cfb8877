import Foundation
import LifecycleCore
@_spi(Benchmarks) import LifecycleProxy
import SyntheticModules

#if GeneratedModules
import GeneratedModules
#endif

/// Everything the cases for one N share: the proxies, the baselines' participants and the observers.
///
/// Built before anything is measured. The baselines call separate instances of the same module types,
/// in the proxy's delivery order, so every system makes the same calls in the same order.
struct Fixture {
    let count: Int
    let context = LifecycleContext()
    let proxy: DelegateProxy
    /// The same graph over ``SyncNumbered`` modules, whose hooks are synchronous.
    let syncProxy: DelegateProxy
    /// The ``Numbered`` graph declared as the discovery plugin declares it: every hook a synchronous
    /// function, registered with a closure, no `Sync…` protocol.
    let discoveredProxy: DelegateProxy
    /// The ``SyncNumbered`` graph declared as the plugin did before: every hook through its `Sync…` protocol.
    let discoveredTwinProxy: DelegateProxy
    /// The limit's participants; ``borrowed`` refers to them without reference counting.
    let concrete: [ConcreteParticipant]
    let borrowed: [Unmanaged<ConcreteParticipant>]
    let syncHooks: [any SyncHooks]
    let asyncHooks: [any DidBecomeActive]
    let boolHooks: [any DidFinishLaunching]
    let center = NotificationCenter()
    private(set) var observers: [any NSObjectProtocol] = []
    /// The OR of every module's vote.
    let expectedVote: Bool

    init(count: Int) {
        self.count = count
        let types = Array(SyntheticCatalog.numbered.prefix(count))
        do {
            proxy = try DelegateProxy(manifest: ModuleManifest(name: "Numbered", types))
            syncProxy = try DelegateProxy(
                manifest: ModuleManifest(name: "SyncNumbered", Array(SyntheticCatalog.syncNumbered.prefix(count)))
            )
            discoveredProxy = try DelegateProxy(
                manifest: ModuleManifest(
                    name: "NumberedDeclared",
                    declared: Array(SyntheticCatalog.numberedDeclared.prefix(count))
                )
            )
            discoveredTwinProxy = try DelegateProxy(
                manifest: ModuleManifest(
                    name: "SyncNumberedDeclared",
                    declared: Array(SyntheticCatalog.syncNumberedDeclared.prefix(count))
                )
            )
        } catch {
            fatalError("the synthetic manifest of \(count) modules does not build: \(error)")
        }
        let modules = inDeliveryOrder(types, plan: proxy.plan(for: .didBecomeActive), context: context)
        concrete = (0..<count).map { ConcreteParticipant(vote: SyntheticGraph.vote(of: $0)) }
        borrowed = concrete.map { Unmanaged.passUnretained($0) }
        syncHooks = modules.map { $0 as! any SyncHooks }
        asyncHooks = modules.map { $0 as! any DidBecomeActive }
        boolHooks = modules.map { $0 as! any DidFinishLaunching }
        expectedVote = (0..<count).contains { SyntheticGraph.vote(of: $0) }
        for hooks in syncHooks {
            observers.append(
                center.addObserver(forName: .benchmarkEvent, object: nil, queue: nil) { _ in
                    hooks.becomeActiveNow()
                }
            )
        }
    }

    /// Removes the NotificationCenter observers.
    func tearDown() {
        for observer in observers { center.removeObserver(observer) }
    }
}

extension Notification.Name {
    /// The event the NotificationCenter baseline posts.
    static let benchmarkEvent = Notification.Name("ModuleLifecycleBenchmark.event")
}

/// New instances of `types`, in the order of `plan` (participants are named by `String(reflecting:)`).
func inDeliveryOrder(
    _ types: [any LifecycleModule.Type],
    plan: [Participant],
    context: LifecycleContext
) -> [any LifecycleModule] {
    var byName: [String: any LifecycleModule.Type] = [:]
    for type in types { byName[String(reflecting: type)] = type }
    return plan.map { participant in
        guard let type = byName[participant.name] else { fatalError("no module type named \(participant.name)") }
        do {
            return try type.init(context: context)
        } catch {
            fatalError("\(participant.name).init(context:) threw \(error)")
        }
    }
}

/// The cases of every group for `fixture.count` modules, or only those whose system id starts with one of
/// `only`'s prefixes. `quick` (CI's smoke run) leaves out the work rows no smoke check reads.
func makeCases(_ fixture: Fixture, includeGenerated: Bool, only: [String], quick: Bool = false) -> [BenchCase] {
    let all =
        eventCases(fixture) + boolCases(fixture) + buildCases(fixture.count, includeGenerated: includeGenerated)
        + lifecycleCases(fixture.count) + workCases(fixture.count, quick: quick)
        + (includeGenerated ? generatedEventCases(fixture.count) : [])
        + serviceCases(fixture.count) + serviceBuildCases(fixture.count, includeGenerated: includeGenerated)
        + messageCases(fixture.count) + instrumentCases(fixture.count, expectedVote: fixture.expectedVote)
    guard !only.isEmpty else { return all }
    return all.filter { benchCase in only.contains { benchCase.system.id.hasPrefix($0) } }
}

private func eventCases(_ fixture: Fixture) -> [BenchCase] {
    let n = fixture.count
    let proxy = fixture.proxy
    let syncProxy = fixture.syncProxy
    let discovered = fixture.discoveredProxy
    let discoveredTwin = fixture.discoveredTwinProxy
    let context = fixture.context
    let concrete = fixture.concrete
    let borrowed = fixture.borrowed
    let syncHooks = fixture.syncHooks
    let asyncHooks = fixture.asyncHooks
    let center = fixture.center
    return [
        BenchCase(system: .proxyEvent, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { _ = await proxy.deliver(.didBecomeActive) }
            meter.end()
        },
        BenchCase(system: .proxySyncEvent, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { _ = await syncProxy.deliver(.didBecomeActive) }
            meter.end()
        },
        BenchCase(system: .proxySyncDiscovered, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { _ = await discovered.deliver(.didBecomeActive) }
            meter.end()
        },
        BenchCase(system: .proxySyncDiscoveredTwin, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { _ = await discoveredTwin.deliver(.didBecomeActive) }
            meter.end()
        },
        BenchCase(system: .concreteLoop, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { concreteFanOut(borrowed) }
            meter.end()
        },
        BenchCase(system: .retainingLoop, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { retainingFanOut(concrete) }
            meter.end()
        },
        BenchCase(system: .existentialLoop, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { existentialFanOut(syncHooks) }
            meter.end()
        },
        BenchCase(system: .asyncLoop, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { _ = await asyncFanOut(asyncHooks, context: context) }
            meter.end()
        },
        BenchCase(system: .notificationCenter, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { center.post(name: .benchmarkEvent, object: nil) }
            meter.end()
        },
    ]
}

private func boolCases(_ fixture: Fixture) -> [BenchCase] {
    let n = fixture.count
    let proxy = fixture.proxy
    let syncProxy = fixture.syncProxy
    let discovered = fixture.discoveredProxy
    let discoveredTwin = fixture.discoveredTwinProxy
    let context = fixture.context
    let borrowed = fixture.borrowed
    let syncHooks = fixture.syncHooks
    let boolHooks = fixture.boolHooks
    let expected = fixture.expectedVote
    let url = URL(string: "bench://open/1")!
    /// Every system must combine to the same answer; checking it per event costs one branch.
    func check(_ answer: Bool, _ system: System) {
        if answer != expected { fatalError("\(system.id) combined to \(answer), expected \(expected)") }
    }
    return [
        BenchCase(system: .proxyDidFinishLaunching, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(await proxy.deliver(.didFinishLaunching), .proxyDidFinishLaunching) }
            meter.end()
        },
        BenchCase(system: .proxyOpenURL, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(await proxy.open(url), .proxyOpenURL) }
            meter.end()
        },
        BenchCase(system: .proxySyncDidFinishLaunching, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations {
                check(await syncProxy.deliver(.didFinishLaunching), .proxySyncDidFinishLaunching)
            }
            meter.end()
        },
        BenchCase(system: .proxySyncOpenURL, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(await syncProxy.open(url), .proxySyncOpenURL) }
            meter.end()
        },
        BenchCase(system: .proxySyncDiscoveredDidFinishLaunching, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations {
                check(await discovered.deliver(.didFinishLaunching), .proxySyncDiscoveredDidFinishLaunching)
            }
            meter.end()
        },
        BenchCase(system: .proxySyncDiscoveredTwinDidFinishLaunching, modules: n, expectedTicks: n) {
            meter,
            iterations in
            meter.begin()
            for _ in 0..<iterations {
                check(await discoveredTwin.deliver(.didFinishLaunching), .proxySyncDiscoveredTwinDidFinishLaunching)
            }
            meter.end()
        },
        BenchCase(system: .proxySyncDiscoveredOpenURL, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(await discovered.open(url), .proxySyncDiscoveredOpenURL) }
            meter.end()
        },
        BenchCase(system: .proxySyncDiscoveredTwinOpenURL, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(await discoveredTwin.open(url), .proxySyncDiscoveredTwinOpenURL) }
            meter.end()
        },
        BenchCase(system: .proxyCustomBool, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(await proxy.deliver(Ping()), .proxyCustomBool) }
            meter.end()
        },
        BenchCase(system: .proxyCustomBoolAsync, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(await proxy.deliver(AsyncPing()), .proxyCustomBoolAsync) }
            meter.end()
        },
        BenchCase(system: .concreteBoolLoop, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(concreteBoolFanOut(borrowed), .concreteBoolLoop) }
            meter.end()
        },
        BenchCase(system: .existentialBoolLoop, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(existentialBoolFanOut(syncHooks), .existentialBoolLoop) }
            meter.end()
        },
        BenchCase(system: .asyncBoolLoop, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { check(await asyncBoolFanOut(boolHooks, context: context).0, .asyncBoolLoop) }
            meter.end()
        },
    ]
}

/// Building a proxy, and the naming part of it alone. The proxy is released outside the measured region.
private func buildCases(_ n: Int, includeGenerated: Bool) -> [BenchCase] {
    func build(_ system: System, _ types: [any LifecycleModule.Type]) -> BenchCase {
        build(system, ModuleManifest(name: system.id, types))
    }
    func build(_ system: System, declared: [DeclaredModule]) -> BenchCase {
        build(system, ModuleManifest(name: system.id, declared: declared))
    }
    func build(_ system: System, _ manifest: ModuleManifest) -> BenchCase {
        BenchCase(system: system, modules: n, expectedTicks: nil) { meter, iterations in
            for _ in 0..<iterations {
                meter.begin()
                let proxy = try? DelegateProxy(manifest: manifest)
                meter.end()
                if proxy?.participants.count != n { fatalError("\(system.id) did not build \(n) participants") }
            }
        }
    }
    func names(_ system: System, _ types: [any LifecycleModule.Type]) -> BenchCase {
        BenchCase(system: system, modules: n, expectedTicks: nil) { meter, iterations in
            var characters = 0
            meter.begin()
            for _ in 0..<iterations {
                for type in types { characters &+= String(reflecting: type).utf8.count }
            }
            meter.end()
            if characters == 0 { fatalError("no type has a name") }
        }
    }
    var cases = [
        build(.buildNumbered, Array(SyntheticCatalog.numbered.prefix(n))),
        build(.buildLean, Array(SyntheticCatalog.lean.prefix(n))),
        build(.buildLeanDeclared, declared: Array(SyntheticCatalog.leanDeclared.prefix(n))),
        names(.namesLean, Array(SyntheticCatalog.lean.prefix(n))),
    ]
    #if GeneratedModules
    if includeGenerated {
        cases.append(build(.buildGenerated, Array(generatedModuleTypes.prefix(n))))
        cases.append(build(.buildGeneratedDeclared, declared: Array(generatedDeclaredModules.prefix(n))))
        cases.append(names(.namesGenerated, Array(generatedModuleTypes.prefix(n))))
    }
    #endif
    return cases
}

/// A new host of `manifest`, built outside the measured region; a manifest that does not build ends the run,
/// naming `what`.
func freshHost(
    _ manifest: ModuleManifest,
    _ configuration: ApplicationHost.Configuration,
    _ what: @autoclosure () -> String
) -> ApplicationHost {
    do {
        return try ApplicationHost(manifest: manifest, launchOptions: LaunchOptions(), configuration: configuration)
    } catch {
        fatalError("\(what()) does not build: \(error)")
    }
}

/// The whole lifecycle through `ApplicationHost`, and through swift-service-lifecycle's `ServiceGroup`.
/// Each repetition builds a fresh host (a host lives once), outside the measured region.
private func lifecycleCases(_ n: Int) -> [BenchCase] {
    let manifest = ModuleManifest(name: "Numbered", Array(SyntheticCatalog.numbered.prefix(n)))
    func host(_ system: System, _ configuration: ApplicationHost.Configuration) -> BenchCase {
        BenchCase(system: system, modules: n, expectedTicks: nil) { meter, iterations in
            for _ in 0..<iterations {
                let host = freshHost(manifest, configuration, "the host of \(n) modules")
                meter.begin()
                do {
                    try await host.launch()
                    try await host.enterBackground()
                    try await host.enterForeground()
                    try await host.terminate()
                } catch {
                    fatalError("\(system.id): \(error)")
                }
                meter.end()
                if host.state != .terminated { fatalError("\(system.id) ended \(host.state), not terminated") }
            }
        }
    }
    return [
        host(.hostLifecycle, ApplicationHost.Configuration()),
        host(
            .hostLifecycleLean,
            ApplicationHost.Configuration(hookBudget: nil, terminateDeadline: nil, journalCapacity: 0)
        ),
        BenchCase(system: .serviceGroup, modules: n, expectedTicks: nil) { meter, iterations in
            for _ in 0..<iterations { await serviceGroupLifecycle(count: n, meter: meter) }
        },
    ]
}

/// The fan-out over generated non-generic types: every call lands on different code.
private func generatedEventCases(_ n: Int) -> [BenchCase] {
    #if GeneratedModules
    let context = LifecycleContext()
    let types = Array(generatedModuleTypes.prefix(n))
    let proxy: DelegateProxy
    /// The same graph over ``SyncNumbered`` modules, whose hooks are synchronous.
    let syncProxy: DelegateProxy
    do {
        proxy = try DelegateProxy(manifest: ModuleManifest(name: "Generated", types))
    } catch {
        fatalError("the generated manifest of \(n) modules does not build: \(error)")
    }
    let hooks = inDeliveryOrder(types, plan: proxy.plan(for: .didBecomeActive), context: context).map {
        $0 as! any DidBecomeActive
    }
    return [
        BenchCase(system: .proxyEventGenerated, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { _ = await proxy.deliver(.didBecomeActive) }
            meter.end()
        },
        BenchCase(system: .asyncLoopGenerated, modules: n, expectedTicks: n) { meter, iterations in
            meter.begin()
            for _ in 0..<iterations { _ = await asyncFanOut(hooks, context: context) }
            meter.end()
        },
    ]
    #else
    return []
    #endif
}

/// Whether the generated types follow ``SyntheticGraph``, as the generic ones do by construction.
func generatedTypesMatchTheGraph() -> Bool {
    #if GeneratedModules
    for (n, type) in generatedModuleTypes.enumerated() {
        guard type.priority == SyntheticGraph.priority(of: n) else { return false }
        let dependencies = (type as? any DependentModule.Type)?.dependencies ?? []
        let expected = SyntheticGraph.dependencies(of: n).map { ObjectIdentifier(generatedModuleTypes[$0]) }
        guard dependencies.map(ObjectIdentifier.init) == expected else { return false }
    }
    return true
    #else
    return true
    #endif
}

/// Whether this build includes the generated types (the `GeneratedModules` trait).
var generatedModulesAvailable: Bool {
    #if GeneratedModules
    true
    #else
    false
    #endif
}
