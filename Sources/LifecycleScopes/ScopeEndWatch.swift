import LifecycleCore

/// The ends of a registry's scopes that run under a budget, watched on the host's watchdog: the target
/// their deadlines are armed with, so that watching an end allocates nothing (a closure would, per end).
/// Past its budget, an end is taken over in a task of its own (``Scope/takeOverEnd()``), so one stuck end
/// never delays another.
///
/// Ends are kept by scope id, in shards like ``ScopeTable``'s, so ends on different threads rarely share a
/// lock; an id is never reused, so a deadline that passes as its end finishes cannot reach another scope.
final class ScopeEndWatch: DeadlineTarget, Sendable {
    private final class Shard: Sendable {
        let ends = Locked<[UInt64: Scope]>([:])
    }

    private static let shardCount = 16
    private let shards = (0..<shardCount).map { _ in Shard() }

    private func shard(_ id: ScopeID) -> Shard { shards[Int(id.rawValue % UInt64(Self.shardCount))] }

    /// Watches the end of `scope`, which must finish within `budget` on `watchdog`'s clock.
    func watch(_ scope: Scope, budget: Duration, on watchdog: HostWatchdog) -> HostWatchdog.Token {
        shard(scope.id).ends.withLock { $0[scope.id.rawValue] = scope }
        return watchdog.arm(after: budget, self, tag: Int(truncatingIfNeeded: scope.id.rawValue))
    }

    /// The end of `scope`, watched with `token`, finished.
    func unwatch(_ scope: Scope, _ token: HostWatchdog.Token, on watchdog: HostWatchdog) {
        watchdog.disarm(token)
        shard(scope.id).ends.withLock { _ = $0.removeValue(forKey: scope.id.rawValue) }
    }

    func deadlinePassed(_ tag: Int, at now: HostClock.Instant) -> HostClock.Instant? {
        let id = ScopeID(UInt64(truncatingIfNeeded: tag))
        guard let scope = shard(id).ends.withLock({ $0.removeValue(forKey: id.rawValue) }) else { return nil }
        Task.detached { await scope.takeOverEnd() }
        return nil
    }
}
