public import LifecycleCore
import Synchronization
public import Tracing

/// Traces a host with swift-distributed-tracing: a span for each request, a child span for each event it
/// delivers, and a child of that for each hook call.
///
/// Install it on the host (``LifecycleCore/ApplicationHost/Configuration/instruments``). A request's span
/// is a child of the span that was active (`ServiceContext.current`) in the task that asked for it, so a
/// `launch()` called inside a span of yours appears in your trace:
///
/// ```
/// launch()                                  the request (a root span for a request a module posted)
/// ├── setup                                 each event it delivered
/// │   ├── App.DatabaseModule                each hook call, from the hook's start to its end
/// │   └── App.CacheModule
/// ├── didFinishLaunching
/// │   └── …
/// └── didBecomeActive
///     └── …
/// ```
///
/// | span | name | attributes |
/// |---|---|---|
/// | request | the request as written in code: `launch()`, `enterBackground()`, `receiveMemoryWarning()` | `lifecycle.request`; on failure the `LifecycleError` is recorded and the status is error, with the error's code as message |
/// | event | the event's name: `setup`, `didBecomeActive`, `warmUp` | `lifecycle.event`, `lifecycle.state` (the host's state while it was delivered), `lifecycle.planned`, `lifecycle.failures`, `lifecycle.timeouts`, `lifecycle.abandoned`, `lifecycle.stopped`; status error when a hook failed or a timeout stopped the event |
/// | delivery | the module's module-qualified type name: `App.CacheModule` | `lifecycle.module`, `lifecycle.event`, `lifecycle.priority` (not for the program's delegate), `lifecycle.result` (events with a Bool result), `lifecycle.sender` (messages); for a hook that threw or timed out: the error recorded, status error, and `lifecycle.timed_out` `true` for a ``LifecycleCore/HookTimeout`` |
///
/// The request span also gets a span event for each state change (`lifecycle.state_changed`, with
/// `lifecycle.from` and `lifecycle.to`), for each module quarantined, released or switched
/// (`lifecycle.module_changed`, with `lifecycle.change`, `lifecycle.module` and `lifecycle.reason`), and for
/// each change of a module's work (`lifecycle.work_changed`, below) while it is open.
///
/// Modules' work (LifecycleWork) gets a span per run of its body, named `Module.work` as the journal names
/// it (`App.QueueModule.consume`), with `lifecycle.module`, `lifecycle.work` and `lifecycle.attempt`, from
/// `workStarted` or `workRestarted` until the body ended: `workStopped`, `workFinished`, `workRestarting`,
/// `workGaveUp` or `workAbandoned`. Each change while it runs is a `lifecycle.work_changed` span event on it
/// (`lifecycle.change`, `lifecycle.module`, `lifecycle.work`, and `lifecycle.detail` when the host says
/// why): `workReady`, `workCancelled`, and `workFailed`, which sets the status to error with the failure as
/// message, as `workGaveUp` and `workAbandoned` do. A run's span is a child of the last launch's span, as
/// the background warm-up's is, whenever the run starts: the work belongs to the application that launch
/// started, and a run outlives the request during which it began. A restart's span links to the span of
/// the run before it.
///
/// Delivery spans start and end at the instants the host measured (``LifecycleCore/DeliveryRecord/start``
/// and its duration), converted from `ContinuousClock` to wall-clock time with an offset measured once,
/// when the instrument is made. A hook that timed out ends at the moment it was abandoned.
///
/// The warm-up stage run in the background after launch may overlap later events: its event span stays a
/// child of the launch's span, and its hook calls go under it, while the later events go under their own
/// requests.
///
/// A message between modules (LifecycleMessaging) is a delivery span under the span active in the sending
/// task, and is not traced when that task has none: messages are frequent, and a root trace for each would
/// flood the tracer.
///
/// Give each host an instrument of its own: it follows the requests of one host.
///
/// With swift-distributed-tracing's `NoOpTracer` — the default before `InstrumentationSystem.bootstrap(_:)`
/// — the instrument makes no spans at all, so installing it unconditionally costs a host only the seam
/// itself (`Docs/Performance.md`, "Instruments").
public final class TracingInstrument: LifecycleInstrument {
    /// The tracer the spans are started with.
    public let tracer: any Tracer
    /// Whether spans go anywhere: `false` for a `NoOpTracer`, whose spans every method skips.
    private let isTracing: Bool
    private let clock = WallClock()
    private let spans = Mutex(OpenSpans())

