import InMemoryTracing
import LifecycleCore
import LifecycleObservability
import LifecycleProxy
import MetricsTestKit
import Synchronization
import Testing
import Tracing

// README: own-instrument
/// Writes each request with the deployment that asked for it, and each hook call slower than `limit`.
struct SlowHookReport: LifecycleInstrument {
    @TaskLocal static var deployment: String?
    let limit: Duration
    let write: @Sendable (String) -> Void

    func captureContext() -> (any Sendable)? { Self.deployment }  // in the asking task

    func requestStarted(_ request: HostRequest, context: (any Sendable)?) {
        write("\(request) for \(context as? String ?? "nobody")")  // in the host's task
    }

    func delivered(_ record: DeliveryRecord) {
        guard record.duration > limit else { return }
        write("slow: \(record.event.name) \(record.participant.name)")
    }
}
// README: end

/// The examples of Docs/Observability.md, compiled and run here. Edit them here first, then paste them into
/// the documentation: the root package's snippet test checks that they match.
@Suite("Observability examples", .timeLimit(.minutes(1)))
struct ObservabilityGuideTests {
    @Test("Both instruments on one host: spans in the tracer, counts in the factory")
    func install() async throws {
        let tracer = InMemoryTracer()
        let factory = TestMetrics()
        // README: observability-install
        let tracing = TracingInstrument(tracer: tracer)  // InstrumentationSystem.tracer by default
        let metrics = MetricsInstrument(factory: factory)  // MetricsSystem.factory by default
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, CacheModule.self]),
            configuration: ApplicationHost.Configuration(instruments: [tracing, metrics])
        )
        // README: end

        // README: observability-caller-span
        try await tracer.withSpan("deploy") { _ in
            try await host.launch()  // a child of "deploy", with its events and hook calls under it
            try await host.waitUntilReady()
        }
        // README: end

        let tree = SpanTree(spans: tracer.finishedSpans)
        let launch = try tree.only("launch()")
        #expect(launch.parentSpanID == (try tree.only("deploy")).spanID)
        #expect(tree.childNames(of: launch) == ["setup", "didFinishLaunching", "didBecomeActive"])
        #expect(factory.counterTotal(label: "lifecycle_deliveries_total") == 6)
        #expect(try factory.expectGauge("lifecycle_state").lastValue == 2)
    }

    @Test("A custom instrument sees the asking task's context and every hook call")
    func ownInstrument() async throws {
        let lines = Mutex<[String]>([])
        let report = SlowHookReport(limit: .milliseconds(10)) { line in lines.withLock { $0.append(line) } }
        let host = try makeHost(
            [PoolModule.self, SlowSetupModule.self],
            timeline: Timeline(),
            setupDelay: .milliseconds(30)
        ) { $0.instruments = [report] }
        _ = try await SlowHookReport.$deployment.withValue("deploy-42") { try await host.launch() }
        try await host.terminate()

        #expect(
            lines.withLock { $0 } == [
                "launch() for deploy-42",
                "slow: setup \(SlowSetupModule.moduleName)",
                "terminate() for nobody",
            ]
        )
    }
}
