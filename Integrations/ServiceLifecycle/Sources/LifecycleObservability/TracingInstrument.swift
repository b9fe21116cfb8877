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
/// `lifecycle.from` and `lifecycle.to`) and for each module quarantined, released or switched
/// (`lifecycle.module_changed`, with `lifecycle.change`, `lifecycle.module` and `lifecycle.reason`) while it
/// is open.
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
    }

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
}
