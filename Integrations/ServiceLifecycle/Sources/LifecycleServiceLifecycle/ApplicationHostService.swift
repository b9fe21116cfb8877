public import LifecycleCore
public import Logging
public import ServiceLifecycle

/// Runs an `ApplicationHost` as a `Service` of a swift-service-lifecycle `ServiceGroup`: the group's start
/// launches the host, the group's shutdown terminates it, and a host that terminates by itself ends the
/// service.
///
/// ```swift
/// let group = ServiceGroup(
///     services: [ApplicationHostService(host: host, logger: logger), httpServer],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// ## What `run()` delivers
/// - **Start**: `launch()`. The service then waits for graceful shutdown, cancellation, or the host to
///   terminate by itself.
/// - **Graceful shutdown** (a signal in `gracefulShutdownSignals`, `triggerGracefulShutdown()`, or a
///   service that ends with the termination behaviour `.gracefullyShutdownGroup`): `enterBackground()`,
///   then `terminate()`. The modules receive `willResignActive`, then `didEnterBackground`, then
///   `willTerminate`, each in reverse delivery order. `enterBackground()` is skipped when the host is
///   already in the background. Then `run()` returns.
/// - **Cancellation** (the group is cancelled, or escalates a graceful shutdown that took too long):
///   `terminate()` alone, so the modules receive only `willTerminate`. The service waits for it at most
///   the host's `terminateDeadline` plus ``Configuration/cancellationGrace``, then throws
///   ``ApplicationHostServiceError/Code/shutdownTimedOut``. Set the group's `maximumCancellationDuration`
///   longer than that, or the group ends the process before the hooks are through.
/// - **Launch failure**: `run()` throws ``ApplicationHostServiceError/Code/launchFailed``, which names the
///   hooks that failed, so the group tears down. See ``Configuration/LaunchFailureHandling``.
/// - Hooks that throw while shutting down make `run()` throw ``ApplicationHostServiceError/Code/shutdownFailed``
///   after the host is terminated.
/// - **The host terminates by itself** (a module posted `terminate`, or code called `terminate()` on the
///   host): `run()` returns without an error and delivers nothing more. The failures of those
///   `willTerminate` hooks go to the host's `onUnobservedError`, since nobody awaited that request. The
///   group then does what the service's `successTerminationBehavior` says; in swift-service-lifecycle 2.13:
///   `.cancelGroup` (the default) cancels the other services, and the group's `run()` throws
///   `ServiceGroupError.serviceFinishedUnexpectedly`; `.gracefullyShutdownGroup` shuts the other services
///   down gracefully, in reverse order, and the group's `run()` returns; `.ignore` keeps the other services
///   running. If the group is already shutting down gracefully and has not reached this service yet, the
///   group takes the early return as unexpected whatever the behaviour: it cancels the services still
///   running and throws `serviceFinishedUnexpectedly`.
///
/// ## Where to list it in the group
/// A `ServiceGroup` starts its services together and shuts them down one at a time, in reverse order of its
/// `services` array. List the host service **first**: it then stops **last**, after an HTTP server listed
/// after it has stopped accepting connections and finished its in-flight requests. So the modules'
/// `willTerminate` hooks run once no request uses what they close. Listed after the server, the host would
/// terminate while requests are still in flight.
///
/// The group starts services together, so a server may start accepting requests before launch is through.
/// Make it wait for ``waitUntilReady()``; with Hummingbird, in `beforeServerStarts`.
///
/// ## Reporting
/// The service logs its own steps to `logger`: launch and shutdown at `info`, cancellation and a host that
/// terminated by itself at `notice`, failures at `error`, with metadata under ``Configuration/loggingKeys``.
/// For every delivery and for the errors nobody awaits, configure the host with
/// `ApplicationHost.Configuration.logging(to:)` when you create it.
public struct ApplicationHostService: Service, CustomStringConvertible {
    /// The host the service launches and terminates.
    public let host: ApplicationHost
    /// How the service reacts to launch failures and to cancellation, and the keys it logs under.
    public let configuration: Configuration
    /// Where the service logs its own steps.
    public let logger: Logger
    private let file: String
    private let line: Int
    /// Whether `run()` launched the host: `true` once `launch()` returned and the service goes on, `false`
    /// when it will not. Shared by the copies of the service.
    private let launched = FirstResult<Bool>()

    /// Creates a service that runs `host`, which must not have launched yet.
    ///
    /// - Parameters:
    ///   - host: A host that has not launched. The service launches it when its group starts.
    ///   - configuration: How to react to launch failures and to cancellation, and the keys to log under.
    ///   - logger: Where the service logs what it does.
    public init(
        host: ApplicationHost,
        configuration: Configuration = Configuration(),
        logger: Logger,
        file: String = #fileID,
        line: Int = #line
    ) {
        self.host = host
        self.configuration = configuration
        self.logger = logger
        self.file = file
        self.line = line
    }

