public import LifecycleCore

/// The part of a ``SignalMap`` that does not end the process — ``SignalAction/reload``,
/// ``SignalAction/enterBackground``, ``SignalAction/enterForeground``, ``SignalAction/memoryWarning`` and
/// ``SignalAction/ignore`` — for a host whose terminating signals belong to someone else: a
/// swift-service-lifecycle `ServiceGroup`, Vapor's `serve` command, a hosted ArgumentParser command, or a
/// program's own loop. ``HostRunner`` performs its signals' requests through it too, so a signal does the same
/// on every host path.
///
/// ```swift
/// let host = try ApplicationHost(manifest: .discovered)
/// try await host.launch()
/// // SIGHUP reloads, SIGUSR1 and SIGUSR2 move the host; SIGTERM and SIGINT stay with their owner.
/// let signals = await SignalRequests(host: host).start()
/// // … serve until the owner of SIGTERM says stop …
/// try await host.terminate()
/// await signals.stop()  // SIGHUP, SIGUSR1 and SIGUSR2 have their default effect again
/// ```
///
/// ## What it handles
/// The signals of ``map`` whose action is neither ``SignalAction/terminate`` nor
/// ``SignalAction/interrupt`` (``handledSignals``). A terminating signal in the map is left alone: exactly
/// one owner handles a signal, and terminating signals stay with whoever decides when the program stops.
/// Do not map a signal that owner handles (`SIGTERM` and `SIGINT` for the hosts above) to another action.
///
/// ## Order
/// The same as under ``HostRunner``: the requests reach the host in the order their signals arrived, one at
/// a time; a reload is `ApplicationHost.reloadModules()`, then the custom event ``ReloadRequested`` (sent
/// even when the module switches could not be read). Once termination has begun — the host is terminating
/// or terminated, or ``beginTermination()`` was called — each signal is reported and ignored.
///
/// ## Failures
/// Nothing throws: a request the host refuses (an invalid transition, hooks that threw, a modules file that
/// cannot be read) is passed to ``report`` as ``HostRunner/Report/handled(_:_:_:)`` with the host's
/// `LifecycleError`, which names the module, the event and the fix.
public struct SignalRequests: Sendable {
    /// The host the requests go to.
    public let host: ApplicationHost
    /// The signal map, as given: its terminating signals are not handled here.
    public let map: SignalMap
    /// Told about each signal and what came of it, as it happens.
    public let report: @Sendable (HostRunner.Report) -> Void
    private let termination: TerminationFlag

    /// Requests to `host` for the non-terminating signals of `map`, reported to `report` (by default, standard
    /// error, as ``HostRunner`` writes them).
    public init(
        host: ApplicationHost,
        map: SignalMap = .standard,
        report: @escaping @Sendable (HostRunner.Report) -> Void = HostRunner.Configuration.writeToStandardError
    ) {
        self.host = host
        self.map = map
        self.report = report
        self.termination = TerminationFlag()
    }

    /// The signals handled here: those of ``map`` whose action neither terminates nor interrupts.
    public var handledSignals: Set<UnixSignal> {
        Set(map.actions.filter { !$0.value.terminates }.keys)
    }

    /// From now on every signal is reported and ignored: call it when termination begins before the host's
    /// state says so (a drain delay, a server that stops first).
    public func beginTermination() {
        termination.set()
    }

    /// Whether termination has begun: ``beginTermination()`` was called, or the host is terminating or
    /// terminated.
    public var isTerminating: Bool {
        termination.isSet || host.state == .terminating || host.state == .terminated
    }

    /// Handles ``handledSignals`` of the process until the task is cancelled, then gives them their default
    /// effect back. Call it once per process at a time: a signal has one handler per process.
    public func run() async {
        await run(whenWatching: {})
    }

    /// Starts ``run()`` in a task of its own, and returns once the process's signals are watched, so that a
    /// signal sent from then on is handled.
    public func start() async -> Running {
        let (watching, watched) = AsyncStream<Void>.makeStream()
        let task = Task { await run(whenWatching: { watched.finish() }) }
        for await _ in watching {}
        return Running(task: task)
    }

    /// Handles `signals` in place of the process's, until the stream ends or the task is cancelled: what tests
    /// use. Signals not in ``handledSignals`` are ignored.
    public func run(signals: AsyncStream<UnixSignal>) async {
        for await signal in signals {
            await handle(signal)
        }
    }

    /// A ``start()``ed handling of the process's signals.
    public struct Running: Sendable {
        let task: Task<Void, Never>

        /// Stops handling the signals and gives them their default effect back; returns once a request in
        /// progress completed.
        public func stop() async {
            task.cancel()
            await task.value
        }
    }

    private func run(whenWatching: @Sendable () -> Void) async {
        let process = ProcessSignals(handledSignals)
        defer { process.remove() }
        await process.waitUntilWatching()
        whenWatching()
        await run(signals: process.stream)
    }

    /// Reports one signal, then performs its request, or reports it ignored once termination has begun.
    func handle(_ signal: UnixSignal) async {
        guard let action = map[signal], !action.terminates else { return }
        report(.received(signal, action))
        guard action != .ignore else { return }
        if isTerminating {
            report(.ignored(signal, because: Self.terminating))
            return
        }
        let result = await Self.perform(action, for: signal, on: host, report: report)
        report(.handled(signal, action, result.failure))
    }

    /// Why a signal's request is refused once termination has begun.
    package static let terminating = "the host is terminating"

    /// The request of a non-terminating `action` that `signal` asked for: what ``HostRunner`` and
    /// ``SignalRequests`` both perform. A reload switches modules first (`ApplicationHost.reloadModules()`),
    /// so the modules that are on afterwards receive ``ReloadRequested``, which is sent even when the switches
    /// could not be read: a broken modules file must not keep the other modules from reloading. The first
    /// error is the result.
    package static func perform(
        _ action: SignalAction,
        for signal: UnixSignal,
        on host: ApplicationHost,
        report: @Sendable (HostRunner.Report) -> Void
    ) async -> Result<Void, LifecycleError> {
        do throws(LifecycleError) {
            switch action {
            case .enterBackground: try await host.enterBackground()
            case .enterForeground: try await host.enterForeground()
            case .memoryWarning: try await host.receiveMemoryWarning()
            case .reload: return await reload(host, signal, report)
            case .terminate, .interrupt, .ignore: break
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    private static func reload(
        _ host: ApplicationHost,
        _ signal: UnixSignal,
        _ report: @Sendable (HostRunner.Report) -> Void
    ) async -> Result<Void, LifecycleError> {
        var failure: LifecycleError?
        do {
            let changes = try await host.reloadModules()
            if !changes.isEmpty { report(.modulesChanged(changes)) }
        } catch {
            failure = error
            if let changes = error.moduleChanges, !changes.isEmpty { report(.modulesChanged(changes)) }
        }
        do {
            _ = try await host.send(ReloadRequested(signal: signal))
        } catch {
            failure = failure ?? error
        }
        return failure.map { .failure($0) } ?? .success(())
    }
}

extension SignalAction {
    /// Whether the action ends the process: ``terminate`` and ``interrupt``, whose signals belong to the
    /// owner that decides when the program stops.
    package var terminates: Bool { self == .terminate || self == .interrupt }
}

/// Set once, read from any task.
private final class TerminationFlag: Sendable {
    private let flag = Locked(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
