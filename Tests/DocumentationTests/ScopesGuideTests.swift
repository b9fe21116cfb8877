import LifecycleCore
import LifecycleProxy
import LifecycleScopes
import LifecycleTesting
import Synchronization
import Testing

// The examples of Docs/Scopes.md and the LifecycleScopes DocC catalog, compiled and exercised.

/// Where the examples write.
final class ScopeLines: Sendable {
    private let lines = Mutex<[String]>([])
    func write(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

let scopeLines = ScopeLines()

// README: a global action
struct RequestLogAction: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal

    init(context: LifecycleContext) {}

    func didBegin(_ scope: Scope) async throws { scopeLines.write("→ \(scope.name)") }
    func willEnd(_ scope: Scope) async throws { scopeLines.write("← \(scope.name)") }
}
// README: end

// README: a behavior
struct Timing: ScopeBehavior {
    var started: ContinuousClock.Instant?

    mutating func didBegin(_ scope: Scope) async throws { started = .now }

    mutating func willEnd(_ scope: Scope) async throws {
        let elapsed = started.map { ContinuousClock.now - $0 } ?? .zero
        scopeLines.write("\(scope.name) took \(elapsed)")
    }
}
// README: end

struct Auditing: ScopeBehavior {
    mutating func willEnd(_ scope: Scope) async throws { scopeLines.write("audit \(scope.name)") }
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
        // README: end
        return try ApplicationHost(manifest: manifest)
    }

    @Test("a request scope with composed behaviors")
    func request() async throws {
        let host = try host()
        let scopes = host.scopes!
        // README: a request scope
        let page = try await scopes.withScope(
            .request,
            "GET /reports",
            adopting: Timing(),
            Auditing(),
            RateLimit(perSecond: 100)
        ) { scope in
            "reports for \(scope.name)"  // Scope.current is `scope` here, and in what it calls
        }
        // README: end
        #expect(page == "reports for GET /reports")
        let lines = scopeLines.all.filter { $0.contains("GET /reports") }
        #expect(lines.first == "→ GET /reports")
        #expect(lines.last == "← GET /reports")
        #expect(lines.dropFirst().first == "audit GET /reports")  // teardown in reverse: Auditing before Timing
        #expect(lines.dropFirst(2).first?.hasPrefix("GET /reports took") == true)
    }

    @Test("a session driven by hand, with a once-action")
    func session() async throws {
        let host = try host()
        let scopes = host.scopes!
        // README: a session by hand
        let session = try await scopes.begin(.session, "alice")
        await session.once("welcome") { scope in scopeLines.write("welcome, \(scope.name)") }
        try await session.activate()  // "welcome, alice"
        try await session.deactivate()
        try await session.activate()  // no second welcome
        try await session.end()
        // README: end
        #expect(scopeLines.all.filter { $0 == "welcome, alice" }.count == 1)
        #expect(session.activations == 2)
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
