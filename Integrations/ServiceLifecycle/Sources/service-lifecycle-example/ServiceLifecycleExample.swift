import Foundation
import Hummingbird
import LifecycleCore
import LifecycleHosting
import LifecycleObservability
import LifecycleProxy
import LifecycleScopes
import LifecycleServiceLifecycle
import LifecycleServices
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals

/// An HTTP server whose modules follow the host's lifecycle, served from a module's work.
///
///     service-lifecycle-example [--port N] [--admin-token T] [--drain-delay MS] [--warm-up-delay MS]
///                               [--listen-delay MS] [--mode work|service-group] [--log-level LEVEL]
///                               [--max-sessions N] [--session-idle-timeout S]
///
/// `--port`, or `PORT`: 0 picks a free port; 8080 by default. `--admin-token`, or `ADMIN_TOKEN`: the token
/// of the admin API (`/admin/**`, `AdminEndpoint`); `example-admin-token` by default. `--drain-delay`: how
/// long the server goes on serving after `/health/ready` turned 503 at SIGTERM, before it stops accepting
/// connections; 5000 by default (``defaultDrainDelay`` says why), 0 for none. `--log-level`, or
/// `LOG_LEVEL`: swift-log's level, `notice` by default; `info` adds the per-request lines (``RequestLog``),
/// `debug` every delivery. `--max-sessions` and `--session-idle-timeout` bound the sessions
/// (``SessionScopes``): 10,000 and 1800 s by default. `--warm-up-delay`: a slower launch (`StoreModule`). `--listen-delay`: a
/// slower start of the listener (`HTTPServerModule`, in the work mode).
///
/// `--mode`: who runs what.
/// - `work`, the default: `HostRunner` runs the host and handles the signals, and `HTTPServerModule`
///   serves HTTP from its work. The server starts once the `setup` stage is through, the host is ready
///   once the listener is bound, and the server stops gracefully when the host stops its work, just before
///   `willTerminate` (at SIGTERM the runner delivers `willTerminate` alone). Exit codes are `HostRunner`'s:
///   0 clean, 5 when the server failed past its policy (the port is taken), and so on.
/// - `service-group`: a swift-service-lifecycle `ServiceGroup` runs the host (`ApplicationHostService`),
///   the server and the drain as services, and `HTTPServerModule` is switched off. The server starts with
///   the group, and stops before the modules receive `willResignActive`, `didEnterBackground` and
///   `willTerminate`. Exit 1 on any error.
///
/// The server answers `/health/live` and `/health/ready` as soon as it listens (`HealthEndpoints`), and so
/// does `/metrics`, the host's metrics in Prometheus's text format (`MetricsEndpoint`); every other route
/// answers 503 until the host has launched (`LaunchGate`). SIGUSR1 and SIGUSR2 move the host to the
/// background and back, and SIGHUP reloads (the `--modules-file` is read again): `HostRunner`'s standard
/// signals, handled in a ServiceGroup by `SignalRequests`, the same mechanism.
///
/// Every request runs in a request scope (`RequestScopeMiddleware`); one with an `X-Session: <id>` header
/// is nested in that session's scope, kept until it is idle too long, or the least recently used when
/// the sessions are at their cap, or the host terminates.
///
/// Standard output is a transcript: where the admin token came from, each delivery
/// (`lifecycle <event> <Module>`), what the modules do, `listening 127.0.0.1:<port>` once the server
/// accepts connections, `host: ready` once launch is through and the listener is up, each admin request's
/// status, the number of scopes still in flight after shutdown (`scopes in flight: 0`), and `exit: clean`
/// at the end. At `--log-level info` it also has the per-request lines: each request's start and
/// completion, each request scope's `timing` and `audit` lines, each session's `began`, `welcome` and
/// `ended` lines. Other logs go to standard error (`--log-level debug` shows every delivery).
/// SIGTERM or SIGINT shuts it down gracefully: `/health/ready` answers 503 (`readiness: draining`), the
/// drain delay passes, the server stops accepting and finishes its in-flight requests (`server: stopped`),
/// then the modules tear down, and the store closes.
@main
struct ServiceLifecycleExample {
    /// Who runs the host and the server (`--mode`).
    enum Mode: String {
        /// `HostRunner` runs the host; `HTTPServerModule`'s work serves HTTP.
        case work
        /// A `ServiceGroup` runs the host and the server, side by side.
        case serviceGroup = "service-group"
    }

