import Foundation
import LifecycleCore
import LifecycleProxy
import SyntheticModules

#if Observability
import InMemoryTracing
import LifecycleObservability
import Metrics
import Prometheus
import Tracing
#endif

// The instrument rows: open-URL through an `ApplicationHost` to N modules with synchronous hooks, without
// instruments and with each of `LifecycleObservability`'s (trait `Observability`). The host has no time
// limits and no journal, so what an instrument adds is all that differs between the rows: one check per
// event without instruments; with them, the calls around the request and the event, and a timed
// `DeliveryRecord` per hook.

/// The instrument rows for N modules. Each host is built here and launched by its first repetition, outside
/// the measured region.
func instrumentCases(_ n: Int, expectedVote: Bool) -> [BenchCase] {
    var cases = [
        instrumentCase(n, .hostSyncOpenURL, instruments: [], expectedVote: expectedVote),
        instrumentCase(
            n,
            .hostSyncOpenURLEmptyInstrument,
            instruments: [EmptyInstrument()],
            expectedVote: expectedVote
        ),
    ]
    #if Observability
    cases.append(
        instrumentCase(
            n,
            .hostSyncOpenURLTracingNoOp,
            instruments: [TracingInstrument(tracer: NoOpTracer())],
            expectedVote: expectedVote
        )
    )
    let recording = InMemoryTracer()
    cases.append(
        instrumentCase(
            n,
            .hostSyncOpenURLTracing,
            instruments: [TracingInstrument(tracer: recording)],
            expectedVote: expectedVote,
            // The finished spans, dropped after each sample so memory stays flat.
            afterSample: { recording.clearAll() }
        )
    )
    cases.append(
        instrumentCase(
            n,
            .hostSyncOpenURLMetricsNoOp,
            instruments: [MetricsInstrument(factory: NOOPMetricsHandler.instance)],
            expectedVote: expectedVote
        )
    )
    let registry = PrometheusCollectorRegistry()
    cases.append(
        instrumentCase(
            n,
            .hostSyncOpenURLMetrics,
            instruments: [MetricsInstrument(factory: PrometheusMetricsFactory(registry: registry))],
            expectedVote: expectedVote
        )
    )
    #endif
    return cases
}

/// An instrument that keeps every default: what the seam costs before an instrument does anything.
private struct EmptyInstrument: LifecycleInstrument {}

private func instrumentCase(
    _ n: Int,
    _ system: System,
    instruments: [any LifecycleInstrument],
    expectedVote: Bool,
    afterSample: @escaping @Sendable () -> Void = {}
) -> BenchCase {
    let host: ApplicationHost
    do {
        host = try ApplicationHost(
            manifest: ModuleManifest(name: "SyncNumbered", Array(SyntheticCatalog.syncNumbered.prefix(n))),
            configuration: ApplicationHost.Configuration(
                hookBudget: nil,
                terminateDeadline: nil,
                instruments: instruments,
                journalCapacity: 0
            )
        )
    } catch {
        fatalError("\(system.id): the host of \(n) modules did not build: \(error)")
    }
    let url = URL(string: "bench://open")!
    return BenchCase(system: system, modules: n, expectedTicks: n) { meter, iterations in
        do {
            if host.state == .notRunning {
                try await host.launch()
                HookTally.reset()  // launch's hook calls are not this repetition's
            }
            meter.begin()
            for _ in 0..<iterations {
                if try await host.open(url) != expectedVote { fatalError("\(system.id) combined the wrong vote") }
            }
            meter.end()
        } catch {
            fatalError("\(system.id): \(error)")
        }
        afterSample()
    }
}
