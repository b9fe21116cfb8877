import LifecycleCore
import LifecycleProxy
import LifecycleScopes
import LifecycleTesting
import Synchronization

/// Thrown by the fixtures when a scope's name asks them to fail.
struct Refused: Error, CustomStringConvertible {
    let who: String
    var description: String { "\(who) refused" }
}

/// A global action for requests, the highest priority.
struct AuditAction: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}
}

/// A request action at normal priority; ties with `TieB` broken by type name.
struct TieA: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

struct TieB: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// For jobs only.
struct JobAction: ScopeAction {
    static let kinds: ScopeKinds = [.job]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// For every kind, the lowest priority.
struct EveryKindAction: ScopeAction {
    static let kinds: ScopeKinds = .all
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
}

/// Fails the scope (`.abort`) at the event its name asks for: "abort-begin", "abort-activate", "abort-end".
struct StrictAction: ScopeAction {
    static let kinds: ScopeKinds = .all
    static let priority: ModulePriority = .normal
    static let failurePolicy: ModuleFailurePolicy = .abort
    init(context: LifecycleContext) {}

    func didBegin(_ scope: Scope) async throws {
        if scope.name.contains("abort-begin") { throw Refused(who: "strict") }
    }
    func didActivate(_ scope: Scope) async throws {
        if scope.name.contains("abort-activate") { throw Refused(who: "strict") }
    }
    func willEnd(_ scope: Scope) async throws { if scope.name.contains("abort-end") { throw Refused(who: "strict") } }
}

/// Throws at every event of a scope named "flaky…", isolated.
struct FlakyAction: ScopeAction {
    static let kinds: ScopeKinds = .all
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}

    func didBegin(_ scope: Scope) async throws { if scope.name.hasPrefix("flaky") { throw Refused(who: "flaky") } }
    func willEnd(_ scope: Scope) async throws { if scope.name.hasPrefix("flaky") { throw Refused(who: "flaky") } }
}

/// A behavior with stored state: counts the events it saw, and checks it keeps its count between hooks.
struct Counter: ScopeBehavior {
    let log: Log
    var seen = 0

    mutating func didBegin(_ scope: Scope) async throws { see("begin") }
    mutating func didActivate(_ scope: Scope) async throws { see("activate") }
    mutating func willDeactivate(_ scope: Scope) async throws { see("deactivate") }
    mutating func willEnd(_ scope: Scope) async throws { see("end") }

    private mutating func see(_ event: String) {
        seen += 1
        log.append("Counter \(event) #\(seen)")
    }
}

/// A behavior that only logs, under a name.
struct Tag: ScopeBehavior {
    let name: String
    let log: Log

    mutating func didBegin(_ scope: Scope) async throws { log.append("\(name) begin") }
    mutating func willEnd(_ scope: Scope) async throws { log.append("\(name) end") }
}

/// A behavior that fails the scope at activation.
struct StrictBehavior: ScopeBehavior {
    static let failurePolicy: ModuleFailurePolicy = .abort
    mutating func didActivate(_ scope: Scope) async throws { throw Refused(who: "strict behavior") }
}

/// Lines appended from any task.
final class Log: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
}

/// A host with scopes and `actions`, and a recorder observing its scopes.
func scopedHost(
    _ actions: [any ScopeAction.Type] = [AuditAction.self, TieB.self, TieA.self, JobAction.self, EveryKindAction.self],
    endBudget: Duration? = nil,
    clock: VirtualClock? = nil
) throws -> (ApplicationHost, ScopeRegistry, ScopeRecorder) {
    let host = try ApplicationHost(
        manifest: ModuleManifest(name: "Scopes", [PlainModule.self]).withScopes(actions: actions, endBudget: endBudget),
        configuration: .init(clock: clock ?? ContinuousClock(), hookBudget: nil, terminateDeadline: nil)
    )
    let recorder = ScopeRecorder(observing: host)
    return (host, host.scopes!, recorder)
}

/// A module, since a host needs one.
struct PlainModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}

/// A gate one task waits at until another opens it.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var isWaiting: Bool { state.withLock { !$0.waiters.isEmpty } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A count shared between tasks.
final class Tally: Sendable {
    private let count = Atomic(0)
    func add(_ value: Int = 1) { count.add(value, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// Waits until `condition` holds, checking every millisecond, for at most `limit`: a sleep, not a loop of
/// `Task.yield()`, which would keep a cooperative thread busy and slow every other test down.
func waitUntil(_ limit: Duration = .seconds(5), _ condition: () -> Bool) async throws {
    let start = ContinuousClock.now
    while !condition(), ContinuousClock.now - start < limit {
        try await Task.sleep(for: .milliseconds(1))
    }
}
