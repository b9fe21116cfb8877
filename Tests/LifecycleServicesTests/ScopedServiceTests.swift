import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleScopes
import LifecycleServices
import Synchronization
import Testing

// MARK: - Scoped services

/// A request's log: one per scope.
protocol RequestLog: Sendable {
    var serial: Int { get }
}

/// A request's tracer, which needs nothing.
protocol Tracer: Sendable {
    var serial: Int { get }
}

/// A request's transaction, which writes to the request's log.
protocol Transaction: Sendable {
    var log: any RequestLog { get }
}

/// A stamp made anew at each resolution, which reads the request's log.
protocol Stamp: Sendable {
    var log: any RequestLog { get }
}

/// Singletons that would capture a request's log: directly, or through a stamp.
protocol Reporter: Sendable {}
protocol Auditor: Sendable {}

/// A scoped service whose shutdown throws.
protocol Upload: Sendable {}

/// A scoped service that many tasks resolve first at once.
protocol Contended: Sendable {
    var serial: Int { get }
}

/// What a scoped factory made: its service, its serial number in the host, and where it records.
final class ScopedValue: RequestLog, Tracer, Contended, Upload {
    let service: String
    let serial: Int
    let recorder: Recorder

    init(_ service: String, serial: Int, recorder: Recorder) {
        self.service = service
        self.serial = serial
        self.recorder = recorder
        recorder.record("create \(service) #\(serial)")
    }

    func shutDown() { recorder.record("shutdown \(service) #\(serial)") }
}

final class TransactionValue: Transaction {
    let log: any RequestLog
    let recorder: Recorder

    init(log: any RequestLog, recorder: Recorder) {
        self.log = log
        self.recorder = recorder
        recorder.record("create Transaction on RequestLog #\(log.serial)")
    }
}

struct StampValue: Stamp {
    let log: any RequestLog
}

struct ReporterValue: Reporter, Auditor {}

struct UploadFailed: Error, CustomStringConvertible {
    var description: String { "the upload did not finish" }
}

/// Numbers what a host's factories make, from 1.
final class Serials: Sendable {
    private let next = Atomic<Int>(0)
    func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).newValue }
}

/// Provides the request's log and tracer, one per scope.
struct RequestLogModule: LifecycleModule, ServiceProvidingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        let serials = Serials()
        services.scoped((any RequestLog).self) { resolver in
            ScopedValue("RequestLog", serial: serials.take(), recorder: resolver.launchOptions[RecorderKey.self])
        } shutdown: { log in
            (log as? ScopedValue)?.shutDown()
        }
        let tracers = Serials()
        services.scoped((any Tracer).self) { resolver in
            ScopedValue("Tracer", serial: tracers.take(), recorder: resolver.launchOptions[RecorderKey.self])
        } shutdown: { tracer in
            (tracer as? ScopedValue)?.shutDown()
        }
    }
}

/// Provides the request's transaction, one per scope, on the same scope's log.
struct TransactionModule: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any RequestLog).self)
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.scoped((any Transaction).self) { resolver in
            TransactionValue(
                log: try resolver.require((any RequestLog).self),
                recorder: resolver.launchOptions[RecorderKey.self]
            )
        } shutdown: { transaction in
            guard let transaction = transaction as? TransactionValue else { return }
            transaction.recorder.record("shutdown Transaction on RequestLog #\(transaction.log.serial)")
        }
    }
}

/// Provides a transient stamp that reads the request's log.
struct StampModule: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any RequestLog).self)
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.transient((any Stamp).self) { resolver in StampValue(log: try resolver.require((any RequestLog).self))
        }
    }
}

/// Provides singletons that capture the request's log: the reporter directly, the auditor through a stamp.
struct CaptiveModule: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any RequestLog).self, (any Stamp).self)
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any Reporter).self) { resolver in
            _ = try resolver.require((any RequestLog).self)
            return ReporterValue()
        }
        services.singleton((any Auditor).self) { resolver in
            _ = try resolver.require((any Stamp).self)
            return ReporterValue()
        }
    }
}

