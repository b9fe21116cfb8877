public import LifecycleCore

/// A host's scopes: it makes them, gives them the global actions of their kind, lists those in flight,
/// keeps their failures, and watches their ends. `host.scopes`, or `context.scopes` in a module, for a host
/// whose manifest has scopes (`ModuleManifest.withScopes(actions:endBudget:)`, or generated).
///
/// ```swift
/// let answer = try await host.scopes!.withScope(.request, "GET /reports", adopting: Timing()) { scope in
///     try await reports.render()
/// }
/// print(host.scopes!.inFlight(.request))   // what is in flight right now
/// ```
///
/// Scopes may be made and used from any task, concurrently.
public final class ScopeRegistry: Sendable {
    /// The ``endBudget`` of a host whose manifest does not choose one: 10 seconds.
    public static let defaultEndBudget: Duration = .seconds(10)
    /// How many failures ``failures`` keeps: the most recent.
    public static let failureHistory = 256

    /// How long a scope's end may take, unless the scope was given its own budget; `nil` for no limit.
    public let endBudget: Duration?

    /// A global action as the host made it.
    struct InstalledAction: Sendable {
        let instance: any ScopeAction
        let name: String
        let kinds: ScopeKinds
        let priority: ModulePriority
        let policy: ModuleFailurePolicy
    }

    struct State: Sendable {
        /// Every global action, in delivery order.
        var actions: [InstalledAction] = []
        var installed = false
        /// The actions of each kind asked for so far.
        var byKind: [ScopeKind: ContiguousArray<InstalledAction>] = [:]
        var nextID: UInt64 = 1
        var failures: [ScopeFailure] = []
        var failureCount = 0
        var observer: (any ScopeObserver)?
        /// The host's context, from the first install until the host is gone.
        var context: LifecycleContext?
        /// The host's watchdog, which times the ends of scopes with a budget; the continuous clock's until
        /// the host installs its modules.
        var watchdog: HostWatchdog = .standalone
    }

    private let state = Locked(State())
    /// The scopes in flight.
    private let table = ScopeTable()
    /// The ends in progress under a budget, on the host's watchdog.
    let endWatch = ScopeEndWatch()

    init(endBudget: Duration?) {
        self.endBudget = endBudget
    }

    /// Makes the global actions, once: the first time the host installs its modules.
    func install(_ types: [any ScopeAction.Type], context: LifecycleContext) {
        guard !state.withLock({ $0.installed }) else { return }
        let actions = types.map { Self.make($0, context: context) }.sorted {
            ($0.priority, $1.name) > ($1.priority, $0.name)
        }
        state.withLock { state in
            guard !state.installed else { return }
            state.installed = true
            state.actions = actions
            state.byKind = [:]
            state.context = context
            state.watchdog = context.watchdog
        }
    }

    /// The host's watchdog, on the host's clock: it takes over an end that runs past its budget.
    var watchdog: HostWatchdog { state.withLock { $0.watchdog } }

    /// The context of the host whose scopes these are, from when it installs its modules until it is gone:
    /// for targets built on scopes (scoped services find the host's service registry in its launch options).
    package var hostContext: LifecycleContext? { state.withLock { $0.context } }

    private static func make<A: ScopeAction>(_ type: A.Type, context: LifecycleContext) -> InstalledAction {
        InstalledAction(
            instance: A(context: context),
            name: A.actionName,
            kinds: A.kinds,
            priority: A.priority,
            policy: A.failurePolicy
        )
    }

    /// The host is gone: the actions and the context are let go. Scopes still work.
    func retire() {
        // The context's launch options hold this registry, and an action may hold the context: letting go of
        // both breaks the cycle. Scopes made from now on get no global action; those in flight keep theirs.
        state.withLock { state in
            state.context = nil
            state.actions = []
            state.byKind = [:]
        }
    }

    // MARK: Making scopes

    /// Makes an idle scope: nothing is delivered until it begins (``Scope/begin()``), and ``inFlight(_:)``
    /// does not list it until then. What it adopts meanwhile waits for `begin`, so every adoption is in place
    /// before the first hook runs. An idle scope may be ended (nothing is delivered) or dropped without
    /// beginning: only a scope that began and was released without ending is reported as
    /// ``ScopeError/Code/leaked``. ``begin(_:_:parent:endBudget:)`` makes a scope and begins it.
    ///
    /// - Parameters:
    ///   - kind: What it is for; it receives the global actions of this kind.
    ///   - name: Its name in listings and errors: a request line, a session's user, a job's name.
    ///   - parent: The scope it is nested in; by default the task's current one.
    ///   - endBudget: How long its end may take; `nil` for the registry's ``endBudget``.
    public func scope(
        _ kind: ScopeKind,
        _ name: String,
        parent: Scope? = Scope.current,
        endBudget: Duration? = nil
    ) -> Scope {
        let (id, actions, observer) = state.withLock { state in
            defer { state.nextID += 1 }
            return (ScopeID(state.nextID), state.actions(for: kind), state.observer)
        }
        return Scope(
            id: id,
            kind: kind,
            name: name,
            parent: parent,
            endBudget: endBudget ?? self.endBudget,
            registry: self,
            actions: actions,
            observer: observer
        )
    }

