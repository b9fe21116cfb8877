import LifecycleCore
import LifecycleHosting
import LifecycleScopes
import Synchronization
import Vapor

/// An `ApplicationHost` run by a Vapor `Application`, as one of its lifecycle handlers. Made by
/// `Application.useModules(_:configuration:launchOptions:)`; reach it as `app.modules`.
///
/// - **Launch** runs in Vapor's async boot (`didBootAsync`, after every handler's `willBootAsync`, before the
///   server binds): modules register their routes and middleware from their launch hooks
///   (`context.vapor(for:)`), and their routes serve once launch is through. Under the host's `continue`
///   policy (the default) a module whose launch hook threw keeps its routes closed (503) and the app serves
///   the others; any other launch error (`launchAborted` under `abort`) fails Vapor's startup.
/// - **Termination** runs in Vapor's `shutdownAsync`: readiness turns 503 (draining), `drainDelay` passes,
///   Vapor's server stops accepting and answers the requests in flight, then the modules receive
///   `willTerminate`. Vapor would shut its server down only after its lifecycle handlers; this handler does
///   it first, so no request still runs when a module closes what it uses.
/// - **Signals**: the terminating ones belong to Vapor: its `serve` command handles SIGTERM and SIGINT by
///   returning from `app.execute()`, after which the program calls `app.asyncShutdown()`. No `HostRunner`
///   runs. The others are the host's, as under `HostRunner`: from the end of launch to the end of shutdown,
///   `SignalRequests` handles the non-terminating part of ``signals`` (by default SIGHUP reloads, SIGUSR1
///   and SIGUSR2 move the host to the background and back), and logs each signal and what came of it.
///   Background and foreground are also the admin routes' (``registerAdminRoutes(on:)``), or
///   ``enterBackground()`` and ``enterForeground()`` from code.
public final class VaporModuleHost: LifecycleHandler, Sendable {
    /// The host.
    public let host: ApplicationHost
    /// The readiness probe the readiness route answers from; draining begins at shutdown.
    public let readiness: HostReadiness
    /// The liveness probe the liveness routes answer from, run from the end of launch to shutdown.
    public let liveness: HostLiveness
    /// How long readiness says 503 before the server stops accepting, so a load balancer stops routing
    /// first: 5 seconds by default (`useModules(_:configuration:launchOptions:drainDelay:)`).
    public let drainDelay: Duration

    private struct State {
        var gates: [String: ModuleGate] = [:]
        var launched = false
        var failedModules: Set<String> = []
        var launchFailures: [HookFailure] = []
        var terminationError: LifecycleError?
        var probe: Task<Void, Never>?
        var signals: SignalMap? = .standard
        var signalRequests: (requests: SignalRequests, running: SignalRequests.Running)?
    }

    private let state = Mutex(State())

    init(host: ApplicationHost, drainDelay: Duration) {
        self.host = host
        self.readiness = HostReadiness(host: host)
        self.liveness = HostLiveness(host: host)
        self.drainDelay = drainDelay
    }

    /// The signals the host handles while the app serves, as `HostRunner` would: their non-terminating part
    /// (reload, background, foreground, memory-warning, ignore), since SIGTERM and SIGINT are Vapor's; a
    /// terminating action in the map is left to Vapor. ``SignalMap/standard`` by default: SIGHUP reloads
    /// (the modules file is read again, then `ReloadRequested`), SIGUSR1 and SIGUSR2 move the host to the
    /// background and back. `nil`: none, and SIGHUP, SIGUSR1 and SIGUSR2 keep their default effect (they end
    /// the process). Set it before the app boots; it is read once, at the end of launch.
    public var signals: SignalMap? {
        get { state.withLock { $0.signals } }
        set { state.withLock { $0.signals = newValue } }
    }

    /// The launch hooks that threw under the `continue` policy: their modules' routes stay closed (503).
    public var launchFailures: [HookFailure] { state.withLock { $0.launchFailures } }

    /// What went wrong in `willTerminate`, if anything: the program exits non-zero for it.
    public var terminationError: LifecycleError? { state.withLock { $0.terminationError } }

