extension ApplicationHostService {
    /// How an ``ApplicationHostService`` reacts to launch failures and to cancellation, and the keys it logs
    /// under.
    public struct Configuration: Sendable {
        /// What the service does when `launch()` completes but some launch hooks threw.
        ///
        /// That happens only under the host's `launchFailurePolicy` `.continue`: the host is active, and
        /// `launch()` threw `hookFailed`. A launch that aborted (policy `.abort`, a module's own `.abort`, or a
        /// timeout under `.fail`) has already terminated the host, so the service always throws then.
        public struct LaunchFailureHandling: Hashable, Sendable, CustomStringConvertible {
            private enum Base: String, Hashable, Sendable {
                case stop
                case keepRunning
            }

            private let base: Base

            /// Terminate the host, then throw ``ApplicationHostServiceError/Code/launchFailed``, so the group
            /// tears down. The default.
            public static let stop = LaunchFailureHandling(base: .stop)
            /// Log the failed hooks at error level and keep running until the group shuts down.
            public static let keepRunning = LaunchFailureHandling(base: .keepRunning)

            public var description: String { base.rawValue }
        }

        /// What a launch that completed with failed hooks does. Defaults to ``LaunchFailureHandling/stop``.
        public var launchFailureHandling: LaunchFailureHandling

        /// How long past the host's `terminateDeadline` a cancelled service still waits for `terminate()`
        /// to report, measured on the host's clock. 1 s by default.
        ///
        /// The host enforces its deadline on the `willTerminate` hooks; this margin lets it report
        /// `deadlineExceeded` before the service gives up waiting. With no `terminateDeadline` on the host,
        /// a cancelled service waits for `terminate()` however long it takes.
        public var cancellationGrace: Duration

        /// The metadata keys of the records the service logs itself: the participant count and the
        /// duration of its launch record, and the code, state and failures of its errors.
        /// `LifecycleLogging.Keys()` by default; give it the keys of the host's ``LifecycleLogging`` so
        /// that both log under the same names.
        public var loggingKeys: LifecycleLogging.Keys

        /// Creates a configuration.
        public init(
            launchFailureHandling: LaunchFailureHandling = .stop,
            cancellationGrace: Duration = .seconds(1),
            loggingKeys: LifecycleLogging.Keys = LifecycleLogging.Keys()
        ) {
            self.launchFailureHandling = launchFailureHandling
            self.cancellationGrace = cancellationGrace
            self.loggingKeys = loggingKeys
        }
    }
}