/// Provides an eager singleton that captures the request's log, at the setup stage.
struct EagerCaptiveModule: LifecycleModule, ServiceProvidingModule, ServiceRequiringModule {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements((any RequestLog).self)
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton((any Reporter).self, eager: .setup) { resolver in
            _ = try resolver.require((any RequestLog).self)
            return ReporterValue()
        }
    }
}

/// Provides an upload whose shutdown throws.
struct UploadModule: LifecycleModule, ServiceProvidingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        let serials = Serials()
        services.scoped((any Upload).self) { resolver in
            ScopedValue("Upload", serial: serials.take(), recorder: resolver.launchOptions[RecorderKey.self])
        } shutdown: { _ in
            throw UploadFailed()
        }
    }
}

/// Provides a scoped service whose first factory call waits (up to 100 ms) until a second one has begun, so
/// that first resolutions at the same moment really make two instances. The wait blocks its thread: when
/// the callers are tasks, a cooperative one, so it is kept short, not to hold up the other suites.
struct ContendedModule: LifecycleModule, ServiceProvidingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func provideServices(_ services: inout ServiceProvisions) {
        let serials = Serials()
        let entered = Atomic<Int>(0)
        services.scoped((any Contended).self) { resolver in
            if entered.wrappingAdd(1, ordering: .relaxed).newValue == 1 {
                let deadline = ContinuousClock.now + .milliseconds(100)
                while entered.load(ordering: .relaxed) < 2, ContinuousClock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.000_1)
                }
            }
            return ScopedValue("Contended", serial: serials.take(), recorder: resolver.launchOptions[RecorderKey.self])
        } shutdown: { value in
            (value as? ScopedValue)?.shutDown()
        }
    }
}

/// Records each scope's end, to order it before the scoped services' shutdowns.
struct EndLogAction: ScopeAction {
    static let kinds: ScopeKinds = .all
    static let priority: ModulePriority = .normal
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.recorder }

    func willEnd(_ scope: Scope) async throws { recorder.record("willEnd \(scope.name)") }
}