    public var description: String { "ApplicationHostService(\(file):\(line))" }

    /// Launches the host, waits for graceful shutdown or cancellation, and terminates the host; or returns
    /// once the host terminated by itself, without an error.
    ///
    /// - Throws: ``ApplicationHostServiceError``: ``ApplicationHostServiceError/Code/hostAlreadyStarted``
    ///   when the host has launched before; ``ApplicationHostServiceError/Code/launchFailed`` when launch
    ///   fails; ``ApplicationHostServiceError/Code/shutdownFailed`` when hooks fail while shutting down;
    ///   ``ApplicationHostServiceError/Code/shutdownTimedOut`` when a cancelled service stopped waiting for
    ///   `terminate()`.
    public func run() async throws(ApplicationHostServiceError) {
        // Every way out before a successful launch tells `waitUntilReady()` that the host will not launch.
        defer { launched.offer(false) }
        let initialState = host.state
        guard initialState == .notRunning else {
            let error = makeError(.hostAlreadyStarted, state: initialState)
            log(error)
            throw error
        }

        logger.info(
            "Launching the application host",
            metadata: [configuration.loggingKeys.participants: "\(host.participants.count)"]
        )
        let started = ContinuousClock.now
        do {
            try await host.launch()
            logger.info(
                "The application host launched",
                metadata: [configuration.loggingKeys.duration: "\(started.duration(to: .now).formatted)"]
            )
        } catch let error where error.code == .cancelled {
            logger.notice("Cancelled during launch: terminating the application host once launch is through")
            try await stop(.cancellation)
            return
        } catch {
            try await launchFailed(error)
        }

        launched.offer(true)
        if Task.isShuttingDownGracefully {
            logger.notice("Graceful shutdown was requested during launch: shutting down at once")
        }
        switch await waitForStop() {
        case .gracefulShutdown:
            logger.info("Graceful shutdown: entering the background, then terminating the application host")
            try await stop(.gracefulShutdown)
        case .cancellation:
            logger.notice("Cancelled: terminating the application host")
            try await stop(.cancellation)
        case .hostTerminated:
            // Nothing left to deliver. The hooks of a terminate nobody awaited report their failures to the
            // host's `onUnobservedError`, not here, so the service returns without an error.
            logger.notice("The application host terminated by itself: the service returns")
        }
    }

    /// Returns once this service has launched the host and every module is ready; for a service that must
    /// not start before, such as an HTTP server.
    ///
    /// It waits for this service's `run()` to launch the host, so call it from another service of the same
    /// group. "Launched" means `launch()` returned: every module received `didFinishLaunching` and
    /// `didBecomeActive`. With the host's `didFinishLaunchingWaitsForWarmUp` off, it also waits for the
    /// warm-up that runs after launch.
    ///
    /// When launch fails, or the service stops before, this throws
    /// ``ApplicationHostServiceError/Code/notReady``, but only once its task is cancelled or shut down
    /// (at most 2 s later). The group does that as soon as this service's `run()` throws, so the group
    /// reports the service's own error, which says why launch failed, rather than this one.
    ///
    /// ```swift
    /// application.beforeServerStarts { try await hostService.waitUntilReady() }   // Hummingbird
    /// ```
    public func waitUntilReady() async throws(ApplicationHostServiceError) {
        var failure: LifecycleError?
        if await launched.value {
            do {
                try await host.waitUntilReady()
                return
            } catch {
                failure = error
            }
        }
        await waitUntilStopped(atMost: .seconds(2))
        throw makeError(.notReady, lifecycleErrors: failure.map { [$0] } ?? [], state: host.state)
    }

    // MARK: - Private

    private enum StopReason {
        case gracefulShutdown
        case cancellation
        case launchFailure
    }

    /// What ended the wait of a launched service.
    private enum Wake: Sendable {
        case gracefulShutdown
        case cancellation
        /// The host terminated without the service: a module posted `terminate`, or code called
        /// `terminate()` on the host.
        case hostTerminated
    }

