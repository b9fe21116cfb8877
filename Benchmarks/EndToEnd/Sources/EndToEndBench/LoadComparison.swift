#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Servers compared side by side in one process on 127.0.0.1, with the ``LoadGenerator`` at 1 and 64
/// concurrent clients. The sides take turns, round by round, each round starting with another side. For each
/// side it prints round trip min, p50 and p99, requests per second, and the process's CPU time per request
/// (server and load generator: the figure that holds on a loaded machine, where waiting for a core inflates
/// the latencies); then each side's ratios to the first.
///
/// The load generator runs on the same cores as the servers, so the round trips include its cost too, the
/// same for every side.
public struct LoadComparison: Sendable {
    /// One side: a server's port, the path every request asks, and the body it must answer.
    public struct Side: Sendable {
        let name: String
        let port: Int
        let path: String
        let expected: String

        /// The side `name`: `GET path` on 127.0.0.1:`port`, answered with the body `expected`.
        public init(name: String, port: Int, path: String, expected: String) {
            (self.name, self.port, self.path, self.expected) = (name, port, path, expected)
        }
    }

    /// What one side measured over every round.
    struct Figures {
        var latencies: [UInt64] = []
        var elapsed: Duration = .zero
        /// The process's CPU time per request in each round, in µs.
        var cpuPerRequest: [Double] = []

        func percentile(_ fraction: Double, of sorted: [UInt64]) -> Double {
            Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1_000
        }
        var perSecond: Double {
            let seconds = Double(elapsed.components.seconds) + 1e-18 * Double(elapsed.components.attoseconds)
            return Double(latencies.count) / seconds
        }
        var cpuMinimum: Double { cpuPerRequest.min() ?? 0 }
        var cpuMedian: Double { cpuPerRequest.sorted()[cpuPerRequest.count / 2] }

        /// min, p50, p99 in µs.
        var summary: (min: Double, p50: Double, p99: Double) {
            let sorted = latencies.sorted()
            return (Double(sorted.first ?? 0) / 1_000, percentile(0.5, of: sorted), percentile(0.99, of: sorted))
        }
    }

    let options: BenchOptions

    /// A comparison of `options.rounds` rounds of `options.requestsPerRound` requests per side.
    public init(_ options: BenchOptions) {
        self.options = options
    }

    /// `value` as a ratio: "1.234x".
    public static func ratio(_ value: Double) -> String { String(format: "%.3fx", value) }

    /// Measures `sides` at 1 and 64 clients, taking turns, and prints each side and its ratios to the first.
    ///
    /// - Throws: ``BenchFailure`` when a side fails a request.
    public func run(_ title: String, _ sides: [Side]) throws(BenchFailure) {
        let (rounds, perRound) = (options.rounds, options.requestsPerRound)
        print("\(title): \(rounds) round(s) of \(perRound) requests per side and concurrency, taking turns")
        for clients in [1, 64] {
            for side in sides { _ = try measure(side, clients: clients, requests: min(perRound, 2_000)) }  // warm-up
            var figures = Array(repeating: Figures(), count: sides.count)
            for round in 0..<rounds {
                for offset in sides.indices {
                    let index = (round + offset) % sides.count  // each round starts with another side
                    let measured = try measure(sides[index], clients: clients, requests: perRound)
                    figures[index].latencies += measured.latencies
                    figures[index].elapsed += measured.elapsed
                    figures[index].cpuPerRequest.append(measured.cpu)
                }
            }
            print("  \(clients) concurrent client(s), round trip in µs; CPU µs per request (min / median of rounds):")
            let width = sides.map(\.name.count).max() ?? 0
            for (side, figure) in zip(sides, figures) {
                let (low, p50, p99) = figure.summary
                print(
                    "    \(side.name.padding(toLength: width, withPad: " ", startingAt: 0))  min \(format(low))  "
                        + "p50 \(format(p50))  p99 \(format(p99))  \(String(format: "%7.0f", figure.perSecond)) req/s  "
                        + "CPU \(format(figure.cpuMinimum, 5)) / \(format(figure.cpuMedian, 5))"
                )
            }
            let base = figures[0].summary
            for (side, figure) in zip(sides, figures).dropFirst() {
                let (low, p50, p99) = figure.summary
                print(
                    "    \(side.name) ÷ \(sides[0].name): min \(Self.ratio(low / base.min))  "
                        + "p50 \(Self.ratio(p50 / base.p50))  p99 \(Self.ratio(p99 / base.p99))  "
                        + "throughput \(Self.ratio(figure.perSecond / figures[0].perSecond))  "
                        + "CPU \(Self.ratio(figure.cpuMinimum / figures[0].cpuMinimum)) / "
                        + "\(Self.ratio(figure.cpuMedian / figures[0].cpuMedian))"
                )
            }
        }
    }

    /// Sends `requests` requests to `side` from `clients` clients.
    private func measure(
        _ side: Side,
        clients: Int,
        requests: Int
    ) throws(BenchFailure) -> (latencies: [UInt64], elapsed: Duration, cpu: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let cpu = Self.processCPUTime()
        let generator = LoadGenerator(
            port: side.port,
            path: side.path,
            expected: side.expected,
            clients: clients,
            requests: requests
        )
        let latencies = try generator.run()
        return (latencies, clock.now - start, (Self.processCPUTime() - cpu) / Double(requests))
    }

    private func format(_ value: Double, _ width: Int = 7) -> String { String(format: "%\(width).1f", value) }

    /// The CPU time this process has used, user and system, in µs.
    static func processCPUTime() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
        return microseconds(usage.ru_utime) + microseconds(usage.ru_stime)
    }
}