    static func main() async {
        let transcript = Transcript()
        var options = LaunchOptions.current
        let usage =
            "usage: service-lifecycle-example [--port N] [--admin-token T] [--drain-delay MS] "
            + "[--warm-up-delay MS] [--listen-delay MS] [--mode work|service-group] [--log-level LEVEL] "
            + "[--max-sessions N] [--session-idle-timeout S]; N is 0...65535, LEVEL trace...critical\n"
        guard let port = Int(options.argument("--port") ?? options.environment["PORT"] ?? "8080"), port >= 0,
            let drainDelay = Int(options.argument("--drain-delay") ?? "\(defaultDrainDelay)"), drainDelay >= 0,
            let mode = Mode(rawValue: options.argument("--mode") ?? "work"),
            let level = Logger.Level(
                rawValue: options.argument("--log-level") ?? options.environment["LOG_LEVEL"] ?? "notice"
            ),
            let maxSessions = Int(options.argument("--max-sessions") ?? "\(KeyedScopes<String>.defaultCapacity)"),
            let sessionIdleTimeout = Int(
                options.argument("--session-idle-timeout")
                    ?? "\(KeyedScopes<String>.defaultIdleTimeout.components.seconds)"
            )
        else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(64)
        }
        LoggingSystem.bootstrap { label in
            // The per-request lines (RequestLog, at .info) join the transcript when the level lets them
            // through; every other log goes to standard error.
            guard label != RequestLog.label else {
                return TranscriptLogHandler(transcript: transcript, logLevel: level)
            }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let services = ExampleServices(
            transcript: transcript,
            maxSessions: maxSessions,
            sessionIdleTimeout: .seconds(sessionIdleTimeout)
        )
        transcript.write("admin: token from \(AdminTokenInterceptor.expectedToken(in: options).source)")
        options[ExampleServicesKey.self] = services
        if mode == .serviceGroup {
            // The group serves HTTP instead of the module's work.
            options.arguments += ["--disable-module", "HTTPServerModule"]
        }

        do {
            let ending = try await run(
                mode,
                transcript: transcript,
                services: services,
                port: port,
                drainDelay: .milliseconds(drainDelay),
                options: options
            )
            transcript.write("exit: \(ending.description)")
            if ending.code != 0 { exit(ending.code) }
        } catch {
            transcript.write("exit: \(error)")
            exit(1)
        }
    }

    /// The drain delay when `--drain-delay` is not given, in milliseconds: 5 s. Long enough for a load
    /// balancer that polls `/health/ready` every second or two to see 503 twice and stop sending, and for a
    /// connection waiting in the listener's backlog to be answered, instead of reset; short against the 30 s
    /// Kubernetes gives a pod by default. `--drain-delay 0` is for tests and for a process no balancer polls.
    static let defaultDrainDelay = 5_000

    /// How a run ended: the process's exit code, and `clean` or why not.
    struct Ending {
        let code: Int32
        let description: String

        static let clean = Ending(code: 0, description: "clean")
    }

