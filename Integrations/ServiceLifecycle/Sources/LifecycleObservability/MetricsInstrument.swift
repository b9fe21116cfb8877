public import LifecycleCore
public import Metrics
import Synchronization

/// Counts and times a host's work with swift-metrics: hook calls, their failures and timeouts, how long
/// each call and each event took, quarantines, the host's state, and what happens to modules' work
/// (LifecycleWork): each change, and whether each work runs.
///
/// Install it on the host (``LifecycleCore/ApplicationHost/Configuration/instruments``), with the factory
/// of your metrics backend:
///
/// ```swift
/// let metrics = MetricsInstrument(factory: PrometheusMetricsFactory(registry: registry))
/// ```
///
/// The metrics and their labels are in ``Names``: `lifecycle_deliveries_total{event,module}`,
/// `lifecycle_delivery_failures_total{event,module}`, `lifecycle_delivery_timeouts_total{event,module}`,
/// `lifecycle_delivery_duration_seconds{event,module}`, `lifecycle_event_duration_seconds{event}`,
/// `lifecycle_quarantines_total{module}`, `lifecycle_state`, whose values are in ``stateCode(_:)``,
/// `lifecycle_work_changes_total{change,module,work}` and `lifecycle_work_running{module,work}`. The
/// `event` dimension is the event's name (`didBecomeActive`; for a message between modules, the message
/// type's); `module` is the module-qualified type name (`App.CacheModule`); `work` is the work's name
/// within its module, and `change` one of the ten changes of
/// ``LifecycleCore/LifecycleInstrument/workChanged(_:module:work:detail:)``. All are bounded sets: the
/// events a program knows, the modules of its manifest and the work they declare.
///
/// Each metric is made once, the first time it is needed, and kept: a hook call costs a dictionary
/// look-up under a lock, then the backend's increment and record.
///
/// Give each host an instrument of its own, with a prefix of its own if several hosts share a factory:
/// the state gauge holds one host's state.
public final class MetricsInstrument: LifecycleInstrument {
    /// The metrics' labels.
    public let names: Names
    /// The factory the metrics are made with.
    public let factory: any MetricsFactory
    private let state: Gauge
    private let deliveries = Mutex(DeliveryCache())
    private let events = Mutex<[LifecycleEvent: Timer]>([:])
    private let quarantines = Mutex<[String: Counter]>([:])
    private let works = Mutex(WorkMetrics())

    /// One participant's calls for one event: the event, and the participant's id within its host (a
    /// participant's hash and equality read only its id and priority, never its name).
    private struct DeliveryKey: Hashable {
        let event: LifecycleEvent
        let participant: Participant
    }

    /// The delivery metrics, by participant for the hook call's look-up, and by module name, as their labels
    /// are: a module registered again is a new participant with the same name, so it takes over its
    /// predecessor's metrics and evicts its entry. The cache is bounded by the module types and events, not by
    /// registrations: a process that registers and removes a module all day keeps one entry per event.
    private struct DeliveryCache {
        var byParticipant: [DeliveryKey: DeliveryMetrics] = [:]
        /// The participant that holds each name's metrics now.
        var byName: [NamedKey: (participant: Participant, metrics: DeliveryMetrics)] = [:]

        struct NamedKey: Hashable {
            let event: LifecycleEvent
            let name: String
        }
    }

    /// The metrics of one ``DeliveryKey``. A class: a hook call takes one reference out of the cache, not
    /// four, and touches the failure counters only when the hook failed.
    private final class DeliveryMetrics: Sendable {
        let calls: Counter
        let failures: Counter
        let timeouts: Counter
        let duration: Timer

        init(calls: Counter, failures: Counter, timeouts: Counter, duration: Timer) {
            self.calls = calls
            self.failures = failures
            self.timeouts = timeouts
            self.duration = duration
        }
    }

    /// The metrics of modules' work, and which works run.
    private struct WorkMetrics {
        /// The change counters, by change, module and work.
        var changes: [[String]: Counter] = [:]
        /// Each work's running gauge, and whether it reads 1.
        var running: [[String]: (gauge: Gauge, isRunning: Bool)] = [:]
    }

    /// The changes that start a work's body, and those after which it no longer runs: it stopped,
    /// finished, threw (`workFailed`, before any `workRestarting` or `workGaveUp`), gave up, returned to be
    /// restarted (`workRestarting`), or was abandoned. `workReady` and `workCancelled` change nothing.
    private static let workStarts: Set<String> = ["workStarted", "workRestarted"]
    private static let workEnds: Set<String> = [
        "workStopped", "workFinished", "workFailed", "workRestarting", "workGaveUp", "workAbandoned",
    ]

