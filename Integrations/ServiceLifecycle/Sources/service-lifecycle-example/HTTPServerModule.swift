import Hummingbird
import LifecycleCore
import LifecycleWork
import Logging
import ServiceLifecycle
import Synchronization

/// Serves the example's HTTP routes from its work (LifecycleWork, `Docs/Work.md`): the server belongs to a
/// module, runs on the host's schedule, restarts under its policy, and counts in the host's readiness.
///
/// - It starts once the `setup` stage is through (`.application(startingAfter: .setup)`): the store is
///   open, and the probes answer during the rest of launch, as `LaunchGate` expects.
/// - It reports ready once the listener is bound (Hummingbird's `onServerRunning`): until then the host
///   is not ready, so `/health/ready`, `waitUntilReady()` and systemd's `READY=1` wait for it.
/// - When the host stops it (before `willTerminate`), it shuts the server down gracefully: the listener
///   closes and every request in flight is answered (`server: stopped`). The server runs in a
///   `ServiceGroup` of its own, with no signals, whose graceful shutdown the work triggers: Hummingbird's
///   `Application` stops gracefully through swift-service-lifecycle's graceful shutdown, and the group is
///   what hands it one. Past the policy's grace period (10 s) the host cancels the work, and the server
///   stops at once.
/// - If the server throws (the port is taken), the standard policy restarts it, at most 3 times within
///   30 s, then terminates the application: `HostRunner` exits with code 6.
///
/// The routes need the host (its probes, its router, its scopes), so the program builds them once the
/// host exists and hands them over with ``HTTPServing/serve(_:port:logger:)``, before launch; the work
/// waits for them. With `--mode service-group` the example switches this module off and runs the server
/// as a service of its group instead.
///
/// `--listen-delay <ms>` makes the work wait that long before it binds: a slow start (a certificate to
/// load, a cache to fill), during which the host has launched but is not ready.
struct HTTPServerModule: WorkingModule {
    static let priority: ModulePriority = .normal
    let services: ExampleServices
    let listenDelay: Duration

    init(context: LifecycleContext) throws {
        services = try context.exampleServices(for: Self.self)
        listenDelay = .milliseconds(context.launchOptions.argument("--listen-delay").flatMap { Int($0) } ?? 0)
    }

    // README: http-server-work
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("http", .application(startingAfter: .setup), reportsReadiness: true) { module, context in
            try await module.serve(context)
        }
    }
    // README: end

    /// Runs the server until the host asks the work to stop, then stops it gracefully.
    func serve(_ context: WorkContext) async throws {
        guard let plan = await services.http.plan(for: context) else { return }  // stopped before it had one
        let transcript = services.transcript
        if listenDelay > .zero {
            transcript.write("server: listening in \(listenDelay)")
            guard await pause(listenDelay, context) else { return }
        }
        // README: http-server-run
        let application = Application(
            responder: plan.responder,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: plan.port)),
            onServerRunning: { channel in
                transcript.write("listening 127.0.0.1:\(channel.localAddress?.port ?? plan.port)")
                context.reportReady()  // the host's readiness waited for this
            },
            logger: plan.logger
        )
        // No signals: the runner has them, and stops the work.
        let server = ServiceGroup(services: [application], logger: plan.logger)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                // Returns when the host asks the work to stop, or when the work is cancelled.
                await context.gracefulShutdown()
                await server.triggerGracefulShutdown()  // stop accepting; answer what is in flight
            }
            try await server.run()
            group.cancelAll()  // the server ended first: nothing more to wait for
        }
        // README: end
        transcript.write("server: stopped")
    }

    /// Waits `delay`; `false` if the host asked the work to stop first.
    private func pause(_ delay: Duration, _ context: WorkContext) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: delay) }
            group.addTask { await context.gracefulShutdown() }
            await group.next()
            group.cancelAll()
        }
        return !context.isShuttingDown
    }
}

/// What ``HTTPServerModule`` serves, and where, handed over by the program once it has built the routes:
/// one per process, in ``ExampleServices``.
final class HTTPServing: Sendable {
    /// A server to run: the routes, built, the port (0: any free one) and the logger.
    struct Plan: Sendable {
        let responder: RouterResponder<BasicRequestContext>
        let port: Int
        let logger: Logger
    }

    private struct State {
        var plan: Plan?
        var waiting: [AsyncStream<Plan>.Continuation] = []
    }

    private let state = Mutex(State())

    /// Hands over `router`, to serve on 127.0.0.1:`port`: the work starts the server, now if it waits.
    func serve(_ router: Router<BasicRequestContext>, port: Int, logger: Logger) {
        let plan = Plan(responder: router.buildResponder(), port: port, logger: logger)
        let waiting = state.withLock { state in
            state.plan = plan
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting {
            waiter.yield(plan)
            waiter.finish()
        }
    }

    /// What to serve, once handed over; `nil` if the host asks the work to stop, or cancels it, first.
    func plan(for context: WorkContext) async -> Plan? {
        let (handedOver, waiter) = AsyncStream.makeStream(of: Plan.self, bufferingPolicy: .bufferingNewest(1))
        let known: Plan? = state.withLock { state in
            if let plan = state.plan { return plan }
            state.waiting.append(waiter)
            return nil
        }
        if let known { return known }
        return await context.withGracefulShutdownHandler {
            for await plan in handedOver { return plan }
            return nil  // finished by the handler below, or cancelled
        } onGracefulShutdown: {
            waiter.finish()
        }
    }
}
