import LifecycleCore
import LifecycleScopes
import LifecycleServices
import LifecycleVapor
import Synchronization
import Vapor

/// What the fixture modules record, per host: in the launch options under ``RecordKey``, never a global.
final class Record: Sendable {
    private let lines = Mutex<[String]>([])
    /// Released by the test to let ``SlowLaunchModule``'s warm-up finish.
    let warmUp = Latch()
    /// Opened by ``SlowLaunchModule`` once its route is registered.
    let routesRegistered = Latch()

    func write(_ line: String) { lines.withLock { $0.append(line) } }
    var written: [String] { lines.withLock { $0 } }
}

enum RecordKey: LaunchOptionKey {
    static let defaultValue: Record? = nil
}

/// A one-shot signal between a test and a module.
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiting.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// A scoped service: one per request, whose shutdown runs when the request's scope ends.
final class RequestCounter: Sendable {
    let record: Record?

    init(record: Record?) { self.record = record }
}

/// Serves `GET /greet`: answers with the request's scope's name, whether `Scope.current` is that scope, and
/// whether the request resolves one `RequestCounter`; records `willTerminate`.
struct GreeterModule: LifecycleModule, ServiceProvidingModule, SetupStage, WillTerminate {
    static let priority: ModulePriority = .normal
    let record: Record

    init(context: LifecycleContext) {
        record = context.launchOptions[RecordKey.self] ?? Record()
    }

    static func provideServices(_ services: inout ServiceProvisions) {
        services.scoped(
            RequestCounter.self,
            { resolver in RequestCounter(record: resolver.launchOptions[RecordKey.self]) },
            shutdown: { counter in counter.record?.write("counter: shut down") }
        )
    }

    func setUp(_ context: LifecycleContext) async throws {
        let record = self.record
        try context.vapor(for: Self.self).routes.get("greet") { req async throws -> String in
            guard let scope = req.modules.scope else { throw Abort(.internalServerError, reason: "no scope") }
            let counter = try req.modules.services.require(RequestCounter.self)
            let again = try req.modules.services.require(RequestCounter.self)
            record.write("greet")
            return "\(scope.name)|current:\(Scope.current?.id == scope.id)|same:\(counter === again)"
        }
    }

    func willTerminate(_ context: LifecycleContext) async throws {
        record.write("greeter: willTerminate")
    }
}

/// Registers `GET /failing` in setup, then throws: its route never opens (503).
struct FailingModule: LifecycleModule, SetupStage {
    static let priority: ModulePriority = .normal
    struct SetupFailed: Error {}

    init(context: LifecycleContext) {}

    func setUp(_ context: LifecycleContext) async throws {
        try context.vapor(for: Self.self).routes.get("failing") { _ in "never" }
        throw SetupFailed()
    }
}

/// Registers `GET /slow-launch` in setup, then waits in warm-up until the test releases it.
struct SlowLaunchModule: LifecycleModule, SetupStage, WarmUpStage {
    static let priority: ModulePriority = .normal
    let record: Record

    init(context: LifecycleContext) {
        record = context.launchOptions[RecordKey.self] ?? Record()
    }

    func setUp(_ context: LifecycleContext) async throws {
        try context.vapor(for: Self.self).routes.get("slow-launch") { _ in "launched" }
        record.routesRegistered.open()
    }

    func warmUp(_ context: LifecycleContext) async throws {
        await record.warmUp.wait()
    }
}

/// Serves `GET /fragile`; its `didEnterBackground` throws, so a quarantine policy of one failure takes it
/// out at the next request.
struct FragileModule: LifecycleModule, SetupStage, DidEnterBackground {
    static let priority: ModulePriority = .normal
    struct BackgroundFailed: Error {}

    init(context: LifecycleContext) {}

    func setUp(_ context: LifecycleContext) async throws {
        try context.vapor(for: Self.self).routes.get("fragile") { _ in "fragile" }
    }

    func didEnterBackground(_ context: LifecycleContext) async throws {
        throw BackgroundFailed()
    }
}

/// Counts the request scopes it saw end: a scope action.
struct EndedScopes: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    let record: Record

    init(context: LifecycleContext) {
        record = context.launchOptions[RecordKey.self] ?? Record()
    }

    func willEnd(_ scope: Scope) {
        record.write("ended \(scope.name)")
    }
}

/// Launch options carrying `record`.
func options(_ record: Record) -> LaunchOptions {
    var options = LaunchOptions()
    options[RecordKey.self] = record
    return options
}

/// An async middleware that tells the handler, in a request header, the name of the scope it ran in.
struct ScopeNamingMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        request.headers.replaceOrAdd(name: "x-scope-in-middleware", value: request.modules.scope?.name ?? "no scope")
        return try await next.respond(to: request)
    }
}
