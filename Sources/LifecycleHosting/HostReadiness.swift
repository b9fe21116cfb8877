public import LifecycleCore

/// A readiness probe: whether the host should receive traffic, including what only the hosting layer
/// knows, that it is about to take the host out of service.
///
/// ``health()`` is the host's `health()` with `HostHealth.isDraining` set once ``beginDraining()`` was
/// called. Call it when termination is decided, before anything stops: a load balancer polling the
/// readiness endpoint then sees 503 while the listener still accepts and answers, and stops sending new
/// requests before the listener closes. The host's own state changes only later, when `terminate()` is
/// delivered.
///
/// ```swift
/// let readiness = HostReadiness(host: host)
/// // GET /health/ready: 200 when (await readiness.health()).isReady, else 503, with the JSON body
/// // at SIGTERM, first: readiness.beginDraining()
/// ```
///
/// Draining is for good: a host that is draining never becomes ready again. For a `ServiceGroup`, the
/// `LifecycleServiceLifecycle` library has a service that begins draining at graceful shutdown.
public final class HostReadiness: Sendable {
    /// The host this probe reports on.
    public let host: ApplicationHost
    private let draining = Locked(false)

    /// A readiness probe of `host`, not draining.
    public init(host: ApplicationHost) {
        self.host = host
    }

    /// Whether ``beginDraining()`` was called.
    public var isDraining: Bool { draining.withLock { $0 } }

    /// Marks the host as about to be taken out of service: from now on ``health()`` reports it not ready,
    /// whatever its state. Safe to call from anywhere, any number of times.
    public func beginDraining() {
        draining.withLock { $0 = true }
    }

    /// The host's health (`ApplicationHost.health()`), with `HostHealth.isDraining` from this probe.
    public func health() async -> HostHealth {
        var health = await host.health()
        health.isDraining = isDraining
        return health
    }
}