    /// An instrument whose metrics `factory` makes, named under `prefix`.
    ///
    /// - Parameters:
    ///   - factory: The metrics backend. By default the one bootstrapped with `MetricsSystem.bootstrap(_:)`,
    ///     read once, here: bootstrap first, then make the instrument. Tests pass a `TestMetrics`.
    ///   - prefix: What every label starts with, before a `_` (``Names/init(prefix:)``).
    public init(factory: any MetricsFactory = MetricsSystem.factory, prefix: String = "lifecycle") {
        self.factory = factory
        names = Names(prefix: prefix)
        state = Gauge(label: names.state, dimensions: [], factory: factory)
    }

    /// Sets the state gauge to ``stateCode(_:)`` of `new`.
    public func stateChanged(from old: ApplicationState, to new: ApplicationState) {
        state.record(Self.stateCode(new))
    }

    /// Counts the call, its failure and its timeout, and records its duration.
    public func delivered(_ record: DeliveryRecord) {
        let metrics = deliveries.withLock { cache in
            let key = DeliveryKey(event: record.event, participant: record.participant)
            if let metrics = cache.byParticipant[key] { return metrics }
            // A participant's first call of this event: the first of its name, or one registered again.
            let named = DeliveryCache.NamedKey(event: record.event, name: record.participant.name)
            let metrics: DeliveryMetrics
            if let (predecessor, existing) = cache.byName[named] {
                cache.byParticipant[DeliveryKey(event: record.event, participant: predecessor)] = nil
                metrics = existing
            } else {
                metrics = makeDeliveryMetrics(record)
            }
            cache.byName[named] = (record.participant, metrics)
            cache.byParticipant[key] = metrics
            return metrics
        }
        metrics.calls.increment()
        metrics.duration.record(duration: record.duration)
        guard let error = record.error else { return }
        metrics.failures.increment()
        if error is HookTimeout { metrics.timeouts.increment() }
    }

    /// Records how long the event took.
    public func eventFinished(_ summary: EventSummary, context: (any Sendable)?) {
        let timer = events.withLock { cache in
            if let timer = cache[summary.event] { return timer }
            let timer = Timer(label: names.eventDuration, dimensions: [("event", summary.event.name)], factory: factory)
            cache[summary.event] = timer
            return timer
        }
        timer.record(duration: summary.duration)
    }

    /// Counts a quarantine (`change` is `quarantined`).
    public func moduleChanged(_ change: String, module: String, reason: String) {
        guard change == "quarantined" else { return }
        let counter = quarantines.withLock { cache in
            if let counter = cache[module] { return counter }
            let counter = Counter(label: names.quarantines, dimensions: [("module", module)], factory: factory)
            cache[module] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts the change, and sets the work's running gauge to 1 when its body starts (`workStarted`,
    /// `workRestarted`) and to 0 when it no longer runs.
    public func workChanged(_ change: String, module: String, work: String, detail: String) {
        let running: Bool? =
            Self.workStarts.contains(change) ? true : Self.workEnds.contains(change) ? false : nil
        let counter = works.withLock { works in
            let counter =
                works.changes[[change, module, work]]
                ?? Counter(
                    label: names.workChanges,
                    dimensions: [("change", change), ("module", module), ("work", work)],
                    factory: factory
                )
            works.changes[[change, module, work]] = counter
            guard let running else { return counter }
            // Recorded under the lock, so that the gauge's last value is the work's last change, and only
            // when the value changes: a work that stops during its backoff reads 0 already.
            let gauge: Gauge
            if let known = works.running[[module, work]] {
                guard known.isRunning != running else { return counter }
                gauge = known.gauge
            } else {
                gauge = Gauge(
                    label: names.workRunning,
                    dimensions: [("module", module), ("work", work)],
                    factory: factory
                )
            }
            works.running[[module, work]] = (gauge, running)
            gauge.record(running ? 1 : 0)
            return counter
        }
        counter.increment()
    }

    private func makeDeliveryMetrics(_ record: DeliveryRecord) -> DeliveryMetrics {
        let dimensions = [("event", record.event.name), ("module", record.participant.name)]
        return DeliveryMetrics(
            calls: Counter(label: names.deliveries, dimensions: dimensions, factory: factory),
            failures: Counter(label: names.failures, dimensions: dimensions, factory: factory),
            timeouts: Counter(label: names.timeouts, dimensions: dimensions, factory: factory),
            duration: Timer(label: names.deliveryDuration, dimensions: dimensions, factory: factory)
        )
    }
}