    /// Makes a scope and begins it. End it yourself (``Scope/end()``); a scope released without ending is
    /// reported as ``ScopeError/Code/leaked``.
    public func begin(
        _ kind: ScopeKind,
        _ name: String,
        parent: Scope? = Scope.current,
        endBudget: Duration? = nil
    ) async throws(ScopeError) -> Scope {
        let scope = scope(kind, name, parent: parent, endBudget: endBudget)
        try await scope.begin()
        return scope
    }

    /// Runs `body` in a new scope that adopted `behavior`s, has begun and is active, and is the task's
    /// current scope; then ends it, whether `body` returns, throws, or its task is cancelled.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: A ``ScopeError`` if the scope could not begin or activate (then `body` does not run) or,
    ///   when `body` returned, could not end within its budget; otherwise what `body` throws. Failures of
    ///   the end after `body` threw are in the scope's failures and the registry's.
    @inlinable
    public func withScope<each B: ScopeBehavior, R>(
        _ kind: ScopeKind,
        _ name: String,
        parent: Scope? = Scope.current,
        endBudget: Duration? = nil,
        adopting behavior: repeat each B,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Scope) async throws -> R
    ) async throws -> R {
        let scope = scope(kind, name, parent: parent, endBudget: endBudget)
        var count = 0
        for _ in repeat (each B).self { count += 1 }
        if count > 0 { scope.attachBeforeBegin(BehaviorAdoption.make(owner: scope, repeat each behavior)) }
        try await scope.begin()
        try await scope.activate()
        let result: R
        do {
            result = try await scope.withCurrent(isolation: isolation) { try await body(scope) }
        } catch {
            try? await scope.end()
            throw error
        }
        try await scope.end()
        return result
    }

    // MARK: What is in flight

    /// The scopes that have begun and not ended, of `kind` or of every kind, oldest first: what is in
    /// flight right now. A scope leaves the list when it ends, whatever ended it (its task's cancellation,
    /// a thrown error, the watchdog).
    public func inFlight(_ kind: ScopeKind? = nil) -> [ScopeSummary] {
        table.list(kind)
    }

    /// The names of the global actions of `kind`, in delivery order.
    public func actions(for kind: ScopeKind) -> [String] {
        state.withLock { $0.actions(for: kind).map(\.name) }
    }

    /// The most recent failures of every scope, oldest first, at most ``failureHistory``.
    public var failures: [ScopeFailure] { state.withLock { $0.failures } }

    /// How many failures there have been in all.
    public var failureCount: Int { state.withLock { $0.failureCount } }

    /// Tells `observer` about every delivery to scopes made from now on; `nil` stops telling.
    public func observe(_ observer: (any ScopeObserver)?) {
        state.withLock { $0.observer = observer }
    }

    // MARK: For scopes

    func enter(_ summary: ScopeSummary) -> Int { table.enter(summary) }

    func update(_ slot: Int, to scopeState: ScopeState) { table.update(slot, to: scopeState) }

    func leave(_ slot: Int) { table.leave(slot) }

    func report(_ failure: ScopeFailure) {
        state.withLock { state in
            state.failureCount += 1
            if state.failures.count == Self.failureHistory { state.failures.removeFirst() }
            state.failures.append(failure)
        }
    }

    /// A scope was released while in flight.
    func leaked(_ summary: ScopeSummary, slot: Int?) {
        if let slot { leave(slot) }
        let failure = ScopeFailure(
            scope: summary,
            event: .end,
            action: nil,
            error: ScopeError(.leaked, scope: summary, event: .end, state: summary.state),
            isolated: false
        )
        report(failure)
    }
}

extension ScopeRegistry.State {
    /// The actions of `kind`, cached.
    fileprivate mutating func actions(for kind: ScopeKind) -> ContiguousArray<ScopeRegistry.InstalledAction> {
        if let cached = byKind[kind] { return cached }
        let selected = ContiguousArray(actions.filter { $0.kinds.contains(kind) })
        byKind[kind] = selected
        return selected
    }
}

extension LifecycleContext {
    /// The scopes of this context's host, if its manifest has scopes.
    public var scopes: ScopeRegistry? { launchOptions[ScopesKey.self] }
}

extension ApplicationHost {
    /// The host's scopes, if its manifest has scopes (`ModuleManifest.withScopes(actions:endBudget:)`).
    public nonisolated var scopes: ScopeRegistry? { context.launchOptions[ScopesKey.self] }
}

/// Where a host keeps its scope registry: in its launch options, set when the host is built.
enum ScopesKey: LaunchOptionKey {
    static let defaultValue: ScopeRegistry? = nil
}