/// A launched host over `modules` with services and scopes, recording into a fresh recorder.
func scopedServicesHost(
    _ modules: [any LifecycleModule.Type],
    configure: (inout ServiceOverrides) -> Void = { _ in }
) async throws -> (ApplicationHost, ScopeRegistry, Recorder) {
    let recorder = Recorder()
    var options = LaunchOptions()
    options[RecorderKey.self] = recorder
    let host = try ApplicationHost(
        manifest: ModuleManifest(name: "ScopedServices", modules).withServices(configure)
            .withScopes(actions: [EndLogAction.self]),
        launchOptions: options,
        configuration: .init(hookBudget: nil, terminateDeadline: nil)
    )
    try await host.launch()
    return (host, try #require(host.scopes), recorder)
}

@Suite("Services: the scoped lifetime")
struct ScopedServiceTests {
    @Test("A scope has one instance of a scoped service, made on its first resolution there")
    func oneInstancePerScope() async throws {
        let (host, scopes, recorder) = try await scopedServicesHost([RequestLogModule.self])
        try await scopes.withScope(.request, "GET /cart") { scope in
            #expect(!recorder.entries.contains { $0.hasPrefix("create") })
            let first = try scope.services.require((any RequestLog).self)
            let second = try scope.services.require((any RequestLog).self)
            let current = try host.context.services.require((any RequestLog).self)
            #expect(first as? ScopedValue === second as? ScopedValue)
            #expect(first as? ScopedValue === current as? ScopedValue)
        }
        #expect(recorder.count("create RequestLog #1") == 1)
        #expect(host.context.services.resolutions[ServiceKey((any RequestLog).self)] == 3)
        try await host.terminate()
    }

    @Test("Scopes never share an instance: not in turn, not at once, not nested")
    func distinctAcrossScopes() async throws {
        let (host, scopes, _) = try await scopedServicesHost([RequestLogModule.self])
        let first = try await scopes.withScope(.request, "first") { try $0.services.require((any RequestLog).self) }
        let second = try await scopes.withScope(.request, "second") { try $0.services.require((any RequestLog).self) }
        #expect(first.serial != second.serial)

        let session = try await scopes.begin(.session, "alice")
        let job = try await scopes.begin(.job, "export")
        let inSession = try session.services.require((any RequestLog).self)
        let inJob = try job.services.require((any RequestLog).self)
        #expect(inSession.serial != inJob.serial)
        try await session.withCurrent {
            try await scopes.withScope(.request, "nested") { request in
                let nested = try host.context.services.require((any RequestLog).self)
                #expect(request.parent === session)
                #expect(nested.serial != inSession.serial)
            }
            #expect(try host.context.services.require((any RequestLog).self).serial == inSession.serial)
        }
        try await job.end()
        try await session.end()
        try await host.terminate()
    }

    @Test("At a scope's end its instances shut down after its end actions, newest first")
    func shutdownOrder() async throws {
        let (host, scopes, recorder) = try await scopedServicesHost([RequestLogModule.self, TransactionModule.self])
        try await scopes.withScope(.request, "POST /order") { scope in
            await scope.on(.end) { _ in recorder.record("end closure") }
            _ = try scope.services.require((any Tracer).self)
            _ = try scope.services.require((any Transaction).self)  // makes the log first, then the transaction
            recorder.record("body done")
        }
        #expect(
            recorder.entries == [
                "create Tracer #1",
                "create RequestLog #1",
                "create Transaction on RequestLog #1",
                "body done",
                "end closure",
                "willEnd POST /order",
                "shutdown Transaction on RequestLog #1",
                "shutdown RequestLog #1",
                "shutdown Tracer #1",
            ]
        )
        try await host.terminate()
        #expect(recorder.entries.filter { $0.hasPrefix("shutdown") }.count == 3)  // not again with the host
    }

    @Test("A scoped service that requires another gets the same scope's instance, whatever scope is current")
    func scopedRequiresScoped() async throws {
        let (host, scopes, _) = try await scopedServicesHost([RequestLogModule.self, TransactionModule.self])
        let outer = try await scopes.begin(.session, "outer")
        try await scopes.withScope(.request, "inner") { inner in
            let transaction = try inner.services.require((any Transaction).self)
            #expect(
                transaction.log as? ScopedValue === (try inner.services.require((any RequestLog).self)) as? ScopedValue
            )
            // Resolved for `outer` while `inner` is current: its factory resolves in `outer`.
            let outerTransaction = try outer.services.require((any Transaction).self)
            let outerLog = try outer.services.require((any RequestLog).self)
            #expect(outerTransaction.log as? ScopedValue === outerLog as? ScopedValue)
            #expect(outerLog.serial != transaction.log.serial)
        }
        try await outer.end()
        try await host.terminate()
    }

    @Test("context.services and a module's own resolver resolve in the task's current scope")
    func currentScopeFallback() async throws {
        let (host, scopes, _) = try await scopedServicesHost([RequestLogModule.self, TransactionModule.self])
        try await scopes.withScope(.request, "GET /") { scope in
            let own = try host.context.services(for: TransactionModule.self).require((any RequestLog).self)
            let shared = try host.context.services.require((any RequestLog).self)
            let explicit = try scope.services.require((any RequestLog).self)
            #expect(own as? ScopedValue === explicit as? ScopedValue)
            #expect(shared as? ScopedValue === explicit as? ScopedValue)
        }
        let job = try await scopes.begin(.job, "nightly")
        let inJob = try await job.withCurrent { try host.context.services.require((any RequestLog).self) }
        #expect(inJob as? ScopedValue === (try job.services.require((any RequestLog).self)) as? ScopedValue)
        try await job.end()
        try await host.terminate()
    }

    @Test("A transient resolved in a scope passes the scope on to its factory")
    func transientInAScope() async throws {
        let (host, scopes, _) = try await scopedServicesHost([RequestLogModule.self, StampModule.self])
        try await scopes.withScope(.request, "stamp") { scope in
            let stamp = try scope.services.require((any Stamp).self)
            #expect(stamp.log as? ScopedValue === (try scope.services.require((any RequestLog).self)) as? ScopedValue)
        }
        try await host.terminate()
    }

    @Test("Outside any scope, resolving a scoped service is noScope, naming the service, the requester and the fix")
    func noScope() async throws {
        let (host, _, _) = try await scopedServicesHost([RequestLogModule.self, TransactionModule.self])
        let shared = #expect(throws: ServiceError.self) { try host.context.services.require((any RequestLog).self) }
        #expect(shared?.code == .noScope)
        #expect(shared?.provider.map(short) == "RequestLogModule")
        #expect(shared?.description.contains("Scoped service `RequestLog`") == true)
        #expect(shared?.description.contains("`context.services`") == true)
        #expect(shared?.description.contains("from scope.services or inside withScope") == true)
        let own = #expect(throws: ServiceError.self) {
            try host.context.services(for: TransactionModule.self).require((any RequestLog).self)
        }
        #expect(own?.code == .noScope)
        #expect(own?.description.contains("by `LifecycleServicesTests.TransactionModule`") == true)
        try await host.terminate()
    }

    @Test("In a scope that has ended, resolving a scoped service is scopeEnded, naming the scope")
    func scopeEnded() async throws {
        let (host, scopes, _) = try await scopedServicesHost([RequestLogModule.self])
        let ended = try await scopes.withScope(.request, "GET /gone") { scope in
            _ = try scope.services.require((any RequestLog).self)
            return scope
        }
        let error = #expect(throws: ServiceError.self) { try ended.services.require((any RequestLog).self) }
        #expect(error?.code == .scopeEnded)
        #expect(error?.description.contains("Scoped service `RequestLog`") == true)
        #expect(error?.description.contains("\"GET /gone\"") == true)
        #expect(error?.description.contains("has ended or is ending") == true)
        try await host.terminate()
    }

    @Test("While a scope ends, its end actions get the instances it keeps; one made then is refused, and shut down")
    func resolvingWhileEnding() async throws {
        let (host, scopes, recorder) = try await scopedServicesHost([RequestLogModule.self])
        try await scopes.withScope(.request, "ending") { scope in
            let log = try scope.services.require((any RequestLog).self)
            await scope.on(.end) { scope in
                let again = try scope.services.require((any RequestLog).self)
                recorder.record("end: same log \(again.serial == log.serial)")
                do {
                    _ = try scope.services.require((any Tracer).self)
                } catch let error as ServiceError {
                    recorder.record("end: tracer \(error.code)")
                }
            }
        }
        #expect(recorder.entries.contains("end: same log true"))
        #expect(recorder.entries.contains("end: tracer scopeEnded"))
        // The tracer made while the scope ended is nobody's: the registry shuts it down with the host.
        #expect(recorder.count("create Tracer #1") == 1)
        #expect(recorder.count("shutdown Tracer #1") == 0)
        try await host.terminate()
        #expect(recorder.count("shutdown Tracer #1") == 1)
        #expect(recorder.count("shutdown RequestLog #1") == 1)
    }

    @Test("A singleton's factory cannot resolve a scoped service, directly or through a transient")
    func captiveDependency() async throws {
        let (host, scopes, _) = try await scopedServicesHost([
            RequestLogModule.self, StampModule.self, CaptiveModule.self,
        ])
        try await scopes.withScope(.request, "captive") { scope in
            let direct = #expect(throws: ServiceError.self) { try scope.services.require((any Reporter).self) }
            #expect(direct?.code == .captiveDependency)
            #expect(direct?.service == ServiceKey((any RequestLog).self))
            #expect(
                direct?.description.contains("singleton `Reporter`, provided by `LifecycleServicesTests.CaptiveModule`")
                    == true
            )
            #expect(direct?.description.contains("scoped service `RequestLog`") == true)
            #expect(direct?.description.contains("Make `Reporter` scoped as well") == true)
            let throughStamp = #expect(throws: ServiceError.self) { try scope.services.require((any Auditor).self) }
            #expect(throughStamp?.code == .captiveDependency)
            #expect(throughStamp?.description.contains("singleton `Auditor`") == true)
        }
        try await host.terminate()
    }

    @Test("An eager singleton that captures a scoped service fails its launch stage")
    func eagerCaptiveDependency() async throws {
        let recorder = Recorder()
        var options = LaunchOptions()
        options[RecorderKey.self] = recorder
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Eager", [RequestLogModule.self, EagerCaptiveModule.self]).withServices()
                .withScopes(),
            launchOptions: options,
            configuration: .init(hookBudget: nil, terminateDeadline: nil)
        )
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        let causes = error?.failures.compactMap { $0.error as? ServiceError } ?? []
        #expect(causes.map(\.code) == [.captiveDependency])
        #expect(causes.first?.description.contains("singleton `Reporter`") == true)
        #expect(recorder.entries.isEmpty)
        _ = try? await host.terminate()
    }

    @Test("A scoped shutdown that throws is a failure of its scope; the others still shut down")
    func failingShutdown() async throws {
        let (host, scopes, recorder) = try await scopedServicesHost([RequestLogModule.self, UploadModule.self])
        let scope = try await scopes.withScope(.request, "PUT /file") { scope in
            _ = try scope.services.require((any RequestLog).self)
            _ = try scope.services.require((any Upload).self)
            return scope
        }
        #expect(recorder.count("shutdown RequestLog #1") == 1)
        #expect(scope.failures.count == 1)
        #expect(scope.failures.first?.action == "shutdown of scoped service `Upload`")
        #expect(scope.failures.first?.error is UploadFailed)
        #expect(scopes.failures.map(\.action) == ["shutdown of scoped service `Upload`"])
        try await host.terminate()
    }

    @Test("A test replaces a service with a scoped fake")
    func scopedOverride() async throws {
        let serials = Serials()
        let (host, scopes, recorder) = try await scopedServicesHost([RequestLogModule.self]) {
            $0.replace((any Tracer).self, lifetime: .scoped) { resolver in
                ScopedValue("FakeTracer", serial: serials.take(), recorder: resolver.launchOptions[RecorderKey.self])
            }
        }
        for name in ["a", "b"] {
            try await scopes.withScope(.request, name) { scope in
                let first = try scope.services.require((any Tracer).self)
                #expect(
                    first as? ScopedValue === (try host.context.services.require((any Tracer).self)) as? ScopedValue
                )
            }
        }
        #expect(recorder.entries == ["create FakeTracer #1", "willEnd a", "create FakeTracer #2", "willEnd b"])
        try await host.terminate()
    }

    @Test("64 tasks resolving first in one scope all get one instance; every instance made shuts down once")
    func concurrentFirstResolutions() async throws {
        let (host, scopes, recorder) = try await scopedServicesHost([ContendedModule.self])
        let serials = try await scopes.withScope(.request, "burst") { scope in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<64 { group.addTask { try scope.services.require((any Contended).self).serial } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(Set(serials).count == 1)
        let made = recorder.entries.filter { $0.hasPrefix("create") }
        let shutDown = recorder.entries.filter { $0.hasPrefix("shutdown") }
        #expect(!made.isEmpty)
        #expect(Set(shutDown).count == shutDown.count)
        #expect(Set(shutDown.map { $0.replacingOccurrences(of: "shutdown", with: "create") }) == Set(made))
        try await host.terminate()
        #expect(recorder.entries.filter { $0.hasPrefix("shutdown") }.count == made.count)
    }

    @Test(
        "Threads that make an instance at once: the first stored wins, the others shut down at the end",
        arguments: 0..<3
    )
    func losingInstances(round: Int) async throws {
        let (host, scopes, recorder) = try await scopedServicesHost([ContendedModule.self])
        let scope = try await scopes.begin(.request, "race \(round)")
        let services = scope.services
        // Four threads: each spins at the start gate, and more would starve the timing tests of other suites
        // on a 2-core machine.
        let serials = resolveOnThreads(4) { "\(try services.require((any Contended).self).serial)" }
        #expect(Set(serials).count == 1)
        #expect(!serials.contains("error"))
        let made = recorder.entries.filter { $0.hasPrefix("create") }
        #expect(made.count >= 2, "the first factory waits for a second")
        #expect(!recorder.entries.contains { $0.hasPrefix("shutdown") })
        try await scope.end()
        let shutDown = recorder.entries.filter { $0.hasPrefix("shutdown") }
        #expect(shutDown.count == made.count)
        #expect(Set(shutDown.map { $0.replacingOccurrences(of: "shutdown", with: "create") }) == Set(made))
        try await host.terminate()
        #expect(recorder.entries.filter { $0.hasPrefix("shutdown") }.count == made.count)
    }
}
