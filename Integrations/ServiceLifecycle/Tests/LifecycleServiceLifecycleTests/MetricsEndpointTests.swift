import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The example's `GET /metrics` over real HTTP, from a real process: the host's metrics, which
/// `MetricsInstrument` makes with swift-prometheus's factory, in Prometheus's text exposition format.
@Suite("Metrics endpoint of the example server, over HTTP", .serialized, .timeLimit(.minutes(3)))
struct MetricsEndpointTests {
    init() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ExampleProcess.binary.path),
            "\(ExampleProcess.binary.path) is missing: build the package first (swift build), or set SERVICE_LIFECYCLE_EXAMPLE"
        )
    }

    /// One sample of the text format: `name{label="value",…} value`.
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double

        /// The sample on `line`, or `nil` for a comment, a blank line or anything else.
        init?(_ line: Substring) {
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "),
                let value = Double(line[line.index(after: space)...])
            else { return nil }
            let series = line[..<space]
            self.value = value
            guard let open = series.firstIndex(of: "{"), series.hasSuffix("}") else {
                name = String(series)
                labels = [:]
                return
            }
            name = String(series[..<open])
            var labels: [String: String] = [:]
            for pair in series[series.index(after: open)..<series.index(before: series.endIndex)].split(separator: ",")
            {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())  // without the quotes
            }
            self.labels = labels
        }
    }

    static func samples(_ body: String) -> [Sample] {
        body.split(separator: "\n").compactMap(Sample.init)
    }

    /// The value of `name` with `labels`, or `nil` if the body has no such sample.
    static func value(_ name: String, _ labels: [String: String] = [:], in samples: [Sample]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    static func calls(_ event: String, _ module: String) -> [String: String] {
        ["event": event, "module": "service_lifecycle_example.\(module)"]
    }

    static func context(_ example: ExampleProcess) -> String {
        "Transcript:\n\(example.transcript.joined(separator: "\n"))\nStandard error:\n\(example.standardError)"
    }

    @Test("GET /metrics: the deliveries of the example's modules and the state gauge, following the host")
    func metricsFollowTheHost() async throws {
        let example = try ExampleProcess(arguments: ["--port", "0", "--drain-delay", "0"])
        let port = try #require(await example.waitUntilServing(), "never served. \(Self.context(example))")

        let active = await HTTPExchange.get(port: port, path: "/metrics")
        #expect(active.status == 200, "\(active)")
        #expect(active.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true, "\(active.headers)")
        #expect(active.body.contains("# TYPE lifecycle_deliveries_total counter\n"), "\(active.body)")
        #expect(active.body.contains("# TYPE lifecycle_state gauge\n"), "\(active.body)")
        #expect(active.body.contains("# TYPE lifecycle_delivery_duration_seconds histogram\n"), "\(active.body)")
        let launched = Self.samples(active.body)
        #expect(Self.value("lifecycle_state", in: launched) == 2, "active. \(active.body)")
        for (event, module) in [
            ("setup", "StoreModule"), ("warmUp", "StoreModule"), ("didBecomeActive", "TrafficModule"),
        ] {
            #expect(
                Self.value("lifecycle_deliveries_total", Self.calls(event, module), in: launched) == 1,
                "\(event) \(module): \(active.body)"
            )
            #expect(Self.value("lifecycle_delivery_failures_total", Self.calls(event, module), in: launched) == 0)
            #expect(
                Self.value("lifecycle_delivery_duration_seconds_count", Self.calls(event, module), in: launched) == 1
            )
        }
        #expect(Self.value("lifecycle_event_duration_seconds_count", ["event": "setup"], in: launched) == 1)

        // The background (SIGUSR1): the state gauge and TrafficModule's new deliveries follow.
        example.send(SIGUSR1)
        #expect(await example.waitForLines(["signal SIGUSR1: host background"]), "\(Self.context(example))")
        let background = Self.samples(await HTTPExchange.get(port: port, path: "/metrics").body)
        #expect(Self.value("lifecycle_state", in: background) == 4, "background")
        #expect(
            Self.value("lifecycle_deliveries_total", Self.calls("didEnterBackground", "TrafficModule"), in: background)
                == 1
        )

        example.send(SIGTERM)
        #expect(await example.waitForExit() == 0, "\(Self.context(example))")
    }
}
