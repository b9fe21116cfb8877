import Foundation
import Hummingbird
import LifecycleCore
import LifecycleProxy
import LifecycleScopes
import LifecycleServiceLifecycle
import LifecycleServices
import Logging
import ServiceLifecycle
import UnixSignals

/// An HTTP server whose modules follow the host's lifecycle, run in a ServiceGroup.
///
///     service-lifecycle-example [--port N] [--admin-token T]
///
/// `--port`, or `PORT`: 0 picks a free port; 8080 by default. `--admin-token`, or `ADMIN_TOKEN`: the token
/// of the admin API (`/admin/**`, `AdminEndpoint`); `example-admin-token` by default.
///
/// Every request runs in a request scope (`RequestScopeMiddleware`); one with an `X-Session: <id>` header
/// is nested in that session's scope, which lasts until the host terminates.
///
/// Standard output is a transcript: where the admin token came from, each delivery
/// (`lifecycle <event> <Module>`), what the modules do, `listening 127.0.0.1:<port>` once the server
/// accepts connections, each request's start and completion, each admin request's status, each request
/// scope's `timing` and `audit` lines, each session's `began`, `welcome` and `ended` lines, the number of
/// scopes still in flight after shutdown (`scopes in flight: 0`), and `exit: clean` at the end. Logs go to
/// standard error (`LOG_LEVEL=debug` shows every delivery).
/// SIGTERM or SIGINT shuts it down gracefully: the server finishes its in-flight requests, then the host
/// enters the background and terminates, and the store closes.
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
        guard let port = Int(options.argument("--port") ?? options.environment["PORT"] ?? "8080"), port >= 0 else {
            FileHandle.standardError.write(
                Data("usage: service-lifecycle-example [--port N] [--admin-token T]; N is 0...65535\n".utf8)
            )
            exit(64)
        }
        let services = ExampleServices(transcript: transcript)
        transcript.write("admin: token from \(AdminTokenInterceptor.expectedToken(in: options).source)")
        options[ExampleServicesKey.self] = services

        do {
            try await run(transcript: transcript, services: services, port: port, options: options)
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
        options: LaunchOptions
    )
        async throws
    {
        // README: host-logging
        let logger = Logger(label: "shop")
        var hostConfiguration = ApplicationHost.Configuration(terminateDeadline: .seconds(10))
        hostConfiguration.onDelivery = transcript.writeDelivery  // an observer of your own stays, and runs first
        let host = try ApplicationHost(
            manifest: .example,  // StoreModule, TrafficModule, AdminModule, SessionModule; routing, scopes
            launchOptions: options,  // carries what the program shares: the transcript
            configuration: hostConfiguration.logging(to: logger)  // deliveries and errors to swift-log
        )
        // README: end

        guard let scopes = host.scopes else {
            preconditionFailure("ModuleManifest.example has scopes (withScopes), so the host has a registry")
        }
        // The handlers resolve the store StoreModule provides, through the host's services; each request
        // runs in a request scope of the host's registry.
        let router = makeRouter(services: services, resolver: host.context.services, scopes: scopes)
        // `/admin/**` goes through the host's router, so the interceptors guard it (`AdminEndpoint`).
        AdminEndpoint(host: host, transcript: transcript).register(on: router)
        var server = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                transcript.write("listening 127.0.0.1:\(channel.localAddress?.port ?? port)")
            },
            logger: logger
        )

        // README: service-group
        let hostService = ApplicationHostService(host: host, logger: logger)
        server.beforeServerStarts { try await hostService.waitUntilReady() }  // no request before launch

        var configuration = ServiceGroupConfiguration(
            services: [hostService, server],  // the host first: the group stops it last
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        configuration.maximumGracefulShutdownDuration = .seconds(30)  // then the group cancels
        configuration.maximumCancellationDuration = .seconds(15)  // longer than terminateDeadline + 1 s
        try await ServiceGroup(configuration: configuration).run()
        // README: end

        // The server has answered its requests and SessionModule has ended the sessions: nothing is left.
        let inFlight = scopes.inFlight()
        transcript.write(
            "scopes in flight: \(inFlight.count)" + inFlight.map { ", \($0)" }.joined()
        )
    }
}