    /// The spans in progress.
    private struct OpenSpans {
        /// The request in progress; the host runs one at a time.
        var request: (any Span)?
        /// The context of the last launch's span: the parent of the warm-up event, even when it runs in the
        /// background after the launch ended.
        var launch: ServiceContext?
        /// The events in progress, by event: one, or two while a background warm-up overlaps another.
        var events: [LifecycleEvent: any Span] = [:]
        /// The span of each work's body while it runs, by module and work.
        var works: [WorkKey: any Span] = [:]
        /// Each work's last run: its context, for the link from its restart, and its attempt.
        var lastRuns: [WorkKey: (context: ServiceContext, attempt: Int)] = [:]
    }

    private struct WorkKey: Hashable {
        let module: String
        let work: String
    }

    /// The changes after which a work's body no longer runs (its span ends); `workFailed` comes before
    /// `workRestarting` or `workGaveUp`, which end the span of the run that threw.
    private static let workEnds: Set<String> = [
        "workStopped", "workFinished", "workRestarting", "workGaveUp", "workAbandoned",
    ]
    /// The changes that set a run's status to error.
    private static let workErrors: Set<String> = ["workFailed", "workGaveUp", "workAbandoned"]

    /// An instrument that starts its spans with `tracer`.
    ///
    /// - Parameter tracer: The tracer to use. By default the one bootstrapped with
    ///   `InstrumentationSystem.bootstrap(_:)`, read once, here: bootstrap first, then make the instrument.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
        isTracing = !(tracer is NoOpTracer)
    }

    /// The context of the asking task, `ServiceContext.current`: the request's span becomes a child of the
    /// span active there.
    public func captureContext() -> (any Sendable)? {
        isTracing ? ServiceContext.current : nil
    }

    /// Starts the request's span, a child of `context` (a `ServiceContext`), or a root span without one.
    public func requestStarted(_ request: HostRequest, context: (any Sendable)?) {
        guard isTracing else { return }
        let parent = (context as? ServiceContext) ?? .topLevel
        let span = tracer.startSpan(request.description, context: parent, ofKind: .internal, at: clock.now)
        span.attributes["lifecycle.request"] = request.description
        let replaced = spans.withLock { spans in
            let previous = spans.request
            spans.request = span
            if request == .launch { spans.launch = span.context }
            return previous
        }
        replaced?.end(at: clock.now)
    }

    /// Ends the request's span; records `error`, if any, and sets the error status.
    public func requestFinished(_ request: HostRequest, error: LifecycleError?) {
        guard isTracing else { return }
        let span = spans.withLock { spans in
            defer { spans.request = nil }
            return spans.request
        }
        guard let span else { return }
        if let error {
            span.recordError(error, attributes: [:], at: clock.now)
            span.setStatus(SpanStatus(code: .error, message: "\(error.code)"))
        }
        span.end(at: clock.now)
    }

    /// Starts the event's span, a child of its request's span; for a warm-up, of the launch's span.
    public func eventStarted(_ event: LifecycleEvent, state: ApplicationState, context: (any Sendable)?) {
        guard isTracing else { return }
        let parent = spans.withLock { spans -> ServiceContext in
            if event == .warmUp, let launch = spans.launch { return launch }
            return spans.request?.context ?? (context as? ServiceContext) ?? .topLevel
        }
        let span = tracer.startSpan(event.name, context: parent, ofKind: .internal, at: clock.now)
        span.updateAttributes { attributes in
            attributes["lifecycle.event"] = event.name
            attributes["lifecycle.state"] = state.rawValue
        }
        let replaced = spans.withLock { $0.events.updateValue(span, forKey: event) }
        replaced?.end(at: clock.now)
    }

    /// Adds a span for the hook call, from its start to its end, under its event's span; for a message,
    /// under the sending task's span, if it has one.
    public func delivered(_ record: DeliveryRecord) {
        guard isTracing else { return }
        let parent: ServiceContext?
        if record.event.isMessage {
            parent = ServiceContext.current
        } else {
            parent =
                spans.withLock { $0.events[record.event]?.context ?? $0.request?.context } ?? ServiceContext.current
        }
        guard let parent else { return }
        let span = tracer.startSpan(
            record.participant.name,
            context: parent,
            ofKind: .internal,
            at: clock.instant(record.start)
        )
        let end = clock.instant(record.start + record.duration)
        span.updateAttributes { attributes in
            attributes["lifecycle.module"] = record.participant.name
            attributes["lifecycle.event"] = record.event.name
            if let priority = record.participant.priority { attributes["lifecycle.priority"] = priority.rawValue }
            if let result = record.result { attributes["lifecycle.result"] = result }
            if let sender = record.sender { attributes["lifecycle.sender"] = sender.name }
            if record.error is HookTimeout { attributes["lifecycle.timed_out"] = true }
        }
        if let error = record.error {
            span.recordError(error, attributes: [:], at: end)
            span.setStatus(SpanStatus(code: .error, message: "\(error)"))
        }
        span.end(at: end)
    }

    /// Ends the event's span when the event ended, with what came of it.
    public func eventFinished(_ summary: EventSummary, context: (any Sendable)?) {
        guard isTracing else { return }
        guard let span = spans.withLock({ $0.events.removeValue(forKey: summary.event) }) else { return }
        span.updateAttributes { attributes in
            attributes["lifecycle.planned"] = summary.planned
            attributes["lifecycle.failures"] = summary.failures.count
            attributes["lifecycle.timeouts"] = summary.timeouts
            attributes["lifecycle.abandoned"] = summary.abandoned.count
            attributes["lifecycle.stopped"] = summary.stopped
        }
        if !summary.failures.isEmpty || summary.stopped {
            span.setStatus(SpanStatus(code: .error, message: summary.description))
        }
        span.end(at: clock.instant(summary.start + summary.duration))
    }

    /// Adds a `lifecycle.state_changed` span event to the request's span.
    public func stateChanged(from old: ApplicationState, to new: ApplicationState) {
        guard isTracing else { return }
        guard let span = spans.withLock({ $0.request }) else { return }
        span.addEvent(
            SpanEvent(
                name: "lifecycle.state_changed",
                at: clock.now,
                attributes: ["lifecycle.from": .string(old.rawValue), "lifecycle.to": .string(new.rawValue)]
            )
        )
    }

    /// Adds a `lifecycle.module_changed` span event to the request's span.
    public func moduleChanged(_ change: String, module: String, reason: String) {
        guard isTracing else { return }
        guard let span = spans.withLock({ $0.request }) else { return }
        span.addEvent(
            SpanEvent(
                name: "lifecycle.module_changed",
                at: clock.now,
                attributes: [
                    "lifecycle.change": .string(change),
                    "lifecycle.module": .string(module),
                    "lifecycle.reason": .string(reason),
                ]
            )
        )
    }

    /// Starts a span when a work's body starts, adds a `lifecycle.work_changed` span event to it and to the
    /// request's span for each change, and ends it when the body has ended.
    public func workChanged(_ change: String, module: String, work: String, detail: String) {
        guard isTracing else { return }
        let key = WorkKey(module: module, work: work)
        let now = clock.now
        var attributes: SpanAttributes = [
            "lifecycle.change": .string(change),
            "lifecycle.module": .string(module),
            "lifecycle.work": .string(work),
        ]
        if !detail.isEmpty { attributes["lifecycle.detail"] = detail }
        let event = SpanEvent(name: "lifecycle.work_changed", at: now, attributes: attributes)

        if change == "workStarted" || change == "workRestarted" {
            let (parent, previous, attempt, replaced) = spans.withLock { spans in
                let last = spans.lastRuns[key]
                let attempt = change == "workStarted" ? 1 : (last?.attempt ?? 0) + 1
                return (spans.launch ?? .topLevel, last?.context, attempt, spans.works.removeValue(forKey: key))
            }
            replaced?.end(at: now)  // a run whose end never came: not expected, but not left open
            let span = tracer.startSpan("\(module).\(work)", context: parent, ofKind: .internal, at: now)
            span.updateAttributes { attributes in
                attributes["lifecycle.module"] = module
                attributes["lifecycle.work"] = work
                attributes["lifecycle.attempt"] = attempt
            }
            if change == "workRestarted", let previous { span.addLink(SpanLink(context: previous, attributes: [:])) }
            span.addEvent(event)
            let request = spans.withLock { spans in
                spans.works[key] = span
                spans.lastRuns[key] = (span.context, attempt)
                return spans.request
            }
            request?.addEvent(event)
            return
        }

        let ends = Self.workEnds.contains(change)
        let (run, request) = spans.withLock { spans in
            (ends ? spans.works.removeValue(forKey: key) : spans.works[key], spans.request)
        }
        if let span = run {
            span.addEvent(event)
            if Self.workErrors.contains(change) {
                span.setStatus(SpanStatus(code: .error, message: detail.isEmpty ? change : detail))
            }
            if ends { span.end(at: now) }
        }
        request?.addEvent(event)
    }
}
