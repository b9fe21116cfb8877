extension MetricsInstrument {
    /// The labels of a ``MetricsInstrument``'s metrics: a prefix, then a name in Prometheus's style, with
    /// the unit (`_seconds`) or `_total` at the end.
    ///
    /// | metric | label (prefix `lifecycle`) | kind | dimensions |
    /// |---|---|---|---|
    /// | ``deliveries`` | `lifecycle_deliveries_total` | counter | `event`, `module` |
    /// | ``failures`` | `lifecycle_delivery_failures_total` | counter | `event`, `module` |
    /// | ``timeouts`` | `lifecycle_delivery_timeouts_total` | counter | `event`, `module` |
    /// | ``deliveryDuration`` | `lifecycle_delivery_duration_seconds` | timer | `event`, `module` |
    /// | ``eventDuration`` | `lifecycle_event_duration_seconds` | timer | `event` |
    /// | ``quarantines`` | `lifecycle_quarantines_total` | counter | `module` |
    /// | ``state`` | `lifecycle_state` | gauge | none |
    /// | ``workChanges`` | `lifecycle_work_changes_total` | counter | `change`, `module`, `work` |
    /// | ``workRunning`` | `lifecycle_work_running` | gauge | `module`, `work` |
    public struct Names: Sendable, Hashable {
        /// Hook calls, failed or not: `<prefix>_deliveries_total`.
        public let deliveries: String
        /// Hook calls that threw or timed out: `<prefix>_delivery_failures_total`.
        public let failures: String
        /// Hook calls that timed out (their error is a `HookTimeout`), counted in ``failures`` too:
        /// `<prefix>_delivery_timeouts_total`.
        public let timeouts: String
        /// How long each hook call took: `<prefix>_delivery_duration_seconds`.
        public let deliveryDuration: String
        /// How long each event took to deliver, all its hook calls together: `<prefix>_event_duration_seconds`.
        public let eventDuration: String
        /// Modules quarantined: `<prefix>_quarantines_total`.
        public let quarantines: String
        /// The host's state, as a number (``MetricsInstrument/stateCode(_:)``): `<prefix>_state`.
        public let state: String
        /// What happened to modules' work (LifecycleWork), by change (`workStarted`, `workFailed`, …):
        /// `<prefix>_work_changes_total`.
        public let workChanges: String
        /// Whether each work's body is running now, 1 or 0: `<prefix>_work_running`. Their sum is the number
        /// of works running.
        public let workRunning: String

        /// The names under `prefix`, joined to each name with `_`; an empty prefix adds nothing.
        public init(prefix: String = "lifecycle") {
            func name(_ suffix: String) -> String { prefix.isEmpty ? suffix : "\(prefix)_\(suffix)" }
            deliveries = name("deliveries_total")
            failures = name("delivery_failures_total")
            timeouts = name("delivery_timeouts_total")
            deliveryDuration = name("delivery_duration_seconds")
            eventDuration = name("event_duration_seconds")
            quarantines = name("quarantines_total")
            state = name("state")
            workChanges = name("work_changes_total")
            workRunning = name("work_running")
        }
    }
}
