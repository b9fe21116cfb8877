import LifecycleCore

/// The scopes of a registry that are in flight, by slot, in shards: a scope's slot is in the shard its id
/// picks, so scopes begun and ended on different threads rarely take the same lock. A slot is reused once
/// its scope has ended.
struct ScopeTable: Sendable {
    private struct Slots: Sendable {
        var slots: [ScopeSummary?] = []
        var free: [Int] = []
    }

    /// One shard: a lock of its own, on a line of its own.
    private final class Shard: Sendable {
        let slots = Locked(Slots())
    }

    private static let shardCount = 16
    private let shards: [Shard]

    init() {
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Lists `summary`; returns its slot.
    func enter(_ summary: ScopeSummary) -> Int {
        let shard = Int(summary.id.rawValue % UInt64(Self.shardCount))
        let index = shards[shard].slots.withLock { shard in
            if let index = shard.free.popLast() {
                shard.slots[index] = summary
                return index
            }
            shard.slots.append(summary)
            return shard.slots.count - 1
        }
        return index * Self.shardCount + shard
    }

    func update(_ slot: Int, to state: ScopeState) {
        shards[slot % Self.shardCount].slots.withLock { $0.slots[slot / Self.shardCount]?.state = state }
    }

    func leave(_ slot: Int) {
        shards[slot % Self.shardCount].slots.withLock { shard in
            shard.slots[slot / Self.shardCount] = nil
            shard.free.append(slot / Self.shardCount)
        }
    }

    /// Every scope in flight, of `kind` or of every kind, oldest first.
    func list(_ kind: ScopeKind?) -> [ScopeSummary] {
        var listed: [ScopeSummary] = []
        for shard in shards.indices {
            shards[shard].slots.withLock { shard in
                for case let summary? in shard.slots where kind == nil || summary.kind == kind {
                    listed.append(summary)
                }
            }
        }
        return listed.sorted { $0.id < $1.id }
    }
}
