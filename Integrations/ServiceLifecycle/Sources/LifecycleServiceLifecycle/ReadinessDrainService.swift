public import LifecycleHosting
public import Logging
public import ServiceLifecycle

/// Takes the host out of service first when a `ServiceGroup` shuts down gracefully: it marks a
/// `HostReadiness` as draining, so the readiness endpoint answers 503 while the server still accepts and
/// answers requests, waits ``delay`` for load balancers to notice, and returns; only then does the group
/// go on to the services listed before it.
///
/// List it **last**: the group shuts its services down in reverse order, one at a time, so the last one is
/// signalled first. With the host service first and the HTTP server after it, a SIGTERM then goes:
///
/// 1. this service: readiness turns 503 (``onDraining`` runs), then ``delay`` passes;
/// 2. the server: it stops accepting connections and finishes the requests in flight;
/// 3. ``ApplicationHostService``: the modules receive `willResignActive`, `didEnterBackground` and
///    `willTerminate`, once no request uses what they close.
///
/// ```swift
/// let readiness = HostReadiness(host: host)
/// let drain = ReadinessDrainService(readiness: readiness, delay: .seconds(5), logger: logger)
/// let group = ServiceGroup(
///     configuration: ServiceGroupConfiguration(
///         services: [hostService, server, drain],  // drained first, the host stopped last
///         gracefulShutdownSignals: [.sigterm],
///         logger: logger
///     )
/// )
/// ```
///
/// Choose ``delay`` from how often the load balancer polls readiness: Kubernetes, with `periodSeconds: 2`
/// and `failureThreshold: 1`, needs about two seconds to stop routing to the pod. Cancellation cuts the delay
/// short; readiness still turns 503. The service does not end before the group shuts down: until then it
/// waits, and uses nothing.
public struct ReadinessDrainService: Service, CustomStringConvertible {
    /// The readiness probe this service drains.
    public let readiness: HostReadiness
    /// How long the service waits after draining begins, before it returns and the group stops the services
    /// listed before it.
    public let delay: Duration
    /// Where the service logs the start of draining.
    public let logger: Logger
    /// Runs once draining has begun, before ``delay``: to deregister from service discovery, or to write
    /// it down.
    public let onDraining: @Sendable () -> Void

    /// A service that drains `readiness` at graceful shutdown, then waits `delay`.
    ///
    /// - Parameters:
    ///   - readiness: The probe the readiness endpoint answers from.
    ///   - delay: How long to keep serving after readiness turns 503; zero by default.
    ///   - logger: Where the service logs that draining began, at `info`.
    ///   - onDraining: Called once draining has begun, before the delay.
    public init(
        readiness: HostReadiness,
        delay: Duration = .zero,
        logger: Logger,
        onDraining: @escaping @Sendable () -> Void = {}
    ) {
        self.readiness = readiness
        self.delay = delay
        self.logger = logger
        self.onDraining = onDraining
    }

    public var description: String { "ReadinessDrainService(delay: \(delay))" }

    /// Waits for graceful shutdown (or cancellation), begins draining, waits ``delay`` unless cancelled,
    /// and returns.
    public func run() async {
        var cancelled = false
        do {
            try await gracefulShutdown()
        } catch {
            cancelled = true  // `gracefulShutdown()` throws only `CancellationError`
        }
        readiness.beginDraining()
        logger.info(
            "Draining: readiness answers not ready",
            metadata: ["lifecycle.delay": "\(cancelled ? .zero : delay)"]
        )
        onDraining()
        guard !cancelled, delay > .zero else { return }
        do {
            try await Task.sleep(for: delay)
        } catch {
            // Cancelled: the group is in a hurry; the services before this one stop now.
        }
    }
}