    static func run(
        _ mode: Mode,
        transcript: Transcript,
        services: ExampleServices,
        port: Int,
        drainDelay: Duration,
        options: LaunchOptions
    )
        async throws -> Ending
    {
        // README: prometheus-registry
        let registry = PrometheusCollectorRegistry()  // what GET /metrics serves
        var metricsFactory = PrometheusMetricsFactory(registry: registry)
        // Hooks take microseconds to seconds: finer buckets than the default 5 ms to 10 s.
        let hookBuckets: [Duration] = [
            .microseconds(100), .milliseconds(1), .milliseconds(10), .milliseconds(100), .seconds(1), .seconds(10),
        ]
        let names = MetricsInstrument.Names()  // lifecycle_deliveries_total, …
        metricsFactory.durationHistogramBuckets[names.deliveryDuration] = hookBuckets
        metricsFactory.durationHistogramBuckets[names.eventDuration] = hookBuckets
        MetricsSystem.bootstrap(metricsFactory)  // the process's other metrics go there too
        // README: end

        // README: host-instruments
        let logger = Logger(label: "shop")
        var hostConfiguration = ApplicationHost.Configuration(terminateDeadline: .seconds(10))
        hostConfiguration.onDelivery = transcript.writeDelivery  // an observer of your own stays, and runs first
        hostConfiguration.instruments = [
            TracingInstrument(),  // spans, with the tracer of InstrumentationSystem (none is bootstrapped here)
            MetricsInstrument(factory: metricsFactory),  // counters, timers and the state gauge, on /metrics
        ]
        let host = try ApplicationHost(
            manifest: .example,  // the example's modules (Modules.swift), with services, routing, scopes and work
            launchOptions: options,  // carries what the program shares: the transcript
            configuration: hostConfiguration.logging(to: logger)  // deliveries and errors to swift-log
        )
        // README: end

        guard let scopes = host.scopes else {
            preconditionFailure("ModuleManifest.example has scopes (withScopes), so the host has a registry")
        }
        try services.sessions.open(in: scopes)  // bounded: --max-sessions, --session-idle-timeout
        // README: health-probes
        let liveness = HostLiveness(host: host, interval: .seconds(1))  // the probe HostRunner's watchdog uses
        let readiness = HostReadiness(host: host)  // the host's health, and draining once SIGTERM arrives
        // README: end
        // The handlers resolve the store StoreModule provides, through the host's services; each request
        // runs in a request scope of the host's registry.
        let router = makeRouter(
            services: services,
            resolver: host.context.services,
            scopes: scopes,
            health: HealthEndpoints(liveness: liveness, readiness: readiness),
            metrics: MetricsEndpoint(registry: registry),
            host: host
        )
        // `/admin/**` goes through the host's router, so the interceptors guard it (`AdminEndpoint`).
        AdminEndpoint(host: host, transcript: transcript).register(on: router)

        let ending: Ending
        switch mode {
        case .work:
            ending = await runWithWork(
                host: host,
                router: router,
                services: services,
                port: port,
                liveness: liveness,
                readiness: readiness,
                drainDelay: drainDelay,
                logger: logger
            )
        case .serviceGroup:
            try await runInServiceGroup(
                host: host,
                router: router,
                transcript: transcript,
                port: port,
                liveness: liveness,
                readiness: readiness,
                drainDelay: drainDelay,
                logger: logger
            )
            ending = .clean
        }

        // The server has answered its requests and SessionModule has ended the sessions: nothing is left.
        let inFlight = scopes.inFlight()
        transcript.write(
            "scopes in flight: \(inFlight.count)" + inFlight.map { ", \($0)" }.joined()
        )
        return ending
    }

