/// The implementers of one event gathered so far, in the order their participants were added: each
/// one's position (its index among the participants), its form, and its hook in one of three arrays, one per
/// ``HookForm``. A registered synchronous function is kept in an object of its own (`DidBecomeActiveFunction`),
/// which the proxy calls through without reference counting.
package struct HookList<Hook: Sendable, SyncHook: Sendable, Function: AnyObject & Sendable>: Sendable {
    /// The participant position of each implementer.
    package private(set) var positions: [Int] = []
    /// How each implementer is called.
    package private(set) var forms: [HookForm] = []
    /// The asynchronous implementers' hooks, in order.
    package private(set) var hooks: [Hook] = []
    /// The hooks of the implementers that adopted the deprecated synchronous protocol, in order.
    package private(set) var syncHooks: [SyncHook] = []
    /// The synchronous functions registered for the other synchronous implementers, each in its object, in
    /// order.
    package private(set) var functions: [Function] = []

    package init() {}

    mutating func append(_ hook: Hook, at position: Int) {
        guard add(.async, at: position) else { return }
        hooks.append(hook)
    }

    mutating func append(sync hook: SyncHook, at position: Int) {
        guard add(.syncProtocol, at: position) else { return }
        syncHooks.append(hook)
    }

    mutating func append(function: Function, at position: Int) {
        guard add(.function, at: position) else { return }
        functions.append(function)
    }

    /// Records an implementer at `position`, unless it is there already: one hook per participant and event.
    private mutating func add(_ form: HookForm, at position: Int) -> Bool {
        guard positions.last != position else { return false }
        positions.append(position)
        forms.append(form)
        return true
    }

    /// `"event (sync)"` or `"event (async)"` for the implementer at `position`, if there is one.
    func shape(_ event: String, at position: Int) -> String? {
        guard let index = positions.lastIndex(of: position) else { return nil }
        return "\(event) (\(forms[index].isSync ? "sync" : "async"))"
    }
}

/// The function type of an event whose hook cannot be synchronous (warm-up): never created.
package final class NoFunction: Sendable {
    private init() {}
}
