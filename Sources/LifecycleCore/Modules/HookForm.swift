/// How the delegate proxy calls one implementer of an event. Delivery order, results and failures do not
/// depend on it; only the cost of the call does.
package enum HookForm: UInt8, Sendable {
    /// Awaited, through the event's capability protocol.
    case async
    /// Called without an `await`, through the deprecated `Sync…` protocol the participant adopts: how a
    /// runtime cast tells that a hook is synchronous.
    case syncProtocol
    /// Called without an `await`: a synchronous function the generated manifest registered
    /// (`ModuleHooks.<event>(_:synchronously:)`), which calls the module's own non-`async` hook.
    case function

    /// Whether the hook is called without an `await`.
    package var isSync: Bool { self != .async }
}
