/// The participants' hooks, gathered per event: what the delegate proxy fans events out with.
///
/// The proxy sets the position to each participant in turn and adds its hooks. A generated manifest adds
/// a module's hooks without asking the runtime: its code hands the module, as its concrete type, to the
/// method of each capability the discovery plugin read from the source, so the compiler checks every
/// claim (see ``DeclaredModule``). Where the module's own hook is not `async`, it also hands over a
/// synchronous closure that calls that function, and the proxy calls it without an `await`; the compiler
/// rejects the closure if the function is `async`. For the program's delegate, and for modules listed by
/// hand, the proxy adds the hooks with runtime casts instead, and awaits them unless the participant adopts
/// a deprecated `Sync…` protocol.
///
/// ```swift
/// DeclaredModule(CacheModule.self) { module, hooks in
///     let module = module as! CacheModule
///     hooks.didBecomeActive(module, synchronously: { module.didBecomeActive($0) })
///     hooks.willTerminate(module)
/// }
/// ```
public struct ModuleHooks: Sendable {
    /// The position of the participant whose hooks are being added.
    package var position = 0

    /// Each built-in event's implementers gathered so far. `ModuleHooks+Events.swift`, generated from the event
    /// table, holds each event's registration methods.
    package internal(set) var builtins = BuiltinHookLists()
    package private(set) var customEventHandlers: [(position: Int, handler: any CustomEventHandling)] = []

    package init() {}

    /// The participant handles custom events (``CustomEventHandling``).
    public mutating func customEvents(_ handler: any CustomEventHandling) {
        guard customEventHandlers.last?.position != position else { return }
        customEventHandlers.append((position, handler))
    }

    /// Adds the hooks of `participant` by asking the runtime whether it conforms to each capability
    /// protocol: the path for the program's delegate and for modules without a declaration. Each cast that
    /// fails scans the conformance records of the process, once per type and protocol. The asynchronous
    /// protocol is asked first: the deprecated synchronous one refines it, so a participant that does not
    /// handle an event costs one check, not two. The runtime cannot tell that a function is synchronous, so
    /// only a participant that adopts a deprecated `Sync…` protocol is called without an `await` here.
    package mutating func add(casting participant: any Sendable) {
        addBuiltins(casting: participant)
        if let handler = participant as? any CustomEventHandling { customEvents(handler) }
    }

    /// What the participant at `position` handles, and in which form, one line per event:
    /// `"didBecomeActive (sync)"`, for a synchronous function or the deprecated synchronous protocol alike.
    package func shape(at position: Int) -> [String] {
        var lines = builtins.shape(at: position)
        if customEventHandlers.contains(where: { $0.position == position }) { lines.append("custom events") }
        return lines
    }
}
