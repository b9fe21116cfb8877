/// Follows a host as it works: each request, each event it delivers, each hook call, each state change
/// and each module switched off, quarantined or brought back. The seam tracing and metrics plug into.
///
/// A host calls its instruments (``ApplicationHost/Configuration/instruments``) in the order given, and
/// only when there is at least one: a host without instruments pays one check per event, none per hook.
/// Every requirement has an empty default, so an instrument implements what it needs.
///
/// The calls come in a fixed shape. A request a task awaits (`launch()`, `enterBackground()`, …) is
/// bracketed by ``requestStarted(_:context:)`` and ``requestFinished(_:error:)``; each event delivered for
/// it — each launch stage, each step of a transition — by ``eventStarted(_:state:context:)`` and
/// ``eventFinished(_:context:)``, with ``delivered(_:)`` for each hook call in between; an event no
/// participant implements is not reported. A host delivers one
/// event at a time, except the concurrent warm-up stage run in the background after launch (with
/// ``ApplicationHost/Configuration/didFinishLaunchingWaitsForWarmUp`` off), which may overlap a later
/// request's events: its hook calls carry ``LifecycleEvent/warmUp``. Messages between modules
/// (LifecycleMessaging) reach ``delivered(_:)`` only, from the sending task.
///
/// ```swift
/// struct CountingInstrument: LifecycleInstrument {
///     let calls: Counter   // a metrics counter, say
///     func delivered(_ record: DeliveryRecord) { calls.increment() }
/// }
/// let host = try ApplicationHost(
///     manifest: .discovered,
///     configuration: .init(instruments: [CountingInstrument(calls: counter)])
/// )
/// ```
public protocol LifecycleInstrument: Sendable {
    /// Runs in the task that asks the host for something, before the request is queued — the host runs
    /// requests in its own task. Return what the request's events need from the asking task, such as its
    /// trace context; the host hands it back to every call about that request. Defaults to `nil`.
    func captureContext() -> (any Sendable)?
    /// The host starts on `request`. `context` is what ``captureContext()`` returned for it; `nil` for a
    /// request a module posted (``EventEmitter``), which no task awaits.
    func requestStarted(_ request: HostRequest, context: (any Sendable)?)
    /// The host is done with `request`: `error` is what the awaiting task receives, or `nil`.
    func requestFinished(_ request: HostRequest, error: LifecycleError?)
    /// The host starts delivering `event`, in `state`. `context` is the captured context of the request
    /// the event belongs to (for a background warm-up, the launch's).
    func eventStarted(_ event: LifecycleEvent, state: ApplicationState, context: (any Sendable)?)
    /// A hook returned or threw. Hooks that time out are reported too, with a ``HookTimeout`` error.
    func delivered(_ record: DeliveryRecord)
    /// The host finished delivering an event.
    func eventFinished(_ summary: EventSummary, context: (any Sendable)?)
    /// The host moved from `old` to `new`.
    func stateChanged(from old: ApplicationState, to new: ApplicationState)
    /// A module was switched off or on by a reload (`switchedOff`, `switchedOn`), quarantined
    /// (`quarantined`) or released (`released`): the same changes, with the same names and reasons, as the
    /// journal's notes (``DeliveryJournal/Entry/note``).
    func moduleChanged(_ change: String, module: String, reason: String)

    /// A module's work changed (LifecycleWork, Docs/Work.md): `change` is `workStarted`, `workReady`,
    /// `workStopped`, `workFinished`, `workFailed`, `workRestarting`, `workRestarted`, `workGaveUp`,
    /// `workCancelled` or `workAbandoned`; `detail` says why, or is empty.
    func workChanged(_ change: String, module: String, work: String, detail: String)
}

extension LifecycleInstrument {
    public func captureContext() -> (any Sendable)? { nil }
    public func requestStarted(_ request: HostRequest, context: (any Sendable)?) {}
    public func requestFinished(_ request: HostRequest, error: LifecycleError?) {}
    public func eventStarted(_ event: LifecycleEvent, state: ApplicationState, context: (any Sendable)?) {}
    public func delivered(_ record: DeliveryRecord) {}
    public func eventFinished(_ summary: EventSummary, context: (any Sendable)?) {}
    public func stateChanged(from old: ApplicationState, to new: ApplicationState) {}
    public func moduleChanged(_ change: String, module: String, reason: String) {}
    public func workChanged(_ change: String, module: String, work: String, detail: String) {}
}
