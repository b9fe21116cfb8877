public import LifecycleCore

/// An error thrown by ``ApplicationHostService``.
///
/// Match on ``code``. ``lifecycleErrors`` holds what the host reported, and ``failures`` the hooks that
/// threw or timed out: participant, event and error. The ``description`` names the modules and events
/// involved and says what to do.
///
/// ```swift
/// do {
///     try await serviceGroup.run()
/// } catch let error as ApplicationHostServiceError where error.code == .launchFailed {
///     for failure in error.failures { logger.critical("\(failure)") }
/// }
/// ```
public struct ApplicationHostServiceError: Error, Sendable, CustomStringConvertible {
    /// The kind of an ``ApplicationHostServiceError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case hostAlreadyStarted
            case launchFailed
            case shutdownFailed
            case shutdownTimedOut
            case notReady
        }

        private let base: Base

        /// `run()` was called with a host that had already launched (or terminated). The service launches
        /// its host itself, once. Nothing was delivered.
        public static let hostAlreadyStarted = Code(base: .hostAlreadyStarted)
        /// The host's `launch()` threw. An aborted launch has already rolled back and terminated the host;
        /// a launch that completed with failed hooks is terminated by the service before it throws, unless
        /// ``ApplicationHostService/Configuration/LaunchFailureHandling/keepRunning`` says to go on.
        public static let launchFailed = Code(base: .launchFailed)
        /// `enterBackground()` or `terminate()` reported failures during shutdown: hooks that threw, or a
        /// `terminate()` that ran past the host's `terminateDeadline`. The host is terminated.
        public static let shutdownFailed = Code(base: .shutdownFailed)
        /// The service was cancelled, and `terminate()` did not finish within the host's
        /// `terminateDeadline` plus ``ApplicationHostService/Configuration/cancellationGrace``. The service
        /// stopped waiting so that its group can finish; the host may still be delivering.
        public static let shutdownTimedOut = Code(base: .shutdownTimedOut)
        /// ``ApplicationHostService/waitUntilReady()`` cannot succeed: launch failed, or the host terminated
        /// first. The service's own `run()` reports why.
        public static let notReady = Code(base: .notReady)

        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// What the host threw, in the order it happened: the launch error, or the errors of
    /// `enterBackground()` and `terminate()`.
    public let lifecycleErrors: [LifecycleError]
    /// The host's state when the error was thrown.
    public let state: ApplicationState
    /// For ``Code/shutdownTimedOut``: the time the service waited after it was cancelled.
    public let waited: Duration?
    /// Where the ``ApplicationHostService`` was created.
    public let file: String
    /// Where the ``ApplicationHostService`` was created.
    public let line: Int

    init(
        code: Code,
        lifecycleErrors: [LifecycleError] = [],
        state: ApplicationState,
        waited: Duration? = nil,
        file: String,
        line: Int
    ) {
        self.code = code
        self.lifecycleErrors = lifecycleErrors
        self.state = state
        self.waited = waited
        self.file = file
        self.line = line
    }

    /// Every hook that threw or timed out, in the order the host reported them.
    public var failures: [HookFailure] { lifecycleErrors.flatMap(\.failures) }

    public var description: String {
        let origin = "(ApplicationHostService created at \(file):\(line))"
        let reported = lifecycleErrors.map(\.description).joined(separator: " Then: ")
        switch code {
        case .hostAlreadyStarted:
            return "ApplicationHostService cannot run: its host is already \(state), and the service launches its "
                + "host itself. Give each ApplicationHostService a new ApplicationHost, and do not call launch() "
                + "on it yourself. Nothing was delivered. \(origin)"
        case .launchFailed:
            return "ApplicationHostService: launch failed, so the service throws and its ServiceGroup tears "
                + "down. \(reported) The host is \(state). Fix the failing launch hook. To serve despite hooks "
                + "that throw, use launchFailurePolicy .continue on the host and launchFailureHandling "
                + ".keepRunning on the service. \(origin)"
        case .shutdownFailed:
            return "ApplicationHostService: shutting the host down reported failures. \(reported) The host is "
                + "\(state). Fix those hooks, or make them return within the host's terminateDeadline. \(origin)"
        case .shutdownTimedOut:
            let wait = waited.map { " (waited \($0))" } ?? ""
            return "ApplicationHostService was cancelled, and terminate() did not finish within the host's "
                + "terminateDeadline plus the service's cancellationGrace\(wait). The host is still \(state): a "
                + "request ahead of terminate() is still being delivered. The service stopped waiting so its "
                + "ServiceGroup can finish. Make launch and shutdown hooks return sooner, or raise "
                + "terminateDeadline. \(origin)"
        case .notReady:
            return "The host of ApplicationHostService did not become ready, so whatever waited for it (an HTTP "
                + "server, say) does not start. The host is \(state). \(reported) The service's run() throws the "
                + "cause. \(origin)"
        default:
            return "\(code): the host is \(state). \(reported) \(origin)"
        }
    }
}
