public import LifecycleCore
import Synchronization

/// One request, session, job, or scope of your own kind, with its own small lifecycle (``ScopeState``):
/// it begins, is active or inactive, and ends. Global actions (``ScopeAction``) and what it adopts
/// (``ScopeBehavior``s and closures) receive its events.
///
/// Make scopes with a host's ``ScopeRegistry`` (`host.scopes`, `context.scopes`). `withScope` runs a body in
/// a scope that is begun, active, and the task's ``current`` scope, and ends it however the body returns:
///
/// ```swift
/// try await scopes.withScope(.request, "GET /reports", adopting: Timing(), Auditing()) { scope in
///     try await handle(request)
/// }
/// ```
///
/// A long-lived scope takes its steps by hand, from one task at a time:
///
/// ```swift
/// let session = try await scopes.begin(.session, "alice")
/// try await session.activate()
/// …
/// try await session.end()
/// ```
public final class Scope: Sendable, Identifiable, CustomStringConvertible {
    /// Unique within its registry, increasing in the order scopes were made.
    public let id: ScopeID
    /// What the scope is for.
    public let kind: ScopeKind
    /// Its name, as given.
    public let name: String
    /// The scope it is nested in: by default, the ``current`` scope of the task that made it.
    public let parent: Scope?
    /// When it was made.
    public var made: ContinuousClock.Instant { ScopeClock.epoch + madeOffset }
    private let madeOffset: Duration
    /// How long its end may take before the registry's watchdog delivers the rest of it without waiting;
    /// `nil` for no limit.
    public let endBudget: Duration?

    let registry: ScopeRegistry
    /// The global actions of its kind, in delivery order: positions `0 ..< actions.count`.
    let actions: ContiguousArray<ScopeRegistry.InstalledAction>
    let observer: (any ScopeObserver)?
    /// The next step of its end to claim; `Int.max` once the end is finished or taken over.
    private let cursor = Atomic<Int>(0)
    let core: Locked<Core>

    /// What changes: read and written under the lock.
    struct Core: Sendable {
        var state: ScopeState = .idle
        /// The step running, or catch-up of an adoption; `nil` when the scope is settled.
        var busy: Busy?
        var adoptions = Adoptions()
        /// Adopted while the scope was busy: caught up when the step finishes.
        var pending: [any AdoptionBox] = []
        /// Steps waiting for a catch-up to finish.
        var waiters: [CheckedContinuation<Void, Never>] = []
        var activations = 0
        var failures: [ScopeFailure] = []
        /// Its place in the registry's list, while in flight.
        var slot: Int?
        /// The end in progress, for the watchdog.
        var ending: Ending?
        /// Scoped values, and what to do with each at the end, in the order they were stored.
        var values: [ObjectIdentifier: any Sendable] = [:]
        var cleanups: [Cleanup] = []
    }

    enum Busy: Sendable, Equatable {
        case step(ScopeEvent)
        case catchingUp
    }

    /// An end in progress: what each traversal of it delivers.
    struct Ending: Sendable {
        let deactivateLimit: Int
        let endLimit: Int
        let adoptions: Adoptions
        let cleanups: [Cleanup]
    }

    /// Something stored in the scope that must be released at its end, after its end actions.
    struct Cleanup: Sendable {
        let name: String
        let run: @Sendable () async throws -> Void
    }

    init(
        id: ScopeID,
        kind: ScopeKind,
        name: String,
        parent: Scope?,
        endBudget: Duration?,
        registry: ScopeRegistry,
        actions: ContiguousArray<ScopeRegistry.InstalledAction>,
        observer: (any ScopeObserver)?
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.parent = parent
        self.endBudget = endBudget
        self.registry = registry
        self.actions = actions
        self.observer = observer
        madeOffset = ScopeClock.now
        core = Locked(Core())
    }

    deinit {
        let (state, slot) = core.withLock { ($0.state, $0.slot) }
        guard state == .inactive || state == .active else { return }
        registry.leaked(summary(state: state), slot: slot)
    }

