public import LifecycleCore

/// Keeps an `ApplicationHost` running in a server or CLI process, and turns process signals into
/// lifecycle events, so the program writes no signal handling or shutdown plumbing of its own.
///
/// ```swift
/// let host = try ApplicationHost(manifest: .discovered)
/// let status = await HostRunner(host: host).run()  // launch, serve, terminate on SIGTERM or Ctrl-C
/// exit(status.code)
/// ```
///
/// ``run()`` launches the host, then serves until a signal mapped to ``SignalAction/terminate`` or
/// ``SignalAction/interrupt`` arrives, or until the host terminates itself (a module posted `terminate`).
/// What each signal does is ``Configuration/signals``, configuration rather than code: by default `SIGTERM`
/// and `SIGINT` terminate, a second `SIGINT` cuts termination short, `SIGHUP` sends ``ReloadRequested``,
/// and `SIGUSR1`/`SIGUSR2` move the host to the background and back.
///
/// ## Order
/// Requests reach the host in the order their signals arrived, one at a time: a signal's request starts
/// once the one before it completed. Termination waits for them too — except the interruption, which
/// takes effect at once.
///
/// ## Ending
/// ``run()`` returns an ``Exit`` whose ``Exit/code`` is the documented exit code. Every
/// failure along the way — a signal's request that threw, a launch that reported failing hooks — is
/// passed to ``Configuration/report`` as it happens; nothing is dropped.
public struct HostRunner: Sendable {
    /// The host this runner runs.
    public let host: ApplicationHost
    /// The runner's settings.
    public let configuration: Configuration
    /// Where the notifications go; the first that fails in a run is reported.
    private let notifications: SupervisorNotifications

    /// A runner for `host`.
    public init(host: ApplicationHost, configuration: Configuration = Configuration()) {
        self.host = host
        self.configuration = configuration
        notifications = SupervisorNotifications(configuration.systemd, report: configuration.report)
    }

    /// Runs the host under the process's signals: handles the signals of ``Configuration/signals`` until
    /// it returns, then gives them their default action back.
    ///
    /// Call it once per process: a signal has one handler per process.
    public func run() async -> Exit {
        let signals = ProcessSignals(configuration.signals.actions.keys)
        defer { signals.remove() }
        // Before launch, so that every signal sent once the program reports it serves is seen.
        await signals.waitUntilWatching()
        return await run(signals: signals.stream)
    }

