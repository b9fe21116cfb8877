import LifecycleCore

/// What a ``HostRunner`` tells the supervisor, from each of its tasks (the run itself, the watchdog's pets,
/// the status lines): every notification goes through ``send(_:)``, so the first one that fails is reported
/// (``HostRunner/Report/notificationFailed(_:)``) and the rest of the run's failures, the same cause
/// repeating, are not. Nothing is sent without a notifier.
final class SupervisorNotifications: Sendable {
    let notifier: SystemdNotifier?
    private let report: @Sendable (HostRunner.Report) -> Void
    /// Whether a failure was reported since the run started.
    private let reported = Locked(false)

    init(_ notifier: SystemdNotifier?, report: @escaping @Sendable (HostRunner.Report) -> Void) {
        self.notifier = notifier
        self.report = report
    }

    /// A new run: its first failure is reported again.
    func start() { reported.withLock { $0 = false } }

    func send(_ state: String) {
        guard let notifier else { return }
        do {
            try notifier.send(state)
        } catch {
            let first = reported.withLock { reported in
                defer { reported = true }
                return !reported
            }
            if first { report(.notificationFailed(error)) }
        }
    }
}
