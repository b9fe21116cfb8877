public import LifecycleCore

extension HostRunner {
    /// A ``HostRunner``'s settings.
    public struct Configuration: Sendable {
        /// What each signal does. Signals not listed keep their default effect. Default: ``SignalMap/standard``.
        public var signals: SignalMap
        /// How long after the terminating signal the runner waits for `terminate()` before it gives up and
        /// returns ``Exit/Reason/deadlineExceeded``: the last resort when termination cannot even
        /// start, for example behind a request whose hook hangs. `nil`: the host's `terminateDeadline` plus
        /// one second, or 30 seconds when the host has none.
        public var shutdownLimit: Duration?
        /// Told about each signal and what came of it, as it happens. Default:
        /// ``writeToStandardError(_:)``.
        public var report: @Sendable (Report) -> Void
        /// Where the runner tells a systemd-style supervisor (`Type=notify`) what the host is doing:
        /// `READY=1` once launch completed (and a warm-up that runs after launch, under
        /// `didFinishLaunchingWaitsForWarmUp = false`, is over), `RELOADING=1` and `READY=1` around a reload
        /// signal's request,
        /// `STOPPING=1` when termination starts, `STATUS=` lines, and `WATCHDOG=1` at half of
        /// `WATCHDOG_USEC` while the host is responsive. Default: the process's `NOTIFY_SOCKET`, or `nil`
        /// (nothing is sent) when it is not set. Docs/Hosting.md has a unit file.
        public var systemd: SystemdNotifier?
        /// Readiness to drain when a terminating signal arrives: ``HostReadiness/beginDraining()`` is called
        /// first, then, ``drainDelay`` later, termination starts. Give it the probe an HTTP readiness
        /// endpoint answers from, so a load balancer sees 503 while the server still serves. `nil` by default:
        /// termination starts at once.
        public var readiness: HostReadiness?
        /// How long after draining began termination starts, when ``readiness`` is set: how often the load
        /// balancer polls readiness, plus a margin. Counts towards ``shutdownLimit``. Zero by default.
        public var drainDelay: Duration = .zero
        /// How often the runner looks at what the host waits on, and how long a hook must have run before
        /// the supervisor is told (`STATUS=`; see `ApplicationHost.activity`). One second by default.
        public var statusInterval: Duration = .seconds(1)

        /// Creates a configuration.
        public init(
            signals: SignalMap = .standard,
            shutdownLimit: Duration? = nil,
            systemd: SystemdNotifier? = .fromProcessEnvironment,
            report: @escaping @Sendable (Report) -> Void = Configuration.writeToStandardError
        ) {
            self.signals = signals
            self.shutdownLimit = shutdownLimit
            self.systemd = systemd
            self.report = report
        }

        /// The default ``report``: writes each report's description to standard error, one line each.
        public static func writeToStandardError(_ report: Report) {
            printToStandardError("lifecycle: \(report)")
        }
    }

    /// What a runner tells ``Configuration/report``.
    public enum Report: Sendable, CustomStringConvertible {
        /// Launch completed and the runner serves. The error lists launch hooks that failed, when some did
        /// and the host still launched (its launch failure policy is `.continue`).
        case launched(LifecycleError?)
        /// A handled signal arrived; the action is what the runner does about it.
        case received(UnixSignal, SignalAction)
        /// The request a signal made completed; the error is what it threw, if it did (an invalid
        /// transition, failing hooks).
        case handled(UnixSignal, SignalAction, LifecycleError?)
        /// A signal was dropped, and why.
        case ignored(UnixSignal, because: String)
        /// ``Configuration/shutdownLimit`` passed before `terminate()` returned.
        case shutdownLimitPassed(Duration)
        /// A reload switched modules on or off (`ApplicationHost.reloadModules()`).
        case modulesChanged(ModuleChanges)
        /// A notification to the supervisor (``Configuration/systemd``) was not sent; the error names the
        /// socket, the notification, the reason and the fix. Reported for the first failure of a run only,
        /// and the run serves on.
        case notificationFailed(SystemdNotifierError)
        /// The run is over.
        case exiting(Exit)

        public var description: String {
            switch self {
            case .launched(nil): return "launched; serving"
            case .launched(let error?): return "launched with failures; serving: \(error)"
            case .received(let signal, let action): return "received \(signal): \(action)"
            case .handled(let signal, let action, nil): return "handled \(signal): \(action)"
            case .handled(let signal, let action, let error?): return "handled \(signal): \(action) failed: \(error)"
            case .ignored(let signal, let reason): return "ignored \(signal): \(reason)"
            case .shutdownLimitPassed(let limit): return "shutdown limit of \(limit) passed"
            case .modulesChanged(let changes): return "modules changed: \(changes)"
            case .notificationFailed(let error): return "\(error)"
            case .exiting(let status): return status.description
            }
        }
    }
}
