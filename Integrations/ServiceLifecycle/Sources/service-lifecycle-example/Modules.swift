import LifecycleCore
import LifecycleRouting
import LifecycleScopes
import LifecycleServices
import LifecycleWork
import Synchronization

/// What the program itself hands the modules and routes: the request count, the transcript, the session
/// scopes and what `HTTPServerModule` serves, in the launch options under ``ExampleServicesKey``. The store is not here: `StoreModule` provides it as a
/// service, which the modules and the request handlers resolve (`Docs/Services.md`).
final class ExampleServices: Sendable {
    let transcript: Transcript
    /// Where the per-request lines go, through swift-log (``RequestLog``).
    let requestLog: RequestLog
    /// The session scopes, bounded: opened by `RequestScopeMiddleware`, ended by `SessionModule`.
    let sessions: SessionScopes
    /// The routes `HTTPServerModule` serves, once the program has built them.
    let http = HTTPServing()
    private let answered = Mutex(0)

    /// The services of a program that writes `transcript`, logs its per-request lines to `requestLog`, and
    /// keeps at most `maxSessions` sessions, each ended after `sessionIdleTimeout` without a request.
    init(
        transcript: Transcript,
        requestLog: RequestLog = RequestLog(),
        maxSessions: Int = KeyedScopes<String>.defaultCapacity,
        sessionIdleTimeout: Duration = KeyedScopes<String>.defaultIdleTimeout
    ) {
        self.transcript = transcript
        self.requestLog = requestLog
        sessions = SessionScopes(capacity: maxSessions, idleTimeout: sessionIdleTimeout, log: requestLog)
    }

    /// Counts one answered request.
    func countAnswer() { answered.withLock { $0 += 1 } }

    /// How many requests were answered.
    var answeredRequests: Int { answered.withLock { $0 } }
}

/// Where the modules find ``ExampleServices``.
enum ExampleServicesKey: LaunchOptionKey {
    static let defaultValue: ExampleServices? = nil
}

/// Thrown by a module created without ``ExampleServices`` in its launch options.
struct MissingExampleServices: Error, CustomStringConvertible {
    let module: String
    var description: String {
        "\(module) needs ExampleServices in its launch options, for init(context:): set "
            + "launchOptions[ExampleServicesKey.self] before creating the ApplicationHost."
    }
}

extension ExampleServices? {
    /// The services, or the error that says `module` was made without them.
    func orThrow(_ module: any LifecycleModule.Type) throws(MissingExampleServices) -> ExampleServices {
        guard let self else { throw MissingExampleServices(module: module.moduleName) }
        return self
    }
}

extension LifecycleContext {
    func exampleServices(for module: any LifecycleModule.Type) throws(MissingExampleServices) -> ExampleServices {
        try launchOptions[ExampleServicesKey.self].orThrow(module)
    }
}

/// Provides the store as a service; opens it in setup, fills it in warm-up, and closes it in willTerminate.
/// `--warm-up-delay <ms>` makes the warm-up take that much longer: a slow launch, during which the server
/// already listens and `/health/ready` answers 503.
///
/// The `/items` route resolves and reads the store, so no request may still be running when
/// `willTerminate` closes it: `HTTPServerModule`'s work is stopped before `willTerminate`, and the
/// ServiceGroup lists the host first; either way the server drains before the store closes.
struct StoreModule: LifecycleModule, ServiceProvidingModule, SetupStage, WarmUpStage, WillTerminate {
    static let priority: ModulePriority = .high
    let services: ExampleServices
    let warmUpDelay: Duration

    init(context: LifecycleContext) throws {
        services = try context.exampleServices(for: Self.self)
        warmUpDelay = .milliseconds(context.launchOptions.argument("--warm-up-delay").flatMap { Int($0) } ?? 0)
    }

    static func provideServices(_ services: inout ServiceProvisions) {
        services.singleton(Store.self) { _ in Store() }
    }

    func setUp(_ context: LifecycleContext) async throws {
        try await context.services.require(Store.self).open()
        services.transcript.write("store: opened")
    }

    func warmUp(_ context: LifecycleContext) async throws {
        if warmUpDelay > .zero {
            services.transcript.write("store: warming up for \(warmUpDelay)")
            try await Task.sleep(for: warmUpDelay)
        }
        try await context.services.require(Store.self).fill(count: 100)
        services.transcript.write("store: filled")
    }

    func willTerminate(_ context: LifecycleContext) async throws {
        services.transcript.write("store: closing")
        let count = try await context.services.require(Store.self).close()
        services.transcript.write("store: closed with \(count) items")
    }
}

/// Reports the traffic: it starts counting when the host becomes active, and reports the count when the
/// host goes to the background: at SIGUSR1, and, in the service-group mode, at SIGTERM, after the server
/// has drained (`ApplicationHostService` backgrounds the host before it terminates it). Under `HostRunner`,
/// the work mode, SIGTERM delivers `willTerminate` alone.
struct TrafficModule: LifecycleModule, DependentModule, DidBecomeActive, WillResignActive,
    DidEnterBackground
{
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [StoreModule.self]
    let services: ExampleServices

    init(context: LifecycleContext) throws {
        services = try context.exampleServices(for: Self.self)
    }

    func didBecomeActive(_ context: LifecycleContext) {
        services.transcript.write("traffic: accepting requests")
    }

    func willResignActive(_ context: LifecycleContext) {
        services.transcript.write("traffic: resigning")
    }

    func didEnterBackground(_ context: LifecycleContext) {
        services.transcript.write("traffic: \(services.answeredRequests) requests answered")
    }
}

extension ModuleManifest {
    /// The example's modules, with services; with routing: `AdminModule` serves the admin routes, which the
    /// global interceptors guard; with scopes: `RequestScopeMiddleware` runs each request in a request
    /// scope, `SessionLogAction` reports each session scope, and `SessionModule` ends them; and with work:
    /// `HTTPServerModule` serves HTTP from its work (switched off with `--mode service-group`).
    ///
    /// `.withWork()` finds the working modules by asking the runtime; the discovery plugin will list them
    /// (`.withWork(workers:)`) when the manifest is generated.
    static let example = ModuleManifest(
        name: "service-lifecycle-example",
        [
            StoreModule.self, StoreReaderModule.self, TrafficModule.self, AdminModule.self, SessionModule.self,
            HTTPServerModule.self,
        ]
    )
    .withServices()
    .withRouting(interceptors: [AdminTokenInterceptor.self, BackgroundWriteGuard.self])
    .withScopes(actions: [SessionLogAction.self])
    .withWork()
}
