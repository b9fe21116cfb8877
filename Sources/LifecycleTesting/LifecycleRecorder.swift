public import LifecycleCore

/// Records every hook call a host makes: event, participant, result and error, in the order the calls
/// completed.
///
/// Plug ``observer`` into the host's configuration, then read what happened:
///
/// ```swift
/// let recorder = LifecycleRecorder()
/// let host = try ApplicationHost(manifest: manifest, configuration: .init(onDelivery: recorder.observer))
/// try await host.launch()
/// recorder.receivers(of: .willFinishLaunching)   // module names, in delivery order
/// ```
///
/// A host reports a hook call when it returns, so the recording order is the delivery order, except in
/// the concurrent `warmUp` stage, where it is the order in which the warm-ups finished. A
/// hook abandoned on a timeout is recorded when it is abandoned, with its `HookTimeout` as the error.
///
/// One recorder may observe several hosts; it is safe to use from any task.
public final class LifecycleRecorder: Sendable {
    private let records = Locked<[DeliveryRecord]>([])

    /// Creates an empty recorder.
    public init() {}

    /// The function to set as `ApplicationHost.Configuration.onDelivery`: it records each delivery.
    public var observer: DeliveryObserver {
        { [self] record in self.record(record) }
    }

    /// Records one delivery, after those recorded so far.
    public func record(_ delivery: DeliveryRecord) {
        records.withLock { $0.append(delivery) }
    }

    /// Every delivery recorded since the recorder was created or last reset, in order.
    public var deliveries: [DeliveryRecord] { records.withLock { $0 } }

    /// The participants that received `event`, by module-qualified name, one entry per recorded delivery.
    ///
    /// An event delivered twice (`didBecomeActive` at launch and again after the background) lists its
    /// receivers twice; call ``reset()`` before the request you want to look at on its own.
    public func receivers(of event: LifecycleEvent) -> [String] {
        deliveries.filter { $0.event == event }.map(\.participant.name)
    }

    /// The events `module` received, in order.
    public func events(of module: any LifecycleModule.Type) -> [LifecycleEvent] {
        let name = module.moduleName
        return deliveries.filter { !$0.participant.isDelegate && $0.participant.name == name }.map(\.event)
    }

    /// The events the participant named `name` received, in order. Use it for the program's delegate,
    /// whose name is its module-qualified type name.
    public func events(of name: String) -> [LifecycleEvent] {
        deliveries.filter { $0.participant.name == name }.map(\.event)
    }

    /// Forgets everything recorded so far.
    public func reset() {
        records.withLock { $0.removeAll() }
    }
}
