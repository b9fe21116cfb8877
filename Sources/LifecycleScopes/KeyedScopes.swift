import LifecycleCore

/// Long-lived scopes by key, bounded: a session per session id, a connection per peer, a job per tenant.
/// The first use of a key makes its scope, begins and activates it; later uses of the key share it. The
/// table never holds more than ``capacity`` scopes, and ends a scope that nobody used for ``idleTimeout``,
/// so input from outside the program (a header, a cookie) cannot make it grow without bound.
///
/// ```swift
/// let sessions = try KeyedScopes<String>(.session, in: scopes, capacity: 1_000, idleTimeout: .seconds(600))
/// let answer = try await sessions.withScope("alice") { session in
///     try await scopes.withScope(.request, "GET /cart", parent: session) { _ in try await cart.render() }
/// }
/// ```
///
/// The rules:
/// - **In use is never ended.** A scope is in use from the moment a ``withScope(_:isolation:_:)`` call
///   asks for it until its body returns or throws. Neither the idle timeout nor the capacity ends a scope
///   in use; its idle time starts when its last use finishes.
/// - **Idle expiry.** A scope idle for ``idleTimeout`` is ended, on the host's clock (a test's
///   `VirtualClock` too), by a deadline on the host's watchdog, and also by the next use of the table.
/// - **The capacity.** When a new key arrives and the table is full, the least recently used idle scope
///   is ended to make room. If every scope is in use, the new key is refused with
///   ``KeyedScopesError/Code/full``: the table never holds more than ``capacity`` scopes.
/// - **Ending is ending.** An evicted or expired scope ends as any other (``Scope/end()``): its end actions,
///   its adoptions' end hooks and its scoped services' cleanups run, within its end budget. A later use of
///   the same key makes a new scope.
///
/// Safe to use from any number of tasks at once. Concurrent first uses of one key share one opening: the
/// scope begins once.
public final class KeyedScopes<Key: Hashable & Sendable>: Sendable {
    /// The ``capacity`` of a table that does not choose one: 10,000 scopes. At the 3.8 KiB a session of the
    /// Hummingbird example costs, about 38 MiB at most: room for every live user of a modest server, and a
    /// ceiling a flood of made-up keys cannot lift.
    public static var defaultCapacity: Int { 10_000 }
    /// The ``idleTimeout`` of a table that does not choose one: 30 minutes, the longest idle time OWASP's
    /// session guidance suggests for an ordinary application.
    public static var defaultIdleTimeout: Duration { .seconds(30 * 60) }

    /// The kind of the scopes made; each is named after its key (`"\(key)"`).
    public let kind: ScopeKind
    /// The most scopes the table holds at once, in use or idle.
    public let capacity: Int
    /// How long a scope may go unused before it is ended.
    public let idleTimeout: Duration

    private let registry: ScopeRegistry
    private let preparing: (@Sendable (Scope) async -> Void)?
    private let state = Locked(State())

    /// A key's scope: its opening, how many uses hold it, and its place in the list of idle scopes.
    fileprivate struct Entry: Sendable {
        /// Makes, prepares, begins and activates the scope, once; its result is shared by every use.
        let opening: Task<Result<Scope, ScopeError>, Never>
        var uses = 0
        /// When its last use finished.
        var idleSince: HostClock.Instant
        /// Its neighbours in the idle list, least recently used first; only while idle.
        var older: Key?
        var newer: Key?
        /// Its opening failed: it leaves the table when its last use lets go.
        var failed = false
    }

    fileprivate struct State: Sendable {
        var entries: [Key: Entry] = [:]
        /// The idle list's ends: the least recently used idle scope, and the most recently used.
        var oldestIdle: Key?
        var newestIdle: Key?
        var closed = false
        /// A deadline on the watchdog for the oldest idle scope's expiry is armed.
        var timerArmed = false
        var timer: (token: HostWatchdog.Token, watchdog: HostWatchdog)?
        /// The ends of expired scopes in progress, in tasks of their own: ``endAll()`` waits for them.
        var expiring: [UInt64: Task<Void, Never>] = [:]
        var nextExpiring: UInt64 = 0
    }

