/// Why a benchmark could not measure: a server that did not start, a connection that failed, a wrong
/// answer. The benchmark stops with it rather than report figures of requests that were not served.
public struct BenchFailure: Error, CustomStringConvertible {
    public let description: String

    /// A failure that says `description`.
    public init(_ description: String) {
        self.description = description
    }
}
