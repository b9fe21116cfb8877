import Foundation
import LifecycleCore
import Synchronization

/// Writes whole lines to standard output at once, unbuffered, in the order they are written: the
/// transcript the process tests read. A test that hosts the example's modules in its own process gives it
/// an output of its own.
final class Transcript: Sendable {
    private let order = Mutex(())
    private let output: @Sendable (String) -> Void

    /// A transcript that hands each line, with its newline, to `output`: standard output by default.
    init(output: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) }) {
        self.output = output
    }

    /// Writes `line` and a newline.
    func write(_ line: String) {
        order.withLock { _ in output(line + "\n") }
    }

    /// Writes one delivery as `lifecycle <event> <Module>`; for `ApplicationHost.Configuration.onDelivery`.
    func writeDelivery(_ record: DeliveryRecord) {
        let module = record.participant.name.split(separator: ".").last.map(String.init) ?? record.participant.name
        write("lifecycle \(record.event.name) \(module)\(record.error.map { " threw \($0)" } ?? "")")
    }
}
