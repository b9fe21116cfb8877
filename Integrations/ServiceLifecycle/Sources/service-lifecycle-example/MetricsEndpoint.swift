import Hummingbird
import Prometheus

/// `GET /metrics`: every metric of the registry, in Prometheus's text exposition format, for a Prometheus
/// server to scrape. Among them the host's, which `MetricsInstrument` makes with a `PrometheusMetricsFactory`
/// of this registry: `lifecycle_deliveries_total{event,module}` and the others of `MetricsInstrument.Names`,
/// and `lifecycle_state`.
///
/// Register it before any middleware, like the health probes: it answers during launch too, and a scrape
/// is neither timed nor audited.
struct MetricsEndpoint {
    let registry: PrometheusCollectorRegistry

    func register(on router: Router<BasicRequestContext>) {
        // README: metrics-route
        router.get("metrics") { _, _ in
            var text: [UInt8] = []
            registry.emit(into: &text)  // every metric, in the text exposition format
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text))
            )
        }
        // README: end
    }
}
