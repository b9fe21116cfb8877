/// An error thrown by an ``ApplicationHost``.
///
/// Match on ``code``; read the other properties for details. The ``description`` says what happened,
/// which module and event were involved, and what to do about it.
///
/// ```swift
/// do {
///     try await host.enterBackground()
/// } catch let error where error.code == .hookFailed {
///     for failure in error.failures { logger.error("\(failure)") }
/// }
/// ```
public struct LifecycleError: Error, Sendable, CustomStringConvertible {
    /// The kind of a ``LifecycleError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidTransition
            case hookFailed
            case launchAborted
            case reentrantCall
            case cancelled
            case invalidRequest
            case timedOut
            case deadlineExceeded
            case notReady
            case registrationFailed
            case removalFailed
            case reconfigurationFailed
            case interrupted
            case workFailed
        }

        private let base: Base

        /// The request is not allowed in the host's current state. Nothing was delivered.
        public static let invalidTransition = Code(base: .invalidTransition)
        /// One or more hooks threw. Every other participant still received the event, and the request
        /// completed (its state change happened). ``LifecycleError/failures`` lists every failure.
        public static let hookFailed = Code(base: .hookFailed)
        /// A launch hook threw under ``ApplicationHost/Configuration/LaunchFailurePolicy/abort``: launch
        /// stopped, the participants that had launched received `willTerminate` in reverse order, and the
        /// host is terminated.
        public static let launchAborted = Code(base: .launchAborted)
        /// A host method was awaited from inside a hook of the same host, which would deadlock. Nothing
        /// was queued.
        ///
        /// The error is thrown inside the hook; if the hook lets it escape, the ``hookFailed`` error of the
        /// event in progress names the module.
        public static let reentrantCall = Code(base: .reentrantCall)
        /// The task awaiting the request was cancelled. The request stays queued and is still delivered;
        /// its errors, if any, go to ``ApplicationHost/Configuration/onUnobservedError``.
        public static let cancelled = Code(base: .cancelled)
        /// The request cannot be posted: `send(_:)` of a custom event needs the event value, and
        /// `waitUntilIdle()` is not a request. Nothing was delivered.
        public static let invalidRequest = Code(base: .invalidRequest)
        /// A hook ran past its budget under ``ApplicationHost/Configuration/TimeoutPolicy/fail``: the request
        /// stopped there. ``LifecycleError/failures`` holds the ``HookTimeout``.
        public static let timedOut = Code(base: .timedOut)
        /// `terminate()` (or `remove(_:)`) ran past ``ApplicationHost/Configuration/terminateDeadline``: the hooks still to
        /// run were abandoned (``LifecycleError/abandoned``) and the host is terminated.
        public static let deadlineExceeded = Code(base: .deadlineExceeded)
        /// `terminate()` was interrupted by ``ApplicationHost/interruptTermination()``: the `willTerminate`
        /// hook already running finished, the ones not yet started were skipped
        /// (``LifecycleError/abandoned``), and the host is terminated.
        public static let interrupted = Code(base: .interrupted)
        /// `waitUntilReady` cannot succeed: launch aborted or the host terminated first, or the module named
        /// is not a participant.
        public static let notReady = Code(base: .notReady)

        /// `register(_:)` could not add the module: it is already a participant, disabled in this
        /// environment, a dependency is missing, or its initializer threw (``LifecycleError/underlyingError``
        /// says which; nothing was delivered) — or its catch-up failed under an aborting policy
        /// (``LifecycleError/failures``; the module was taken out again). The other participants are
        /// unaffected.
        public static let registrationFailed = Code(base: .registrationFailed)
        /// `remove(_:)` was refused: the module is not a participant, or modules that stay depend on it
        /// (``LifecycleError/underlyingError``). Nothing was delivered and nothing changed.
        public static let removalFailed = Code(base: .removalFailed)
        /// `reloadModules(_:)` or `releaseQuarantine(_:)` was refused: the module switches cannot be read or
        /// name no module (a ``ModuleSwitchesError`` in ``LifecycleError/underlyingError``), or the module is
        /// not quarantined. Nothing was delivered and nothing changed.
        public static let reconfigurationFailed = Code(base: .reconfigurationFailed)

        /// A module's work failed past its policy, and the policy terminates the application
        /// (``ApplicationHost/terminationFailure``): the host terminated gracefully.
        /// ``LifecycleError/underlyingError`` names the module, the work and the failure.
        public static let workFailed = Code(base: .workFailed)
        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// The request that failed.
    public let request: HostRequest
    /// The host's state when the request was refused or failed.
    public let state: ApplicationState
    /// Every hook that threw while the request was delivered, in delivery order.
    public let failures: [HookFailure]
    /// For ``Code/hookFailed`` on an event with a Bool result: the combined result of the participants
    /// that answered.
    public let result: Bool?
    /// For ``Code/hookFailed`` during launch: the combined results of the two launch events.
    public package(set) var launchResult: LaunchResult?
    /// For ``Code/launchAborted``: the participants that received `willTerminate` in the rollback, in
    /// order.
    public let rolledBack: [Participant]
    /// For ``Code/deadlineExceeded``: the participants whose `willTerminate` was abandoned (the one running
    /// at the deadline, then those never reached). For ``Code/interrupted``: those whose `willTerminate`
    /// never started.
    public package(set) var abandoned: [Participant] = []
    /// For ``Code/deadlineExceeded`` and ``Code/launchAborted``: the modules' work that did not stop
    /// within its grace periods and was abandoned, as `Module.work` (Docs/Work.md).
    public package(set) var abandonedWork: [String] = []
    /// For ``Code/registrationFailed`` and ``Code/removalFailed``: why the module could not be added or
    /// removed (a `ManifestError` from `LifecycleProxy`), when it was refused before anything was
    /// delivered.
    public package(set) var underlyingError: (any Error)?
    /// For ``Code/registrationFailed`` after a catch-up: whether a timeout under `.fail`, rather than a
    /// hook that threw under `abort`, took the module out.
    public package(set) var catchUpTimedOut = false
    /// For ``Code/hookFailed`` after `reloadModules(_:)` or `releaseQuarantine(_:)`: what changed all the
    /// same.
    public package(set) var moduleChanges: ModuleChanges?
    /// For ``Code/reentrantCall``: the event whose delivery was in progress.
    public let eventInProgress: LifecycleEvent?
    /// Where the failing host method was called.
    public let file: String
    /// Where the failing host method was called.
    public let line: Int

    package init(
        code: Code,
        request: HostRequest,
        state: ApplicationState,
        failures: [HookFailure] = [],
        result: Bool? = nil,
        rolledBack: [Participant] = [],
        eventInProgress: LifecycleEvent? = nil,
        file: String,
        line: Int
    ) {
        self.code = code
        self.request = request
        self.state = state
        self.failures = failures
        self.result = result
        self.rolledBack = rolledBack
        self.eventInProgress = eventInProgress
        self.launchResult = nil
        self.file = file
        self.line = line
    }

    public var description: String {
        switch code {
        case .invalidTransition:
            let allowed = HostRequest.allowed(in: state)
            let fix: String
            switch state {
            case .terminated:
                fix = "A terminated host delivers nothing more; create a new ApplicationHost."
            case .notRunning:
                fix = "Call launch() first."
            default:
                let events = state.isRunning ? ["receiveMemoryWarning()", "open(_:)", "send(_:)"] : []
                fix = "Allowed in \(state): \((allowed.map(\.description) + events).joined(separator: ", "))."
            }
            return "Cannot \(request) while the host is \(state); nothing was delivered. \(fix) (at \(file):\(line))"
        case .hookFailed:
            let count = failures.count == 1 ? "1 hook" : "\(failures.count) hooks"
            var text = "\(count) failed during \(request): "
            text += failures.map(\.description).joined(separator: "; ")
            switch request.kind {
            case .register:
                text += ". Only the new module received its catch-up, and it went on; the module stays, and the "
                text += "host is \(state)."
            case .remove:
                text += ". Only the removed module received its teardown, and it went on; the module was removed, and "
                text += "the host is \(state)."
            default:
                text += ". Every other participant still received the event and the host is now \(state)."
            }
            if let result { text += " Combined result of the others: \(result)." }
            if let launchResult {
                text += " Launch results: willFinishLaunching \(launchResult.willFinishLaunching),"
                text += " didFinishLaunching \(launchResult.didFinishLaunching)."
            }
            text += " Fix the module's hook, or catch this error to carry on. (at \(file):\(line))"
            return text
        case .launchAborted:
            var text = "Launch aborted: "
            text += failures.map(\.description).joined(separator: "; ")
            if rolledBack.isEmpty {
                text += ". No other participant had been reached, so none received willTerminate."
            } else {
                text += ". Rolled back: \(rolledBack.map(\.name).joined(separator: ", ")) received willTerminate."
            }
            text += " The host is terminated. Fix the failing launch hook, or set "
            text += "configuration.launchFailurePolicy = .continue to report launch failures and keep going."
            text += " (at \(file):\(line))"
            return text
        case .reentrantCall:
            let during = eventInProgress.map { " during \($0.name)" } ?? ""
            return "\(request) was awaited from inside a hook\(during); awaiting it there would deadlock, "
                + "because the request in progress cannot finish until the hook returns. Nothing was queued. "
                + "Post it instead with context.events.post(...): it is delivered right after the current "
                + "request. (at \(file):\(line))"
        case .cancelled:
            return "The task awaiting \(request) was cancelled, so it stopped waiting. The request stays queued "
                + "and will still be delivered; its errors go to configuration.onUnobservedError. "
                + "(at \(file):\(line))"
        case .timedOut:
            return "\(request) stopped: " + failures.map(\.description).joined(separator: "; ")
                + ". The timeout policy is .fail, so nothing more of the request was delivered; the host is "
                + "\(state). Use .degrade to go on without the slow module. (at \(file):\(line))"
        case .deadlineExceeded:
            let names = abandoned.map(\.name).joined(separator: ", ")
            let outcome =
                request == .terminate || request == .launch
                ? "The host is terminated." : "The module was removed all the same; the host is \(state)."
            let work =
                abandonedWork.isEmpty
                ? ""
                : "abandoned work that ignored cancellation: \(abandonedWork.joined(separator: ", ")) (make it "
                    + "return when cancelled, or raise its policy's cancellationGrace)"
            guard !abandoned.isEmpty else {
                return "\(request) ran past its deadline; \(work). \(outcome) (at \(file):\(line))"
            }
            return "\(request) ran past its deadline; abandoned willTerminate of: \(names)"
                + (work.isEmpty ? "" : "; \(work)") + ". \(outcome) "
                + "Make those hooks return sooner, or raise configuration.terminateDeadline. (at \(file):\(line))"
        case .interrupted:
            let names = abandoned.map(\.name).joined(separator: ", ")
            return "\(request) was interrupted (interruptTermination()): willTerminate was skipped for: \(names). "
                + "Hooks already running finished; the host is terminated. Send the interrupt only when a fast exit "
                + "matters more than those modules' cleanup. (at \(file):\(line))"
        case .notReady:
            return "The host will not become ready: it is \(state) (launch aborted, or it terminated before every "
                + "module finished launching), or the module waited for is not a participant. (at \(file):\(line))"
        case .registrationFailed:
            if let underlyingError {
                return "\(request) was refused: \(underlyingError) The host is unchanged and \(state). "
                    + "(at \(file):\(line))"
            }
            let cause =
                catchUpTimedOut
                ? "A launch hook ran past its budget and the timeout policy is .fail, so the module was taken out "
                    + "again. Make the hook return sooner, raise its budget, or use .degrade."
                : "Its launch failure policy is abort, so the module was taken out again. Fix the hook, or give the "
                    + "module failurePolicy .isolate to keep it despite the failure."
            return "\(request) failed while the module caught up with the host: "
                + failures.map(\.description).joined(separator: "; ")
                + ". \(cause) No other participant was affected and the host is still \(state). (at \(file):\(line))"
        case .reconfigurationFailed:
            return "\(request) was refused: \(underlyingError.map { "\($0)" } ?? "unknown reason") "
                + "Nothing was delivered; the modules that were on stay on, and the host is still \(state). "
                + "(at \(file):\(line))"
        case .removalFailed:
            return "\(request) was refused: \(underlyingError.map { "\($0)" } ?? "unknown reason") "
                + "The module stays and the host is still \(state). (at \(file):\(line))"
        case .workFailed:
            return "The application terminated itself: \(underlyingError.map { "\($0)" } ?? "a module's work failed"). "
                + "The host terminated gracefully and is \(state). (at \(file):\(line))"
        case .invalidRequest:
            return "\(request) cannot be posted: post the custom event value itself, "
                + "context.events.post(MyEvent(...)), and await waitUntilIdle() on the host. "
                + "Nothing was delivered. (at \(file):\(line))"
        default:
            return "\(code) for \(request) in state \(state) (at \(file):\(line))"
        }
    }
}