    /// Waits for graceful shutdown, cancellation, or the host terminating without the service, whichever
    /// comes first.
    ///
    /// The two waits are child tasks of a task group: the first to report wins, the other is cancelled,
    /// and the group awaits it before this returns, so no task outlives the call. Cancelling the service
    /// cancels both; the graceful-shutdown wait then reports the cancellation.
    private func waitForStop() async -> Wake {
        let host = self.host
        return await withTaskGroup(of: Wake?.self) { group in
            group.addTask {
                do {
                    try await gracefulShutdown()
                    return .gracefulShutdown
                } catch {
                    // `gracefulShutdown()` throws only `CancellationError`: the service was cancelled.
                    return .cancellation
                }
            }
            group.addTask {
                do throws(LifecycleError) {
                    try await host.waitUntilTerminated()
                    return .hostTerminated
                } catch {
                    // Cancelled: the other wait won, or reports the cancellation of the service.
                    return nil
                }
            }
            for await case let wake? in group {
                group.cancelAll()
                return wake
            }
            return .cancellation  // Unreachable: the graceful-shutdown wait always reports.
        }
    }

    /// Handles a launch that threw: throws, unless the host is running and the configuration keeps it.
    private func launchFailed(_ error: LifecycleError) async throws(ApplicationHostServiceError) {
        if error.code == .invalidTransition {
            // Another caller launched the host between the state check and this launch: not ours to stop.
            let failure = makeError(.hostAlreadyStarted, lifecycleErrors: [error], state: host.state)
            log(failure)
            throw failure
        }
        if host.state.isRunning, configuration.launchFailureHandling == .keepRunning {
            LifecycleLogging(logger: logger, keys: configuration.loggingKeys).log(
                error,
                message: "Launch hooks failed; the application host keeps running"
            )
            return
        }
        var errors = [error]
        if host.state.isRunning {
            logger.error("Launch failed: terminating the application host")
            errors += await terminateAfterLaunchFailure()
        }
        let failure = makeError(.launchFailed, lifecycleErrors: errors, state: host.state)
        log(failure)
        throw failure
    }

    private func terminateAfterLaunchFailure() async -> [LifecycleError] {
        do {
            try await stop(.launchFailure)
            return []
        } catch {
            return error.lifecycleErrors
        }
    }

    /// Delivers the shutdown sequence of `reason` in a task of its own, so that cancellation of the service
    /// cannot abandon it halfway; once the service is cancelled, waits for it at most the host's terminate
    /// deadline plus the grace.
    private func stop(_ reason: StopReason) async throws(ApplicationHostServiceError) {
        let host = self.host
        let backgroundFirst = reason == .gracefulShutdown
        let outcome = FirstResult<[LifecycleError]?>()
        Task {
            var errors: [LifecycleError] = []
            if backgroundFirst, host.state == .active || host.state == .inactive {
                do throws(LifecycleError) {
                    try await host.enterBackground()
                } catch let error where error.code == .invalidTransition {
                    // Moved to the background or terminated meanwhile, by a request a module posted.
                } catch {
                    errors.append(error)
                }
            }
            do throws(LifecycleError) {
                try await host.terminate()
            } catch let error where error.code == .invalidTransition && host.state == .terminated {
                // Terminated already, by a request a module posted.
            } catch {
                errors.append(error)
            }
            outcome.offer(errors)
        }

        let bound = host.configuration.terminateDeadline.map { $0 + configuration.cancellationGrace }
        let clock = host.configuration.clock
        let waitStarted = ContinuousClock.now
        let errors = await withTaskCancellationHandler {
            await outcome.value
        } onCancel: {
            if let bound { outcome.offer(nil, after: bound, on: clock) }
        }

        guard let errors else {
            let error = makeError(.shutdownTimedOut, state: host.state, waited: waitStarted.duration(to: .now))
            log(error)
            throw error
        }
        guard errors.isEmpty else {
            let error = makeError(.shutdownFailed, lifecycleErrors: errors, state: host.state)
            if reason != .launchFailure { log(error) }
            throw error
        }
        logger.info("The application host terminated")
    }

    private func makeError(
        _ code: ApplicationHostServiceError.Code,
        lifecycleErrors: [LifecycleError] = [],
        state: ApplicationState,
        waited: Duration? = nil
    ) -> ApplicationHostServiceError {
        ApplicationHostServiceError(
            code: code,
            lifecycleErrors: lifecycleErrors,
            state: state,
            waited: waited,
            file: file,
            line: line
        )
    }

    private func log(_ error: ApplicationHostServiceError) {
        LifecycleLogging(logger: logger, keys: configuration.loggingKeys).log(error)
    }
}

/// Returns when the current task is cancelled or shut down gracefully, or after `limit`.
private func waitUntilStopped(atMost limit: Duration) async {
    let stopped = FirstResult<Void>()
    stopped.offer((), after: limit, on: ContinuousClock())
    await withTaskCancellationHandler {
        await withGracefulShutdownHandler {
            await stopped.value
        } onGracefulShutdown: {
            stopped.offer(())
        }
    } onCancel: {
        stopped.offer(())
    }
}
