/// The command line of a server benchmark: `--quick` (one round of 2,000 requests per side and
/// concurrency: a smoke run), `--rounds N` (default 5), `--requests N` per round and side (default 20,000)
/// and `--only NAME` (one comparison).
public struct BenchOptions: Sendable {
    /// `--quick`: a smoke run.
    public let quick: Bool
    /// `--rounds N`: rounds per concurrency.
    public let rounds: Int
    /// `--requests N`: requests per round and side.
    public let requestsPerRound: Int
    /// `--only NAME`: the one comparison to run, if given.
    public let only: String?

    /// The options `arguments` give (the process's own by default).
    public init(_ arguments: [String] = CommandLine.arguments) {
        func value(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        }
        quick = arguments.contains("--quick")
        rounds = value("--rounds").flatMap(Int.init) ?? (quick ? 1 : 5)
        requestsPerRound = value("--requests").flatMap(Int.init) ?? (quick ? 2_000 : 20_000)
        only = value("--only")
    }

    /// Whether the comparison `name` runs: every one does unless `--only` names another.
    public func runs(_ name: String) -> Bool { only == nil || only == name }
}