    /// The scope nested in by the running task: the innermost `withScope` or ``withCurrent(isolation:_:)``.
    public static var current: Scope? { ScopeStack.current }

    /// Runs `body` with this scope as the task's ``current`` scope, and scopes made in it nested in this one.
    public func withCurrent<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        try await ScopeStack.$current.withValue(self, operation: body, isolation: isolation)
    }

    /// Where it is in its lifecycle.
    public var state: ScopeState { core.withLock { $0.state } }

    /// How many times it has become active; 1 during its first activation.
    public var activations: Int { core.withLock { $0.activations } }

    /// What failed in it so far, isolated or not, in order.
    public var failures: [ScopeFailure] { core.withLock { $0.failures } }

    /// Its ancestors, innermost first.
    public var ancestors: [Scope] {
        var result: [Scope] = []
        var next = parent
        while let scope = next {
            result.append(scope)
            next = scope.parent
        }
        return result
    }

    /// The summary a registry lists.
    public var summary: ScopeSummary { summary(state: state) }

    func summary(state: ScopeState) -> ScopeSummary {
        ScopeSummary(id: id, kind: kind, name: name, parent: parent?.id, state: state, madeOffset: madeOffset)
    }

    public var description: String { summary.description }

    // MARK: Adoption

    /// Adopts `behavior`s, which then receive the scope's events after the global actions and the
    /// adoptions before them: forward events in the order listed, teardown in reverse.
    ///
    /// A scope that has begun catches them up first: they receive `begin`, and `activate` if the scope is
    /// active, as a late observer does in Jetpack Lifecycle. If the scope is taking a step, they join when
    /// the step is done. A scope that has ended gives them nothing. Failures while catching up are
    /// reported and isolated, whatever the behavior's policy.
    @discardableResult
    @inlinable
    public func adopt<each B: ScopeBehavior>(_ behavior: repeat each B) async -> ScopeAdoption {
        let box = BehaviorAdoption.make(owner: self, repeat each behavior)
        await attach(box)
        return ScopeAdoption(box: box)
    }

    /// Adopts a closure that runs at each `event` of the scope, after the adoptions before it, caught up as
    /// ``adopt(_:)`` catches up behaviors. `label` names it in failures; by default, where it was added.
    @discardableResult
    public func on(
        _ event: ScopeEvent,
        _ label: String? = nil,
        failurePolicy: ModuleFailurePolicy = .isolate,
        file: String = #fileID,
        line: Int = #line,
        perform body: @escaping @Sendable (Scope) async throws -> Void
    ) async -> ScopeAdoption {
        let box = ClosureAdoption(
            owner: self,
            event: event,
            once: false,
            label: label ?? "closure at \(file):\(line)",
            policy: failurePolicy,
            body: body
        )
        await attach(box)
        return ScopeAdoption(box: box)
    }

    /// Adopts a once-action: it runs exactly once, at the first activation it sees (at once if the scope is
    /// active when it is added), then removes itself, even when activations and additions race.
    @discardableResult
    public func once(
        _ label: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        perform body: @escaping @Sendable (Scope) async throws -> Void
    ) async -> ScopeAdoption {
        let box = ClosureAdoption(
            owner: self,
            event: .activate,
            once: true,
            label: label ?? "once-action at \(file):\(line)",
            policy: .isolate,
            body: body
        )
        await attach(box)
        return ScopeAdoption(box: box)
    }

    /// Removes an adoption: no delivery that starts after this returns reaches it. Removing twice, or an
    /// adoption of another scope, does nothing.
    public func remove(_ adoption: ScopeAdoption) {
        guard adoption.box.owner == ObjectIdentifier(self) else { return }
        adoption.box.markRemoved()
        core.withLock { core in
            core.adoptions.remove(adoption.box)
            core.pending.removeAll { $0 === adoption.box }
        }
    }

    /// Adds `box` to an idle scope, which has delivered nothing yet: no catch-up. For `withScope`.
    @usableFromInline
    func attachBeforeBegin(_ box: any AdoptionBox) {
        core.withLock { $0.adoptions.append(box) }
    }

    @usableFromInline
    func attach(_ box: any AdoptionBox) async {
        let catchUp: ScopeState? = core.withLock { core in
            if core.busy != nil {
                core.pending.append(box)
                return nil
            }
            switch core.state {
            case .idle:
                core.adoptions.append(box)
                return nil
            case .ended:
                return nil
            case .inactive, .active:
                core.busy = .catchingUp
                return core.state
            }
        }
        guard let catchUp else { return }
        await self.catchUp(box, to: catchUp)
        await settle(catchUp, adding: [box], failures: [])
    }

    /// Delivers to `box` the events that bring it to `state`.
    ///
    /// The deliveries run with this scope marked as being caught up in the task, so that a hook of theirs
    /// that asks for a step of this scope is refused instead of waiting for itself.
    func catchUp(_ box: any AdoptionBox, to state: ScopeState) async {
        let failures = await ScopeStack.$catchingUp.withValue(ObjectIdentifier(self)) {
            var run = DeliveryRun(.begin, observer: observer)
            run.isolatesAll = true
            await box.deliver(.begin, to: self, base: 0, run: &run)
            if state == .active {
                run.event = .activate
                await box.deliver(.activate, to: self, base: 0, run: &run)
            }
            return run.failures
        }
        record(failures)
    }

    // MARK: Values, for scoped services

    /// The context of the scope's host, while the host exists.
    package var hostContext: LifecycleContext? { registry.hostContext }

    /// The value stored under `key`, if any.
    package func storedValue(for key: ObjectIdentifier) -> (any Sendable)? {
        core.withLock { $0.values[key] }
    }

    /// Stores `value` under `key` unless a value is there already, and returns the one that stays, or `nil`
    /// when the scope has ended (nothing can be stored then). `cleanup`, if given, runs at the scope's end,
    /// after its end actions, in the reverse order of storing; a throw is reported as a failure of `name`.
    package func store(
        _ value: any Sendable,
        for key: ObjectIdentifier,
        name: String,
        cleanup: (@Sendable () async throws -> Void)?
    ) -> (value: any Sendable, stored: Bool)? {
        core.withLock { core in
            if core.state == .ended || core.ending != nil { return nil }
            if let existing = core.values[key] { return (existing, false) }
            core.values[key] = value
            if let cleanup { core.cleanups.append(Cleanup(name: name, run: cleanup)) }
            return (value, true)
        }
    }

    // MARK: The end's steps

    /// Claims step `step` of the end, unless the watchdog has taken the rest.
    func claimStep(_ step: Int) -> Bool {
        cursor.compareExchange(expected: step, desired: step + 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// Marks the end finished after `steps` steps; `false` when the watchdog has taken it over.
    func finishSteps(_ steps: Int) -> Bool {
        cursor.compareExchange(expected: steps, desired: .max, ordering: .acquiringAndReleasing).exchanged
    }

    /// Whether the watchdog took over the end (or the end has finished).
    var isEndTakenOver: Bool { cursor.load(ordering: .acquiring) == .max }

    /// Takes every step of the end not claimed yet; returns the first, or `nil` when the end has finished.
    func takeRemainingSteps() -> Int? {
        let first = cursor.exchange(.max, ordering: .acquiringAndReleasing)
        return first == .max ? nil : first
    }

    /// Keeps `failures` in the scope and reports them to the registry.
    func record(_ failures: [ScopeFailure]) {
        guard !failures.isEmpty else { return }
        core.withLock { $0.failures.append(contentsOf: failures) }
        for failure in failures { registry.report(failure) }
    }
}

/// The task's current scope.
enum ScopeStack {
    @TaskLocal static var current: Scope?
    /// The scope whose late adoption the task is catching up, if any.
    @TaskLocal static var catchingUp: ObjectIdentifier?
}
