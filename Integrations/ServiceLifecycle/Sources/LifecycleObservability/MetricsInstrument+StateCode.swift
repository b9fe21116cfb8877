public import LifecycleCore

extension MetricsInstrument {
    /// The number the state gauge (``Names/state``) holds for `state`, in the order of a lifecycle:
    ///
    /// | state | code |
    /// |---|---|
    /// | `notRunning` | 0 |
    /// | `launching` | 1 |
    /// | `active` | 2 |
    /// | `inactive` | 3 |
    /// | `background` | 4 |
    /// | `terminating` | 5 |
    /// | `terminated` | 6 |
    ///
    /// The codes are fixed: a dashboard or an alert may rely on them (`lifecycle_state != 2` for "not
    /// serving").
    public static func stateCode(_ state: ApplicationState) -> Int {
        switch state {
        case .notRunning: 0
        case .launching: 1
        case .active: 2
        case .inactive: 3
        case .background: 4
        case .terminating: 5
        case .terminated: 6
        }
    }
}
