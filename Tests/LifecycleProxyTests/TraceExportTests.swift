import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// Warms up for 30 ms, beside ``SlowWarmUpB``: the two overlap in the concurrent stage.
struct SlowWarmUpA: LifecycleModule, WarmUpStage, DidBecomeActive {
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}
    func warmUp(_ context: LifecycleContext) async throws { try await Task.sleep(for: .milliseconds(30)) }
    func didBecomeActive(_ context: LifecycleContext) {}
}

struct SlowWarmUpB: LifecycleModule, WarmUpStage, DidBecomeActive {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func warmUp(_ context: LifecycleContext) async throws { try await Task.sleep(for: .milliseconds(30)) }
    func didBecomeActive(_ context: LifecycleContext) throws { throw FixtureFailure(participant: "B", event: "active") }
}

@Suite("The journal as a Chrome trace (Perfetto)", .timeLimit(.minutes(1)))
struct TraceExportTests {
    /// The trace's events, as dictionaries.
    func traceEvents(of host: ApplicationHost) throws -> [[String: Any]] {
        let data = try #require(try host.journal?.exportTrace())
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(document["traceEvents"] as? [[String: Any]])
    }

    @Test("Every journal record is a slice, in time order, nested in its event's slice on its lane")
    func structure() async throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Trace", [SlowWarmUpA.self, SlowWarmUpB.self]),
            configuration: .init(onUnobservedError: { _ in })
        )
        await #expect(throws: LifecycleError.self) { try await host.launch() }  // B's didBecomeActive throws
        try await host.terminate()
        let journal = try #require(host.journal?.entries)
        let events = try traceEvents(of: host)

        // Fields, by phase.
        for event in events {
            #expect(event["name"] is String && event["ph"] is String && event["pid"] is Int && event["tid"] is Int)
            if event["ph"] as? String != "M" { #expect(event["ts"] is Double || event["ts"] is Int) }
            if event["ph"] as? String == "X" { #expect(event["dur"] != nil) }
        }
        // Monotonic timestamps.
        let stamps = events.compactMap { ($0["ts"] as? NSNumber)?.doubleValue }
        #expect(stamps == stamps.sorted())

        // Every record is in it, once.
        let deliveries = events.filter { $0["cat"] as? String == "delivery" }
        #expect(deliveries.count == journal.count)
        let sequences = deliveries.compactMap { ($0["args"] as? [String: Any])?["sequence"] as? Int }
        #expect(Set(sequences) == Set(journal.map(\.sequence)))

        // Nesting: each delivery inside an event slice of its name on its track; the launch slice encloses them.
        let slices = events.filter { $0["cat"] as? String == "event" }
        for delivery in deliveries {
            let args = delivery["args"] as? [String: Any]
            let start = (delivery["ts"] as? NSNumber)?.doubleValue ?? -1
            let end = start + ((delivery["dur"] as? NSNumber)?.doubleValue ?? 0)
            let enclosed = slices.contains { slice in
                let from = (slice["ts"] as? NSNumber)?.doubleValue ?? 0
                let to = from + ((slice["dur"] as? NSNumber)?.doubleValue ?? 0)
                return slice["name"] as? String == args?["event"] as? String
                    && slice["tid"] as? Int == delivery["tid"] as? Int && from <= start && end <= to + 0.001
            }
            #expect(enclosed, "\(delivery)")
        }
        #expect(events.filter { $0["name"] as? String == "launch" && $0["ph"] as? String == "X" }.count == 1)

        // The two warm-ups overlapped, so they are on two lanes.
        let warmUps = deliveries.filter { ($0["args"] as? [String: Any])?["event"] as? String == "warmUp" }
        #expect(Set(warmUps.compactMap { $0["tid"] as? Int }) == [1, 2])
        #expect(events.contains { $0["ph"] as? String == "M" && $0["tid"] as? Int == 2 })

        // The failure is an instant event with the error.
        let failures = events.filter { $0["ph"] as? String == "i" && $0["name"] as? String == "failure" }
        #expect(failures.count == 1)
        let failure = try #require(failures.first?["args"] as? [String: Any])
        #expect(failure["participant"] as? String == SlowWarmUpB.moduleName)
        #expect(failure["event"] as? String == "didBecomeActive")
        #expect((failure["error"] as? String)?.contains("B failed in active") == true)
    }
}
