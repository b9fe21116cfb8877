public import LifecycleCore

/// The custom event ``HostRunner`` and ``SignalRequests`` send for ``SignalAction/reload`` (`SIGHUP` in
/// ``SignalMap/standard``), after `ApplicationHost.reloadModules()`: re-read configuration, reopen log
/// files, refresh credentials.
///
/// Handle it like any custom event; the result is "did anything change?", OR-combined:
///
/// ```swift
/// struct ConfigurationModule: LifecycleModule, CustomEventHandling {
///     init(context: LifecycleContext) {}
///
///     static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
///         handlers.on(ReloadRequested.self) { module, event, context in
///             module.reload()
///         }
///     }
///
///     func reload() -> Bool { false }
/// }
/// ```
public struct ReloadRequested: CustomEvent, Hashable {
    /// "Did anything change?": `true` if any handler says so.
    public typealias Result = Bool

    /// The signal that asked for the reload.
    public var signal: UnixSignal

    /// A reload asked for by `signal`.
    public init(signal: UnixSignal) {
        self.signal = signal
    }
}
