/// Where the test kit can inject a fault: a participant's hook or handler for an event, a handler of a
/// message or a route, or an attempt of a module's work.
package enum FaultSite: Sendable, Hashable {
    /// A hook of a built-in event, or a handler of a custom event.
    case hook(LifecycleEvent)
    /// A module's handler of a message or a route: `message Ping`, `route ShowItem`. Asked by the wrapper
    /// the messaging and routing preparations put around each handler when the host injects faults.
    case handler(String)
    /// An attempt of the work of this name.
    case work(String)
}

/// A fault that replaces a call: the call is not made, and this happens instead.
@usableFromInline
package enum InjectedFault: Sendable {
    /// The call throws this error.
    case failure(any Error)
    /// The call never returns by itself: it waits until its task is cancelled, as a hook stuck on a
    /// dependency does, then calls `ended` and throws `CancellationError`.
    case hang(ended: @Sendable () -> Void)

    /// Does what the fault says, in place of the call.
    @usableFromInline
    package func strike() async throws -> Never {
        switch self {
        case .failure(let error):
            throw error
        case .hang(let ended):
            let waiting = OneShot<Void>()
            await waiting.value(orOnCancel: {})
            ended()
            throw CancellationError()
        }
    }
}

/// The seam through which `LifecycleTesting`'s random lifecycles inject faults: asked before every hook,
/// handler (of an event, a message or a route) and work attempt, in a host configured with one
/// (``ApplicationHost/Configuration/faultInjection``).
///
/// Not API: a production host has none, and then pays nothing. A host with one supervises every delivery, so
/// a hanging hook is abandoned at its budget like a real one.
package struct FaultInjection: Sendable {
    /// The fault for the next call of `participant` at `site`, or `nil` to make the call.
    package let fault: @Sendable (_ participant: Participant, _ site: FaultSite) -> InjectedFault?

    package init(_ fault: @escaping @Sendable (_ participant: Participant, _ site: FaultSite) -> InjectedFault?) {
        self.fault = fault
    }

    /// Does what is injected in place of the call of `participant` at `site`, if anything: throws the failure,
    /// or waits until cancelled. Returns at once when the call is to be made.
    package func strike(_ participant: Participant, _ site: FaultSite) async throws {
        if let fault = fault(participant, site) { try await fault.strike() }
    }

    /// Throws the failure injected in place of a synchronous call of `participant` at `site`, if any. A
    /// synchronous call cannot wait, so a hang there is struck as the failure it ends in.
    package func strikeSync(_ participant: Participant, _ site: FaultSite) throws {
        switch fault(participant, site) {
        case nil: return
        case .failure(let error): throw error
        case .hang(let ended):
            ended()
            throw CancellationError()
        }
    }
}
