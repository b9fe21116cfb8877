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

/// An HTTP server whose modules follow the host's lifecycle, run in a ServiceGroup.
///
///     service-lifecycle-example [--port N] [--admin-token T] [--drain-delay MS] [--warm-up-delay MS]
///
/// `--port`, or `PORT`: 0 picks a free port; 8080 by default. `--admin-token`, or `ADMIN_TOKEN`: the token
/// of the admin API (`/admin/**`, `AdminEndpoint`); `example-admin-token` by default. `--drain-delay`: how
/// long the server goes on serving after `/health/ready` turned 503 at SIGTERM, before it stops accepting
/// connections; 0 by default. `--warm-up-delay`: a slower launch (`StoreModule`).
///
/// The server listens from the start: `/health/live` and `/health/ready` answer at once
/// (`HealthEndpoints`), and so does `/metrics`, the host's metrics in Prometheus's text format
/// (`MetricsEndpoint`); every other route answers 503 until the host has launched (`LaunchGate`). SIGUSR1
/// and SIGUSR2 move the host to the background and back (`BackgroundSignals`).
///
/// Every request runs in a request scope (`RequestScopeMiddleware`); one with an `X-Session: <id>` header
/// is nested in that session's scope, which lasts until the host terminates.
///
/// Standard output is a transcript: where the admin token came from, each delivery
/// (`lifecycle <event> <Module>`), what the modules do, `listening 127.0.0.1:<port>` once the server
/// accepts connections, `host: ready` once launch is through, each request's start and completion, each admin request's status, each request
/// scope's `timing` and `audit` lines, each session's `began`, `welcome` and `ended` lines, the number of
/// scopes still in flight after shutdown (`scopes in flight: 0`), and `exit: clean` at the end. Logs go to
/// standard error (`LOG_LEVEL=debug` shows every delivery).
/// SIGTERM or SIGINT shuts it down gracefully: `/health/ready` answers 503 (`readiness: draining`), the
/// drain delay passes, the server stops accepting and finishes its in-flight requests (`server: stopped`),
/// then the host enters the background and terminates, and the store closes.
@main
struct ServiceLifecycleExample {
    static func main() async {
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let transcript = Transcript()
        var options = LaunchOptions.current
        guard let port = Int(options.argument("--port") ?? options.environment["PORT"] ?? "8080"), port >= 0,
            let drainDelay = Int(options.argument("--drain-delay") ?? "0"), drainDelay >= 0
        else {
            FileHandle.standardError.write(
                Data(
                    ("usage: service-lifecycle-example [--port N] [--admin-token T] [--drain-delay MS] "
                        + "[--warm-up-delay MS]; N is 0...65535\n").utf8
                )
            )
            exit(64)
        }
        let services = ExampleServices(transcript: transcript)
        transcript.write("admin: token from \(AdminTokenInterceptor.expectedToken(in: options).source)")
        options[ExampleServicesKey.self] = services

        do {
            try await run(
                transcript: transcript,
                services: services,
                port: port,
                drainDelay: .milliseconds(drainDelay),
                options: options
            )
            transcript.write("exit: clean")
        } catch {
            transcript.write("exit: \(error)")
            exit(1)
        }
    }

    static func run(
        transcript: Transcript,
        services: ExampleServices,
        port: Int,
        drainDelay: Duration,
        options: LaunchOptions
    )
        async throws
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
            manifest: .example,  // StoreModule, TrafficModule, AdminModule, SessionModule; routing, scopes
            launchOptions: options,  // carries what the program shares: the transcript
            configuration: hostConfiguration.logging(to: logger)  // deliveries and errors to swift-log
        )
        // README: end

        guard let scopes = host.scopes else {
            preconditionFailure("ModuleManifest.example has scopes (withScopes), so the host has a registry")
        }
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
        // SIGUSR1 and SIGUSR2: background and foreground. Listed after the host, before the server and the
        // drain, which still stop first.
        configuration.services.insert(.init(service: BackgroundSignals(host: host, transcript: transcript)), at: 1)

        // Liveness is watched once launch is through, as a watchdog starts at READY=1.
        let probe = Task {
            guard (try? await hostService.waitUntilReady()) != nil else { return }
            transcript.write("host: ready")
            try? await liveness.run()
        }
        defer { probe.cancel() }
        try await ServiceGroup(configuration: configuration).run()

        // The server has answered its requests and SessionModule has ended the sessions: nothing is left.
        let inFlight = scopes.inFlight()
        transcript.write(
            "scopes in flight: \(inFlight.count)" + inFlight.map { ", \($0)" }.joined()
        )
    }
}
