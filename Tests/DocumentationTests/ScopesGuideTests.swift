import LifecycleCore
import LifecycleProxy
import LifecycleScopes
import LifecycleTesting
import Synchronization
import Testing

// The examples of Docs/Scopes.md and the LifecycleScopes DocC catalog, compiled and exercised.

// README: per-host state for scopes
/// Where the examples write: one log per host, so hosts built side by side (parallel tests) share nothing.
final class AccessLog: Sendable {
    private let lines = Mutex<[String]>([])
    func write(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

enum AccessLogKey: LaunchOptionKey {
    static let defaultValue = AccessLog()  // for hosts that set none; each host below sets its own
}
// README: end

// README: a global action
struct RequestLogAction: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    let log: AccessLog

    init(context: LifecycleContext) { log = context.launchOptions[AccessLogKey.self] }

    func didBegin(_ scope: Scope) async throws { log.write("→ \(scope.name)") }
    func willEnd(_ scope: Scope) async throws { log.write("← \(scope.name)") }
}
// README: end

// README: a behavior
struct Timing: ScopeBehavior {
    var started: ContinuousClock.Instant?

    mutating func didBegin(_ scope: Scope) async throws { started = .now }

    mutating func willEnd(_ scope: Scope) async throws {
        let elapsed = started.map { ContinuousClock.now - $0 } ?? .zero
        print("\(scope.name) took \(elapsed)")
    }
}
// README: end

struct Auditing: ScopeBehavior {
    let log: AccessLog
    mutating func willEnd(_ scope: Scope) async throws { log.write("audit \(scope.name)") }
}

struct RateLimit: ScopeBehavior {
    static let failurePolicy: ModuleFailurePolicy = .abort
    let perSecond: Int
    mutating func didBegin(_ scope: Scope) async throws {
        if perSecond == 0 { throw TooManyRequests() }
    }
    struct TooManyRequests: Error {}
}

struct ScopesGuideModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

@Suite("Docs/Scopes.md examples")
struct ScopesGuideTests {
    func host() throws -> ApplicationHost {
        // README: a manifest with scopes
        let manifest = ModuleManifest([ScopesGuideModule.self])
            .withScopes(actions: [RequestLogAction.self], endBudget: .seconds(5))
        var options = LaunchOptions.current
        options[AccessLogKey.self] = AccessLog()  // this host's own log
        let host = try ApplicationHost(manifest: manifest, launchOptions: options)
        // README: end
        return host
    }

    @Test("a request scope with composed behaviors")
    func request() async throws {
        let host = try host()
        let scopes = host.scopes!
        let log = host.context.launchOptions[AccessLogKey.self]
        let recorder = ScopeRecorder(observing: host)
        // README: a request scope
        let page = try await scopes.withScope(
            .request,
            "GET /reports",
            adopting: Timing(),
            Auditing(log: log),
            RateLimit(perSecond: 100)
        ) { scope in
            "reports for \(scope.name)"  // Scope.current is `scope` here, and in what it calls
        }
        // README: end
        #expect(page == "reports for GET /reports")
        // This host's log only, whatever other tests' hosts write at the same time.
        #expect(log.all == ["→ GET /reports", "audit GET /reports", "← GET /reports"])
        // Teardown in reverse: RateLimit, Auditing, then Timing, then the global action.
        #expect(
            recorder.receivers(of: .end, in: "GET /reports") == [
                "RateLimit", "Auditing", "Timing", "RequestLogAction",
            ]
        )
    }

    @Test("Hosts built side by side keep their own state: no log is shared")
    func perHostState() async throws {
        let (first, second) = (try host(), try host())
        try await first.scopes!.withScope(.request, "GET /first") { _ in }
        #expect(first.context.launchOptions[AccessLogKey.self].all == ["→ GET /first", "← GET /first"])
        #expect(second.context.launchOptions[AccessLogKey.self].all.isEmpty)
    }

