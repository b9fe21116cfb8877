public import LifecycleCore

/// Where a random lifecycle stands after a step, as an invariant sees it (``LifecycleInvariant``).
public struct LifecycleSnapshot: Sendable {
    /// The host of this run. Its modules were created for this run alone.
    public let host: ApplicationHost
    /// The launch options this run's modules were created with: the test's objects, for this run alone.
    public let launchOptions: LaunchOptions
    /// The steps taken so far, the last one just now.
    public let steps: [ExplorationStep]
    /// What the last step threw: an invalid transition, a failed hook, or an action's own error; `nil`
    /// when it succeeded.
    public let error: (any Error)?
    /// Every delivery of the run so far, in the order the host reported them.
    public let deliveries: [DeliveryRecord]
    /// The faults injected so far, in the order they were.
    public let injectedFaults: [InjectedFaultRecord]
    /// The errors of requests nobody awaited (posted from hooks), in the order they came.
    public let unobservedErrors: [LifecycleError]
    /// Whether this is the last check of the run: after its closing `terminate()`, with the host idle.
    public let isFinal: Bool

    /// The host's state now.
    public var state: ApplicationState { host.state }

    /// The last step, or `nil` before the first.
    public var step: ExplorationStep? { steps.last }

    /// The deliveries to `module`, in order.
    public func deliveries(to module: any LifecycleModule.Type) -> [DeliveryRecord] {
        let name = module.moduleName
        return deliveries.filter { $0.participant.name == name }
    }

    /// Whether `module`'s hook for `event` has returned without an error at least once in this run.
    public func completed(_ event: LifecycleEvent, by module: any LifecycleModule.Type) -> Bool {
        let name = module.moduleName
        return deliveries.contains { $0.event == event && $0.participant.name == name && $0.error == nil }
    }

    /// Whether a fault was injected into `module` in this run: into its hook or handler for `event`, or into
    /// any hook, handler or work of it when `event` is `nil`.
    public func wasFaulted(_ module: any LifecycleModule.Type, in event: LifecycleEvent? = nil) -> Bool {
        let name = module.moduleName
        let site = event.map { "\($0)" }
        return injectedFaults.contains { $0.participant == name && (site == nil || $0.site == site) }
    }
}