    /// The work mode: `HTTPServerModule`'s work serves `router`, and `HostRunner` runs the host. At SIGTERM
    /// readiness turns 503, and `drainDelay` later the host terminates: the modules leave the foreground,
    /// the work stops the server gracefully, and `willTerminate` closes the store.
    static func runWithWork(
        host: ApplicationHost,
        router: Router<BasicRequestContext>,
        services: ExampleServices,
        port: Int,
        liveness: HostLiveness,
        readiness: HostReadiness,
        drainDelay: Duration,
        logger: Logger
    ) async -> Ending {
        let transcript = services.transcript
        services.http.serve(router, port: port, logger: logger)  // the module's work serves it from setup on
        var configuration = HostRunner.Configuration { report in
            logger.info("\(report)")
            transcript.write(report, host: host, readiness: readiness)
        }
        configuration.readiness = readiness  // 503 at SIGTERM, while the server still answers
        configuration.drainDelay = drainDelay  // then termination
        // The drain, the server's grace period (10 s) and cancellation grace (5 s), then willTerminate
        // (terminateDeadline, 10 s), with a margin.
        configuration.shutdownLimit = drainDelay + .seconds(30)

        return await withTaskGroup(of: Void.self) { group in
            // Liveness is watched once the host is ready (listener included), as a watchdog starts at
            // READY=1, which the runner sends then.
            group.addTask {
                guard (try? await host.waitUntilReady()) != nil else { return }
                // A work that gave up stops counting against readiness just after it asked the host to
                // terminate, before the termination marks the host as never ready: not ready, then.
                guard host.terminationFailure == nil else { return }
                transcript.write("host: ready")
                try? await liveness.run()
            }
            let status = await HostRunner(host: host, configuration: configuration).run()
            group.cancelAll()
            return status.code == 0 ? .clean : Ending(code: status.code, description: "\(status)")
        }
    }

    /// The service-group mode: `ApplicationHostService`, the server and the drain are services of one
    /// `ServiceGroup`, which stops them in reverse on SIGTERM or SIGINT.
    static func runInServiceGroup(
        host: ApplicationHost,
        router: Router<BasicRequestContext>,
        transcript: Transcript,
        port: Int,
        liveness: HostLiveness,
        readiness: HostReadiness,
        drainDelay: Duration,
        logger: Logger
    ) async throws {
        // `server: stopped` once it has stopped accepting and answered what was in flight.
        let server = TranscribedServer(
            server: Application(
                router: router,
                configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)),
                onServerRunning: { channel in
                    transcript.write("listening 127.0.0.1:\(channel.localAddress?.port ?? port)")
                },
                logger: logger
            ),
            transcript: transcript
        )

        // README: service-group
        let hostService = ApplicationHostService(host: host, logger: logger)
        // At SIGTERM, readiness turns 503 first, while the server still accepts and answers.
        let drain = ReadinessDrainService(readiness: readiness, delay: drainDelay, logger: logger) {
            transcript.write("readiness: draining")
        }

        var configuration = ServiceGroupConfiguration(
            // Stopped in reverse: readiness drains, the server stops and answers what is in flight, then
            // the host terminates the modules.
            services: [hostService, server, drain],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        configuration.maximumGracefulShutdownDuration = .seconds(30)  // then the group cancels
        configuration.maximumCancellationDuration = .seconds(15)  // longer than terminateDeadline + 1 s
        // README: end
        // SIGHUP, SIGUSR1 and SIGUSR2 as HostRunner handles them: reload (the --modules-file is read again,
        // then ReloadRequested), background, foreground. SIGTERM and SIGINT stay the group's. Handled from
        // before the group starts until after it returned; refused from the graceful shutdown on, which
        // SignalTermination, listed after the host and before the server and the drain, reports.
        let signalRequests = SignalRequests(host: host) { report in
            logger.info("\(report)")
            transcript.write(report, host: host, readiness: readiness)
        }
        configuration.services.insert(.init(service: SignalTermination(requests: signalRequests)), at: 1)
        let signals = await signalRequests.start()

        // Liveness is watched once launch is through, as a watchdog starts at READY=1.
        let probe = Task {
            guard (try? await hostService.waitUntilReady()) != nil else { return }
            transcript.write("host: ready")
            try? await liveness.run()
        }
        defer { probe.cancel() }
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            await signals.stop()
            throw error
        }
        await signals.stop()
    }
}
