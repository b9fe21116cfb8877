import Logging
import Synchronization

/// Every record logged through the loggers made by ``logger(label:level:)``, in order.
final class LogRecords: Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let entries = Mutex<[Entry]>([])

    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    var all: [Entry] { entries.withLock { $0 } }

    /// A logger that records here, with `level` as its log level.
    func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in RecordingLogHandler(records: self) }
        logger.logLevel = level
        return logger
    }
}

/// A log handler that appends every record to a ``LogRecords``.
struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        records.append(LogRecords.Entry(level: event.level, message: "\(event.message)", metadata: merged))
    }
}
