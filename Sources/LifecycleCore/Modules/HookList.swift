/// The implementers of one event gathered so far, in the order their participants were added: each
/// one's position (its index among the participants), its form, and its hook in one of two arrays.
package struct HookList<Hook: Sendable, SyncHook: Sendable>: Sendable {
    /// The participant position of each implementer.
    package private(set) var positions: [Int] = []
    /// Whether each implementer adopted the synchronous form.
    package private(set) var isSync: [Bool] = []
    /// The asynchronous implementers' hooks, in order.
    package private(set) var hooks: [Hook] = []
    /// The synchronous implementers' hooks, in order.
    package private(set) var syncHooks: [SyncHook] = []

    package init() {}

    mutating func append(_ hook: Hook, at position: Int) {
        guard positions.last != position else { return }  // one hook per participant and event
        positions.append(position)
        isSync.append(false)
        hooks.append(hook)
    }

    mutating func append(sync hook: SyncHook, at position: Int) {
        guard positions.last != position else { return }
        positions.append(position)
        isSync.append(true)
        syncHooks.append(hook)
    }

    /// `"event (sync)"` or `"event (async)"` for the implementer at `position`, if there is one.
    func shape(_ event: String, at position: Int) -> String? {
        guard let index = positions.lastIndex(of: position) else { return nil }
        return "\(event) (\(isSync[index] ? "sync" : "async"))"
    }
}
