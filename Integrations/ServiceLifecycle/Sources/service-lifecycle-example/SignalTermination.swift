import LifecycleHosting
import ServiceLifecycle

/// Tells the example's `SignalRequests` that termination has begun, at the group's graceful shutdown: from
/// then on SIGHUP, SIGUSR1 and SIGUSR2 are reported and ignored (`signal SIGUSR1: ignored: …`), as under
/// `HostRunner`, instead of moving a host that is on its way down. The signals themselves are handled for the
/// whole run, outside the group (`ServiceLifecycleExample.runInServiceGroup`), so one sent during the
/// shutdown does not kill the process.
struct SignalTermination: Service {
    let requests: SignalRequests

    func run() async throws {
        // Returns at graceful shutdown, or throws at cancellation: termination has begun either way.
        try? await gracefulShutdown()
        requests.beginTermination()
    }
}