    /// The gate of `module`'s routes, made on first use; open already if launch is through.
    func gate(for module: any LifecycleModule.Type) -> ModuleGate {
        let name = module.moduleName
        return state.withLock { state in
            if let gate = state.gates[name] { return gate }
            let gate = ModuleGate(module)
            if state.launched { gate.open(failed: state.failedModules.contains(name)) }
            state.gates[name] = gate
            return gate
        }
    }

    // MARK: LifecycleHandler

    /// Refuses the synchronous boot: the modules launch in the async boot.
    public func willBoot(_ application: Application) throws {
        throw VaporModulesError.synchronousBoot
    }

    /// Nothing: the async boot does not call the synchronous one.
    public func willBootAsync(_ application: Application) async throws {}

    /// Launches the host, then runs every route of the application that a module did not register in a
    /// request scope, opens the routes of every module whose launch hooks succeeded, and starts the liveness
    /// probe. Throws the launch's `LifecycleError` unless it is `hookFailed` (the `continue` policy), which
    /// it logs.
    ///
    /// Routes registered after this (by a lifecycle handler that boots later) run without a scope: Vapor
    /// fixes its routes when its server starts, right after the boot.
    public func didBootAsync(_ application: Application) async throws {
        var failures: [HookFailure] = []
        do {
            try await host.launch()
        } catch {
            guard error.code == .hookFailed else { throw error }  // launchAborted: Vapor's startup fails
            failures = error.failures
            application.logger.error("modules: launch hooks failed, their routes stay closed: \(error)")
        }
        let scopes = host.scopes
        for route in application.routes.all where !route.isScoped {
            route.responder = RequestScopeResponder(wrapping: route, scopes: scopes, gate: nil, host: host)
        }
        let failed = Set(failures.map(\.participant.name))
        let gates = state.withLock { state in
            state.launched = true
            state.failedModules = failed
            state.launchFailures = failures
            return Array(state.gates.values)
        }
        for gate in gates { gate.open(failed: failed.contains(gate.name)) }
        let liveness = self.liveness
        let probe = Task { _ = try? await liveness.run() }
        state.withLock { $0.probe = probe }
        await startSignals(logger: application.logger)
    }

    /// Handles the non-terminating part of ``signals`` from now on, reporting to `logger`: failures as
    /// errors, the rest as notices.
    private func startSignals(logger: Logger) async {
        guard let map = state.withLock({ $0.signals }) else { return }
        let requests = SignalRequests(host: host, map: map) { report in
            switch report {
            case .handled(_, _, .some), .ignored: logger.error("modules: \(report)")
            default: logger.notice("modules: \(report)")
            }
        }
        let running = await requests.start()
        state.withLock { $0.signalRequests = (requests, running) }
    }

    /// Drains, stops Vapor's server (the requests in flight are answered), then terminates the host.
    /// Signals are refused from its start, and keep their default effect again once the host terminated.
    public func shutdownAsync(_ application: Application) async {
        defer { host.context.launchOptions[VaporApplicationKey.self]?.detach() }  // the host lets the app go
        let signals = state.withLock { state in
            defer { state.signalRequests = nil }
            return state.signalRequests
        }
        signals?.requests.beginTermination()  // SIGHUP, SIGUSR1, SIGUSR2 from now on: reported and ignored
        await shutDown(application)
        await signals?.running.stop()
    }

    private func shutDown(_ application: Application) async {
        guard host.state.isRunning else { return }  // never launched, or terminated already
        readiness.beginDraining()
        if drainDelay > .zero { try? await Task.sleep(for: drainDelay) }
        await application.server.shutdown()
        state.withLock { $0.probe }?.cancel()
        do {
            try await host.terminate()
        } catch {
            application.logger.error("modules: termination failed: \(error)")
            state.withLock { $0.terminationError = error }
        }
    }

    // MARK: Background and foreground

    /// Sends the host to the background (`didEnterBackground`); readiness turns 503 until the foreground.
    public func enterBackground() async throws(LifecycleError) {
        try await host.enterBackground()
    }

    /// Brings the host back to the foreground (`willEnterForeground`).
    public func enterForeground() async throws(LifecycleError) {
        try await host.enterForeground()
    }
}