    /// A table of scopes of `kind` in `registry` (`host.scopes`, `context.scopes`).
    ///
    /// - Parameters:
    ///   - kind: The kind of the scopes; they receive the global actions of this kind.
    ///   - registry: Where the scopes are made; its host's clock times the idle timeout.
    ///   - capacity: The most scopes held at once; at least 1. ``defaultCapacity`` by default.
    ///   - idleTimeout: How long a scope may go unused before it is ended; more than zero.
    ///     ``defaultIdleTimeout`` by default.
    ///   - prepare: Runs on each new scope before it begins, to adopt behaviors or once-actions: what it
    ///     adopts sees the scope's first events.
    /// - Throws: ``KeyedScopesError`` with ``KeyedScopesError/Code/invalidCapacity`` or
    ///   ``KeyedScopesError/Code/invalidIdleTimeout``.
    public init(
        _ kind: ScopeKind,
        in registry: ScopeRegistry,
        capacity: Int = defaultCapacity,
        idleTimeout: Duration = defaultIdleTimeout,
        prepare: (@Sendable (Scope) async -> Void)? = nil
    ) throws(KeyedScopesError) {
        guard capacity >= 1 else {
            throw KeyedScopesError(.invalidCapacity, kind: kind, key: nil, capacity: capacity)
        }
        guard idleTimeout > .zero else {
            throw KeyedScopesError(.invalidIdleTimeout, kind: kind, key: nil, idleTimeout: idleTimeout)
        }
        self.kind = kind
        self.registry = registry
        self.capacity = capacity
        self.idleTimeout = idleTimeout
        self.preparing = prepare
    }

    deinit {
        if let timer = state.withLock({ $0.timer }) { timer.watchdog.disarm(timer.token) }
    }

    /// How many scopes the table holds, in use or idle.
    public var count: Int { state.withLock { $0.entries.count } }

    /// How many of them are in use.
    public var inUse: Int { state.withLock { $0.entries.values.count(where: { $0.uses > 0 }) } }

