public import Synchronization

/// Counts hook calls, so every benchmarked hook has an effect the optimizer cannot remove and the harness
/// can check that one repetition reached every module.
///
/// Every system's participants do exactly this work per call: the concrete-class limit, the
/// existentials, the async hooks, the NotificationCenter observers and the proxy's modules.
///
/// The count is a relaxed load and store, not an atomic increment: on x86-64 that is a plain load and
/// store (about a nanosecond), where `wrappingAdd` would be a locked instruction several times dearer
/// than the dispatch being measured. The harness delivers one event at a time, so checked counts are
/// exact; hooks that run concurrently (warm-up) may lose counts, and nothing checks those.
public enum HookTally {
    @usableFromInline static let calls = Atomic<Int>(0)

    /// Records one hook call.
    @inlinable
    public static func tick() {
        calls.store(calls.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// The hook calls since the last ``reset()``.
    public static var count: Int { calls.load(ordering: .relaxed) }

    /// Sets the count to zero.
    public static func reset() { calls.store(0, ordering: .relaxed) }
}
