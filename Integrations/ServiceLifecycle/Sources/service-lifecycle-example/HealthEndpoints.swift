import Hummingbird
import LifecycleCore
import LifecycleHosting

/// The health probes, for a load balancer or Kubernetes:
///
/// - `GET /health/live`: liveness, from ``HostLiveness``. `200 alive` while the probe has seen the host
///   handle its requests within the tolerance, `503 not responsive` once a hook has held it longer: the
///   process should be restarted. The same probe would pet a systemd watchdog.
/// - `GET /health/ready`: readiness, from ``HostReadiness``. 200 while the host is active or inactive with
///   every module ready; 503 while it launches, in the background, from the moment a graceful shutdown
///   begins (draining, before the listener closes), and while terminating. The body is the `HostHealth`
///   JSON either way: `{"degraded":[],"draining":false,"notReady":[],"quarantined":[],"ready":true,"state":"active"}`.
/// - `GET /health`: liveness too, as before the split.
///
/// Register them before any middleware: they answer during launch, before a request scope can run, and are
/// neither timed nor audited.
struct HealthEndpoints {
    let liveness: HostLiveness
    let readiness: HostReadiness

    func register(on router: Router<BasicRequestContext>) {
        // README: health-routes
        router.get("health/live") { _, _ in live() }  // 200 "alive", or 503 once the host is stuck
        router.get("health") { _, _ in live() }
        router.get("health/ready") { _, _ in
            let health = await readiness.health()  // HostHealth: Codable, the JSON body
            return AdminEndpoint.json(health, status: health.isReady ? .ok : .serviceUnavailable)
        }
        // README: end
    }

    private func live() -> Response {
        let alive = liveness.isAlive
        return Response(
            status: alive ? .ok : .serviceUnavailable,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: alive ? "alive\n" : "not responsive\n"))
        )
    }
}
