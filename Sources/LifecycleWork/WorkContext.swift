public import LifecycleCore

/// What a work's body receives: who it is, the signal to stop, and the way to say it is ready.
///
/// Stopping is graceful first: the host asks the work to stop (``gracefulShutdown()`` returns,
/// ``isShuttingDown`` turns `true`, handlers run), and cancels it only if it has not returned within its
/// policy's ``WorkPolicy/gracePeriod``. This is swift-service-lifecycle's graceful shutdown, and a body
/// written for a `Service.run()` moves here unchanged but for where it reads the signal.
public struct WorkContext: Sendable {
    /// The module-qualified name of the module that owns the work. Built when first read, not for every
    /// run: `String(reflecting:)` costs microseconds for a generic type.
    public var module: String { participant.name }
    /// The work's name within its module.
    public let work: String
    /// Which attempt this is: 1 for the first start, 2 after the first restart, and so on.
    public let attempt: Int
    /// The host's context: launch options, emitting events, the application's state.
    public let lifecycle: LifecycleContext

    let participant: Participant
    let shutdown: GracefulShutdown
    /// The run, told when the work reports ready (a reference, not a closure: no allocation per attempt).
    let readiness: any WorkReadiness

    /// Whether the host has asked the work to stop.
    public var isShuttingDown: Bool { shutdown.isRequested }

    /// Returns when the host asks the work to stop, or when the task is cancelled.
    ///
    /// ```swift
    /// work.run("listener", reportsReadiness: true) { context in
    ///     let server = try await Server.bind(port: 8080)
    ///     context.reportReady()
    ///     await context.gracefulShutdown()
    ///     try await server.close()
    /// }
    /// ```
    public func gracefulShutdown() async { await shutdown.wait() }

    /// Runs `operation`; if the host asks the work to stop meanwhile (or had asked already),
    /// `onGracefulShutdown` runs once, at that moment, on the host's thread: make it quick, such as
    /// finishing a stream the operation iterates or closing a listening socket.
    ///
    /// ```swift
    /// let (jobs, input) = AsyncStream.makeStream(of: Job.self)
    /// try await context.withGracefulShutdownHandler {
    ///     for await job in jobs { try await job.process() }  // ends when the stream is finished
    /// } onGracefulShutdown: {
    ///     input.finish()
    /// }
    /// ```
    public func withGracefulShutdownHandler<T: Sendable>(
        operation: () async throws -> T,
        onGracefulShutdown: @escaping @Sendable () -> Void
    ) async rethrows -> T {
        let registration = shutdown.onRequest(onGracefulShutdown)
        defer { if let registration { shutdown.removeHandler(registration) } }
        return try await operation()
    }

    /// Says the work is ready: its module (and the host, once every such work has said so) counts as ready.
    /// Only for work declared with `reportsReadiness: true`; calling it again, or after a restart's first
    /// call, is harmless. After a restart, the work is not ready until it says so again.
    public func reportReady() { readiness.reportReady() }
}

/// Who a ``WorkContext`` tells when the work reports ready: its ``WorkRun``.
protocol WorkReadiness: AnyObject, Sendable {
    func reportReady()
}
