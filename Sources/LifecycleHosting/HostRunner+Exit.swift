public import LifecycleCore

extension HostRunner {
    /// How a ``HostRunner`` run ended, and the process exit code that says so.
    ///
    /// | code | reason | when |
    /// |---|---|---|
    /// | 0 | ``Reason/clean`` | the host terminated, and every `willTerminate` hook returned |
    /// | 1 | ``Reason/terminateFailed`` | the host terminated, but `willTerminate` hooks threw |
    /// | 3 | ``Reason/launchFailed`` | launch aborted (the host rolled back and terminated), or the host was already terminated |
    /// | 4 | ``Reason/deadlineExceeded`` | termination ran past a time limit: `terminateDeadline`, a hook budget under `.fail`, the runner's ``Configuration/shutdownLimit``, or work that ignored cancellation and was abandoned |
    /// | 6 | ``Reason/workFailed`` | a module's work failed past its policy, which terminates the application (LifecycleWork) |
    /// | 128 + n | ``Reason/interrupted(_:)`` | signal n cut termination short: 130 for a second `SIGINT` |
    ///
    /// A graceful termination on `SIGTERM` is a clean exit, 0: whoever sent it asked the program to stop,
    /// and it did. 128 + n is kept for a termination that a signal cut short, as a shell reports a program
    /// stopped by that signal.
    public struct Exit: Sendable, CustomStringConvertible {
        /// Why a run ended.
        public enum Reason: Sendable, Hashable {
            /// The host terminated, and every `willTerminate` hook returned.
            case clean
            /// The host terminated, but `willTerminate` hooks threw (``Exit/error`` lists them).
            case terminateFailed
            /// Launch aborted and the host terminated, or the host was already terminated when the run
            /// began.
            case launchFailed
            /// Termination ran past a time limit; the hooks still running were abandoned.
            case deadlineExceeded
            /// The signal cut termination short (see ``SignalAction/interrupt``).
            case interrupted(UnixSignal)
            /// A module's work failed past its policy, which terminated the application gracefully
            /// (``Exit/error`` is the host's `ApplicationHost.terminationFailure`).
            case workFailed
        }

        /// Why the run ended.
        public let reason: Reason
        /// The host's error behind a reason other than ``Reason/clean``, when it threw one.
        public let error: LifecycleError?
        /// What the runner adds, when the host has nothing to say: the shutdown limit that passed, or a host
        /// that terminated itself.
        public let detail: String?

        package init(_ reason: Reason, error: LifecycleError? = nil, detail: String? = nil) {
            self.reason = reason
            self.error = error
            self.detail = detail
        }

        /// The process exit code of ``reason`` (see the table above).
        public var code: Int32 {
            switch reason {
            case .clean: return 0
            case .terminateFailed: return 1
            case .launchFailed: return 3
            case .deadlineExceeded: return 4
            case .workFailed: return 6
            case .interrupted(let signal): return 128 + signal.rawValue
            }
        }

        /// `exit 0 (clean)`, then the detail and the error when there are some.
        public var description: String {
            let name: String
            switch reason {
            case .clean: name = "clean"
            case .terminateFailed: name = "terminate failed"
            case .launchFailed: name = "launch failed"
            case .deadlineExceeded: name = "deadline exceeded"
            case .workFailed: name = "work failed"
            case .interrupted(let signal): name = "interrupted by \(signal)"
            }
            var text = "exit \(code) (\(name))"
            if let detail { text += ": \(detail)" }
            if let error { text += ": \(error)" }
            return text
        }
    }
}