    @Test("An idle scope adopts before it begins; nothing is delivered or listed until then")
    func idleScope() async throws {
        let host = try host()
        let scopes = host.scopes!
        let log = host.context.launchOptions[AccessLogKey.self]
        // README: an idle scope
        let export = scopes.scope(.job, "nightly export")  // idle: nothing delivered, not in flight
        await export.adopt(Timing())  // waits for begin, like every adoption of an idle scope
        await export.on(.begin) { scope in log.write("\(scope.name): started") }
        try await export.begin()  // the global actions, then Timing, then the closure, receive begin
        try await export.end()
        // README: end
        #expect(log.all == ["nightly export: started"])
        #expect(export.state == .ended)
        let never = scopes.scope(.job, "never begun")
        #expect(never.state == .idle)
        #expect(scopes.inFlight().isEmpty)
        try await never.end()  // an idle scope ends without deliveries, and is no leak
        #expect(never.failures.isEmpty)
    }

    @Test("a session driven by hand, with a once-action")
    func session() async throws {
        let host = try host()
        let scopes = host.scopes!
        let log = host.context.launchOptions[AccessLogKey.self]
        // README: a session by hand
        let session = try await scopes.begin(.session, "alice")
        await session.once("welcome") { scope in log.write("welcome, \(scope.name)") }
        try await session.activate()  // "welcome, alice"
        try await session.deactivate()
        try await session.activate()  // no second welcome
        try await session.end()
        // README: end
        #expect(log.all == ["welcome, alice"])
        #expect(session.activations == 2)
    }

    @Test("sessions by key, bounded: shared by their uses, ended at endAll")
    func keyedSessions() async throws {
        let host = try host()
        let scopes = host.scopes!
        let log = host.context.launchOptions[AccessLogKey.self]
        // README: sessions by key
        let sessions = try KeyedScopes<String>(.session, in: scopes, capacity: 1_000, idleTimeout: .seconds(600)) {
            await $0.once("welcome") { scope in log.write("welcome, \(scope.name)") }
        }
        let cart = try await sessions.withScope("alice") { session in
            try await scopes.withScope(.request, "GET /cart", parent: session) { _ in "alice's cart" }
        }
        await sessions.endAll()  // at termination: ends what is left, and opens nothing more
        // README: end
        #expect(cart == "alice's cart")
        #expect(log.all.filter { $0.hasPrefix("welcome") } == ["welcome, alice"])
        #expect(scopes.inFlight().isEmpty)
    }

    @Test("what is in flight")
    func inFlight() async throws {
        let host = try host()
        let scopes = host.scopes!
        try await scopes.withScope(.session, "bob") { _ in
            try await scopes.withScope(.request, "GET /1") { request in
                // README: what is in flight
                for scope in scopes.inFlight(.request) {
                    print(scope.kind, scope.id, scope.name, scope.state)  // request #2 GET /1 active
                }
                let session = Scope.current?.parent  // the enclosing scope: bob's session
                // README: end
                #expect(session?.name == "bob")
                #expect(scopes.inFlight(.request).map(\.name) == ["GET /1"])
                #expect(request.parent === session)
            }
        }
    }

    @Test("asserting the order of actions with the test kit")
    func recorder() async throws {
        let host = try host()
        // README: testing scopes
        let recorder = ScopeRecorder(observing: host)
        try await host.scopes!.withScope(.request, "GET /", adopting: Timing()) { _ in }
        #expect(
            recorder.timeline("GET /") == [
                "begin RequestLogAction", "begin Timing", "activate RequestLogAction", "activate Timing",
                "deactivate Timing", "deactivate RequestLogAction", "end Timing", "end RequestLogAction",
            ]
        )
        // README: end
    }

    @Test("a rate limit with the .abort policy fails the scope before the body runs")
    func abort() async throws {
        let host = try host()
        await #expect(throws: ScopeError.self) {
            try await host.scopes!.withScope(.request, "GET /limited", adopting: RateLimit(perSecond: 0)) { _ in
                Issue.record("the body ran")
            }
        }
        #expect(host.scopes!.inFlight().isEmpty)
    }
}
