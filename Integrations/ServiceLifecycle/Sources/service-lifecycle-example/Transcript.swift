import Foundation
import LifecycleCore
import Synchronization

/// Writes whole lines to standard output at once, unbuffered, in the order they are written: the
/// transcript the process tests read.
final class Transcript: Sendable {
    private let order = Mutex(())

    /// Writes `line` and a newline.
    func write(_ line: String) {
        order.withLock { _ in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    /// Writes one delivery as `lifecycle <event> <Module>`; for `ApplicationHost.Configuration.onDelivery`.
    func writeDelivery(_ record: DeliveryRecord) {
        let module = record.participant.name.split(separator: ".").last.map(String.init) ?? record.participant.name
        write("lifecycle \(record.event.name) \(module)\(record.error.map { " threw \($0)" } ?? "")")
    }
}