    /// Runs the host with `signals` in place of the process's: what tests use to drive a runner without
    /// sending signals to the test process. Signals not in ``Configuration/signals`` are ignored.
    ///
    /// Everything the run starts (forwarding signals, watching for the host's own termination, the
    /// requests, the supervisor's watchdog and status lines) is a child task of one task group, and ends
    /// with the run. Its time limits (the drain delay and the shutdown limit) are deadlines on the host's
    /// watchdog, on the host's configured clock.
    public func run(signals: AsyncStream<UnixSignal>) async -> Exit {
        notifications.start()
        let (inputs, input) = AsyncStream<Input>.makeStream()
        let (requests, queue) = AsyncStream<Request>.makeStream()
        let host = self.host
        let report = configuration.report
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals { input.yield(.signal(signal)) }
            }
            group.addTask {
                do {
                    try await host.waitUntilTerminated()
                    input.yield(.hostTerminated)
                } catch {
                    // Cancelled: the run is over.
                }
            }
            // One request at a time, in the order the signals came. When the run ends, cancelling this task
            // stops the wait for a request whose hook hangs (the host still delivers it), so the run returns.
            group.addTask {
                for await request in requests {
                    input.yield(.completed(request, await request.perform(on: host, report: report)))
                }
            }
            if let activity = reportActivity() { group.addTask(operation: activity) }
            var run = RunState()
            let status = await serve(&run, inputs, queue, input, &group)
            for deadline in [run.shutdownTimer, run.drain].compactMap({ $0 }) { host.context.watchdog.disarm(deadline) }
            queue.finish()
            input.finish()
            group.cancelAll()
            return status
        }
    }

    /// Launches the host unless it runs already, then handles inputs until the run is over.
    private func serve(
        _ run: inout RunState,
        _ inputs: AsyncStream<Input>,
        _ queue: AsyncStream<Request>.Continuation,
        _ input: AsyncStream<Input>.Continuation,
        _ group: inout TaskGroup<Void>
    ) async -> Exit {
        switch host.state {
        case .notRunning:
            notify("STATUS=launching")
            queue.yield(Request(.launch))
        case .active, .inactive, .background:
            run.launched = true
            report(.launched(nil))
            notify("READY=1\nSTATUS=serving")
            petWatchdog(&group)
        case .launching, .terminating, .terminated:
            let fix =
                host.state == .launching
                ? "let the runner launch it, or start the runner once launch() returned"
                : "a terminated host delivers nothing more; give the runner a new ApplicationHost"
            let status = Exit(.launchFailed, detail: "the host was \(host.state) when the runner started: \(fix)")
            report(.exiting(status))
            return status
        }
        var status: Exit?
        for await next in inputs {
            status = handle(next, &run, queue, input, &group)
            if status != nil { break }
        }
        let final = status ?? Exit(.clean)
        report(.exiting(final))
        return final
    }

    private func report(_ report: Report) { configuration.report(report) }

    /// Tells the supervisor `state`, if it listens (``Configuration/systemd``).
    private func notify(_ state: String) { notifications.send(state) }

    /// Pets the supervisor's watchdog every ``SystemdNotifier/watchdogInterval``, from READY=1 (before it,
    /// systemd applies its start timeout instead) for as long as the host is responsive. It is a
    /// ``HostLiveness`` probe of that interval, so an HTTP liveness endpoint and the watchdog share one
    /// mechanism: each check waits until the host has handled every request queued, and sends `WATCHDOG=1`.
    /// A host stuck in a hook stops petting, and the supervisor restarts it.
    private func petWatchdog(_ group: inout TaskGroup<Void>) {
        guard let interval = configuration.systemd?.watchdogInterval else { return }
        let liveness = HostLiveness(host: host, interval: interval)
        let notifications = self.notifications
        group.addTask {
            // Not inside a hook, so it does not throw; it returns when the run cancels it.
            try? await liveness.run { notifications.send("WATCHDOG=1") }
        }
    }

    /// Tells the supervisor which module the host waits on, while a hook has run longer than
    /// ``Configuration/statusInterval``: every interval, a `STATUS=` line from `ApplicationHost.activity`
    /// ("launching: setup, waiting on DatabaseModule (3.0 s)"), so `systemctl status` shows why a start or
    /// a stop takes long. Nothing when no supervisor listens.
    private func reportActivity() -> (@Sendable () async -> Void)? {
        guard configuration.systemd != nil else { return nil }
        let host = self.host
        let notifications = self.notifications
        let interval = configuration.statusInterval
        return {
            var last: String?
            let clock = host.context.watchdog.clock
            while true {
                do { try await clock.sleep(for: interval) } catch { return }
                let now = host.activity
                guard now.waitingOn.contains(where: { $0.elapsed >= interval }) else { continue }
                let line = "STATUS=\(now)"
                if line != last { notifications.send(line) }
                last = line
            }
        }
    }

    /// Handles one input; returns the exit status once the run is over.
    private func handle(
        _ input: Input,
        _ run: inout RunState,
        _ queue: AsyncStream<Request>.Continuation,
        _ inputs: AsyncStream<Input>.Continuation,
        _ group: inout TaskGroup<Void>
    ) -> Exit? {
        switch input {
        case .signal(let signal):
            guard let action = configuration.signals[signal] else { return nil }
            report(.received(signal, action))
            switch action {
            case .ignore:
                break
            case .terminate, .interrupt:
                if !run.terminating {
                    run.terminating = true
                    notify("STOPPING=1\nSTATUS=terminating on \(signal)")
                    let watchdog = host.context.watchdog
                    if let readiness = configuration.readiness {
                        // Readiness turns 503 first; the modules go down once the load balancer had time to see it.
                        readiness.beginDraining()
                        run.drain = watchdog.arm(after: configuration.drainDelay) { _ in
                            queue.yield(Request(.terminate))
                            return nil
                        }
                    } else {
                        queue.yield(Request(.terminate))
                    }
                    let limit = effectiveShutdownLimit
                    run.shutdownTimer = watchdog.arm(after: limit) { _ in
                        inputs.yield(.shutdownLimitPassed(limit))
                        return nil
                    }
                } else if action == .interrupt, run.interruptedBy == nil {
                    run.interruptedBy = signal
                    host.interruptTermination()
                } else if action == .terminate {
                    report(.ignored(signal, because: "termination is already in progress"))
                }
            case .enterBackground, .enterForeground, .reload, .memoryWarning:
                if run.terminating {
                    report(.ignored(signal, because: SignalRequests.terminating))
                } else if let kind = Request.Kind(action, signal) {
                    if kind.isReload { notify(SystemdNotifier.reloading + "\nSTATUS=reloading on \(signal)") }
                    queue.yield(Request(kind, cause: (signal, action)))
                }
            }
            return nil

        case .completed(let request, let result):
            switch request.kind {
            case .launch:
                run.launched = true
                if case .failure(let error) = result, host.state == .terminated {
                    return Exit(.launchFailed, error: error)
                }
                report(.launched(result.error))
                // A termination asked for during launch has said STOPPING=1 already: no READY=1 after it.
                if !run.terminating, configuration.systemd != nil {
                    let ready = "READY=1\nSTATUS=serving" + (result.error == nil ? "" : "; launch reported failures")
                    if host.isReady {
                        notify(ready)
                        petWatchdog(&group)
                    } else {
                        // Warm-up goes on after launch returned, or work has not reported ready yet: ready
                        // once it is over, not before.
                        notify(
                            host.configuration.didFinishLaunchingWaitsForWarmUp
                                ? "STATUS=starting work" : "STATUS=warming up"
                        )
                        let host = self.host
                        group.addTask {
                            do { try await host.waitUntilReady() } catch { return }  // never ready: it terminates
                            inputs.yield(.warmedUp(ready))
                        }
                    }
                }
                // The host may have terminated itself during launch; then the watcher's word came first.
                if run.hostTerminated, !run.terminating { return selfTerminatedExit }
                return nil
            case .terminate:
                return status(ofTermination: result, run)
            default:
                if let cause = request.cause { report(.handled(cause.signal, cause.action, result.error)) }
                if request.kind.isReload, !run.terminating { notify("READY=1\nSTATUS=serving") }
                return nil
            }

        case .hostTerminated:
            run.hostTerminated = true
            // After launch completed, and with no termination of ours under way: the host stopped by itself.
            // (A launch that aborts terminates the host too; its result decides then.)
            guard run.launched, !run.terminating else { return nil }
            notify("STOPPING=1\nSTATUS=the host terminated itself")
            return selfTerminatedExit

        case .warmedUp(let ready):
            if !run.terminating {
                notify(ready)
                petWatchdog(&group)
            }
            return nil

        case .shutdownLimitPassed(let limit):
            report(.shutdownLimitPassed(limit))
            return Exit(
                .deadlineExceeded,
                detail: "terminate() did not return within the runner's shutdown limit of \(limit); the host was "
                    + "\(host.state). Raise configuration.shutdownLimit, or find the request or hook that hangs"
            )
        }
    }

    /// A host that terminated itself: a clean exit, unless a module's work failed past its policy and
    /// terminated it (``LifecycleCore/ApplicationHost/terminationFailure``).
    private var selfTerminatedExit: Exit {
        if let failure = host.terminationFailure { return Exit(.workFailed, error: failure) }
        return Exit(.clean, detail: "the host terminated itself (a terminate request from a module)")
    }

    private func status(ofTermination result: Result<Void, LifecycleError>, _ run: RunState) -> Exit {
        guard case .failure(let error) = result else { return Exit(.clean) }
        switch error.code {
        case .interrupted:
            return Exit(.interrupted(run.interruptedBy ?? .sigint), error: error)
        case .deadlineExceeded, .timedOut:
            return Exit(.deadlineExceeded, error: error)
        case .invalidTransition where host.state == .terminated:
            // The host terminated itself before our request reached it.
            return selfTerminatedExit
        default:
            return Exit(.terminateFailed, error: error)
        }
    }

    /// ``Configuration/shutdownLimit``, or its default.
    package var effectiveShutdownLimit: Duration {
        configuration.shutdownLimit ?? host.configuration.terminateDeadline.map { $0 + .seconds(1) } ?? .seconds(30)
    }
}

