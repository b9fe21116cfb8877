import Synchronization

@testable import ModularServer

/// A ``ServerLog`` that keeps its lines, for a test to read.
final class RecordedLog: Sendable {
    private let recorded = Mutex<[String]>([])

    /// The lines written so far.
    var lines: [String] { recorded.withLock { $0 } }

    /// The log to give the host.
    var serverLog: ServerLog {
        ServerLog { line in self.recorded.withLock { $0.append(line) } }
    }
}
