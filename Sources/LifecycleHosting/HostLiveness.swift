public import LifecycleCore

/// A liveness probe: whether the host still handles what it is asked, or is stuck in a hook.
///
/// It measures time on the host's configured clock (`ApplicationHost.Configuration.clock`).
///
/// ``run(onResponsive:)`` checks the host every ``interval``: it waits until the host has handled every
/// request queued (`waitUntilIdle()`), then records the time. ``isAlive`` is `false` once that time is
/// older than ``tolerance``, twice the interval by default: the moment a systemd watchdog of
/// `WatchdogSec = 2 × interval` would fire. A host stuck in a hook stops being seen, and the probe fails.
///
/// ```swift
/// let liveness = HostLiveness(host: host, interval: .seconds(5))
/// let probe = Task { try await liveness.run() }  // until cancelled
/// // GET /health/live: liveness.isAlive ? 200 : 503
/// ```
///
/// ``HostRunner`` pets systemd's watchdog with this same probe: `WATCHDOG=1` from `onResponsive`, every half
/// of `WATCHDOG_USEC`. The HTTP liveness endpoint and the watchdog therefore agree.
///
/// A host that is idle, in the background, or terminated is alive: liveness says whether the process
/// should be restarted, not whether it should receive traffic (that is ``HostReadiness``). A long hook
/// counts as stuck once it runs past the tolerance: choose an interval that leaves room for the longest
/// hook you expect.
public final class HostLiveness: Sendable {
    /// The host this probe checks.
    public let host: ApplicationHost
    /// How often ``run(onResponsive:)`` checks the host.
    public let interval: Duration
    /// How long the host may go unseen before ``isAlive`` is `false`.
    public let tolerance: Duration

    /// The host's clock: its configured one, so a test's `VirtualClock` drives the probe.
    private let clock: HostClock
    /// When the host was last seen responsive, or when the probe started running; `nil` before it did.
    private let lastSeen: Locked<HostClock.Instant?>

    /// A probe of `host` that checks it every `interval`, and fails when it was last seen responsive more
    /// than `tolerance` ago: twice the interval by default.
    public init(host: ApplicationHost, interval: Duration = .seconds(1), tolerance: Duration? = nil) {
        self.host = host
        self.interval = interval
        self.tolerance = tolerance ?? interval * 2
        clock = host.context.watchdog.clock
        lastSeen = Locked(nil)
    }

    /// Whether the host was seen responsive within ``tolerance``; `true` until ``run(onResponsive:)``
    /// starts.
    ///
    /// Start the probe once launch is through, as ``HostRunner`` starts the watchdog at `READY=1`: a launch
    /// that takes longer than the tolerance is a startup probe's business, not a reason to restart.
    public var isAlive: Bool { sinceResponsive.map { $0 <= tolerance } ?? true }

    /// How long ago the host was last seen responsive: by the last check that completed, or, before the
    /// first one, since ``run(onResponsive:)`` started. `nil` before it started.
    public var sinceResponsive: Duration? { lastSeen.withLock { $0 }.map { $0.duration(to: clock.now) } }

    /// Checks the host every ``interval`` until the calling task is cancelled: waits `interval`, waits until
    /// the host is idle, records the time and calls `onResponsive`; then again. The first check comes one
    /// interval after the call, and the time it is called counts as seen.
    ///
    /// It returns as soon as the task is cancelled, even while the host is stuck: the wait for the host is
    /// cancellable, and leaves nothing behind. `onResponsive` is never called after cancellation. Run it
    /// once at a time.
    ///
    /// - Throws: `LifecycleError.Code.reentrantCall` when it runs inside a hook of the host, where the
    ///   host could never become idle. Cancellation is not an error: it returns.
    public func run(onResponsive: () -> Void = {}) async throws(LifecycleError) {
        lastSeen.withLock { $0 = clock.now }
        while true {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return  // cancelled
            }
            guard try await hostBecameIdle(), !Task.isCancelled else { return }
            lastSeen.withLock { $0 = clock.now }
            onResponsive()
        }
    }

    /// Waits until the host has handled every request queued: `true`; or until the calling task is
    /// cancelled: `false`.
    private func hostBecameIdle() async throws(LifecycleError) -> Bool {
        do {
            try await host.waitUntilIdle()
        } catch {
            guard error.code == .cancelled else { throw error }
            return false
        }
        return true
    }
}