    /// Runs `body` with the scope of `key`, begun and active: made on the key's first use, shared with its
    /// other uses, and never ended while `body` runs. The scope is not made the task's current scope: pass
    /// it as the `parent` of the scopes `body` makes.
    ///
    /// Idle scopes past their timeout are ended first, and, when `key` is new and the table is full, the
    /// least recently used idle scope: in this task, before `body` runs.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: A ``KeyedScopesError`` when there is no scope for `key` (then `body` does not run): the
    ///   table is full of scopes in use, has been closed by ``endAll()``, or the scope could not begin or
    ///   activate. Otherwise what `body` throws.
    public func withScope<R>(
        _ key: Key,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Scope) async throws -> R
    ) async throws -> R {
        let watchdog = registry.watchdog
        let (opening, evicted) = try acquire(key, now: watchdog.clock.now)
        await Self.end(evicted)
        let scope: Scope
        switch await opening.value {
        case .success(let opened):
            scope = opened
        case .failure(let error):
            await release(key, failed: true)
            throw KeyedScopesError(.openFailed, kind: kind, key: "\(key)", underlying: error)
        }
        let result: R
        do {
            result = try await body(scope)
        } catch {
            await release(key, failed: false)
            throw error
        }
        await release(key, failed: false)
        return result
    }

    /// Closes the table and ends its idle scopes, oldest first; a scope in use ends when its last use
    /// finishes. No scope opens afterwards: ``withScope(_:isolation:_:)`` throws
    /// ``KeyedScopesError/Code/closed``. For the host's termination, once requests have stopped.
    ///
    /// - Returns: How many scopes this call ended.
    @discardableResult
    public func endAll() async -> Int {
        let (idle, timer, expiring) = state.withLock { state in
            state.closed = true
            var idle: [Task<Result<Scope, ScopeError>, Never>] = []
            while let oldest = state.oldestIdle {
                idle.append(state.unlink(oldest).opening)
                state.entries[oldest] = nil
            }
            defer { state.timer = nil }
            return (idle, state.timer, Array(state.expiring.values))
        }
        if let timer { timer.watchdog.disarm(timer.token) }
        for ending in expiring { await ending.value }
        return await Self.end(idle)
    }

    // MARK: Taking and letting go

    /// Takes a use of `key`'s entry, making it if new; returns its opening, and the scopes to end first.
    private func acquire(
        _ key: Key,
        now: HostClock.Instant
    ) throws(KeyedScopesError) -> (Task<Result<Scope, ScopeError>, Never>, [Task<Result<Scope, ScopeError>, Never>]) {
        let taken:
            Result<(Task<Result<Scope, ScopeError>, Never>, [Task<Result<Scope, ScopeError>, Never>]), KeyedScopesError> =
                state.withLock { state in
                    if state.closed {
                        return .failure(KeyedScopesError(.closed, kind: kind, key: "\(key)"))
                    }
                    var evicted = state.expire(before: now.advanced(by: .zero - idleTimeout))
                    if var entry = state.entries[key] {
                        if entry.uses == 0 { entry = state.unlink(key) }
                        entry.uses += 1
                        state.entries[key] = entry
                        return .success((entry.opening, evicted))
                    }
                    if state.entries.count >= capacity {
                        guard let oldest = state.oldestIdle else {
                            return .failure(KeyedScopesError(.full, kind: kind, key: "\(key)", capacity: capacity))
                        }
                        evicted.append(state.unlink(oldest).opening)
                        state.entries[oldest] = nil
                    }
                    let opening = Task { [registry, kind, preparing] in
                        await Self.open(key, kind: kind, in: registry, prepare: preparing)
                    }
                    state.entries[key] = Entry(opening: opening, uses: 1, idleSince: now)
                    return .success((opening, evicted))
                }
        return try taken.get()
    }

    /// Lets go of a use of `key`; the last use of a scope makes it idle, or ends it if the table is closed,
    /// or removes it if its opening failed.
    private func release(_ key: Key, failed: Bool) async {
        let watchdog = registry.watchdog
        let now = watchdog.clock.now
        let (ending, arm): (Task<Result<Scope, ScopeError>, Never>?, Bool) = state.withLock { state in
            guard var entry = state.entries[key] else { return (nil, false) }
            entry.uses -= 1
            if failed { entry.failed = true }
            guard entry.uses == 0 else {
                state.entries[key] = entry
                return (nil, false)
            }
            if entry.failed {
                state.entries[key] = nil
                return (nil, false)
            }
            if state.closed {
                state.entries[key] = nil
                return (entry.opening, false)
            }
            entry.idleSince = now
            state.entries[key] = entry
            state.appendIdle(key)
            guard !state.timerArmed else { return (nil, false) }
            state.timerArmed = true
            return (nil, true)
        }
        if arm { armTimer(on: watchdog) }
        if let ending { await Self.end([ending]) }
    }

    /// Arms the deadline of the oldest idle scope's expiry; at it, ends what expired and arms the next.
    private func armTimer(on watchdog: HostWatchdog) {
        let token = watchdog.arm(after: idleTimeout) { [weak self] now in
            guard let self else { return nil }
            return state.withLock { state in
                let expired = state.expire(before: now.advanced(by: .zero - idleTimeout))
                if !expired.isEmpty {
                    // Ended in a task of their own: a deadline's callback must not wait.
                    let id = state.nextExpiring
                    state.nextExpiring += 1
                    state.expiring[id] = Task { [weak self] in
                        await Self.end(expired)
                        _ = self?.state.withLock { $0.expiring.removeValue(forKey: id) }
                    }
                }
                guard let oldest = state.oldestIdle, let entry = state.entries[oldest], !state.closed else {
                    state.timerArmed = false
                    return nil
                }
                return entry.idleSince.advanced(by: idleTimeout)
            }
        }
        state.withLock { $0.timer = (token, watchdog) }
    }

    // MARK: Opening and ending

    private static func open(
        _ key: Key,
        kind: ScopeKind,
        in registry: ScopeRegistry,
        prepare: (@Sendable (Scope) async -> Void)?
    ) async -> Result<Scope, ScopeError> {
        let scope = registry.scope(kind, "\(key)", parent: nil)
        await prepare?(scope)
        do {
            try await scope.begin()
            try await scope.activate()
            return .success(scope)
        } catch {
            if scope.state != .ended { try? await scope.end() }
            return .failure(error)
        }
    }

    /// Ends the scopes of `openings`, in order; returns how many ended. A failure of an end is in the scope's
    /// failures and its registry's.
    @discardableResult
    private static func end(_ openings: [Task<Result<Scope, ScopeError>, Never>]) async -> Int {
        var ended = 0
        for opening in openings {
            guard case .success(let scope) = await opening.value else { continue }
            try? await scope.end()
            ended += 1
        }
        return ended
    }
}

extension KeyedScopes.State {
    /// Takes `key`'s entry off the idle list and returns it.
    fileprivate mutating func unlink(_ key: Key) -> KeyedScopes.Entry {
        var entry = entries[key]!
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldestIdle = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newestIdle = entry.older }
        entry.older = nil
        entry.newer = nil
        entries[key] = entry
        return entry
    }

    /// Puts `key`'s entry at the most recently used end of the idle list.
    fileprivate mutating func appendIdle(_ key: Key) {
        entries[key]?.older = newestIdle
        entries[key]?.newer = nil
        if let newest = newestIdle { entries[newest]?.newer = key } else { oldestIdle = key }
        newestIdle = key
    }

    /// Removes the idle entries that were idle since before `cutoff`; returns their openings, oldest first.
    fileprivate mutating func expire(before cutoff: HostClock.Instant) -> [Task<Result<Scope, ScopeError>, Never>] {
        var expired: [Task<Result<Scope, ScopeError>, Never>] = []
        while let oldest = oldestIdle, let entry = entries[oldest], entry.idleSince <= cutoff {
            expired.append(unlink(oldest).opening)
            entries[oldest] = nil
        }
        return expired
    }
}