// MARK: - The run's inner workings

extension HostRunner {
    enum Input: Sendable {
        case signal(UnixSignal)
        case completed(Request, Result<Void, LifecycleError>)
        case hostTerminated
        case shutdownLimitPassed(Duration)
        /// A warm-up that ran after launch is over: the READY=1 line to send.
        case warmedUp(String)
    }

    struct RunState {
        /// Ends the run at ``Configuration/shutdownLimit`` after the terminating signal: a deadline on the
        /// host's watchdog.
        var shutdownTimer: HostWatchdog.Token?
        /// Starts termination once ``Configuration/drainDelay`` has passed after draining began.
        var drain: HostWatchdog.Token?
        var launched = false
        var terminating = false
        var hostTerminated = false
        var interruptedBy: UnixSignal?
    }

    /// One host request, and the signal that asked for it in place, if one did.
    struct Request: Sendable {
        enum Kind: Sendable {
            case launch, terminate
            /// The request of a non-terminating action, performed as ``SignalRequests`` performs it.
            case signal(SignalAction, UnixSignal)

            /// The request of an action that makes one in place; `nil` for termination and `ignore`.
            init?(_ action: SignalAction, _ signal: UnixSignal) {
                guard !action.terminates, action != .ignore else { return nil }
                self = .signal(action, signal)
            }

            var isReload: Bool {
                if case .signal(.reload, _) = self { return true }
                return false
            }
        }

        let kind: Kind
        /// The signal and action that made this request in place: its completion is reported as handled.
        /// `nil` for launch and termination, whose completions end or start the run.
        let cause: (signal: UnixSignal, action: SignalAction)?

        init(_ kind: Kind, cause: (signal: UnixSignal, action: SignalAction)? = nil) {
            self.kind = kind
            self.cause = cause
        }

        func perform(
            on host: ApplicationHost,
            report: @Sendable (Report) -> Void
        ) async -> Result<Void, LifecycleError> {
            do throws(LifecycleError) {
                switch kind {
                case .launch: try await host.launch()
                case .terminate: try await host.terminate()
                case .signal(let action, let signal):
                    return await SignalRequests.perform(action, for: signal, on: host, report: report)
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
    }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
