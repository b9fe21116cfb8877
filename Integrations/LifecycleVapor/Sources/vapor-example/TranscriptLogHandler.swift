import ExampleFeatures
import Logging

/// A swift-log handler that writes each message, alone, as a line of the transcript: for
/// ``RequestLogAction``'s label, so its lines, when their level is on, sit among the lines the process tests
/// read.
struct TranscriptLogHandler: LogHandler {
    let transcript: Transcript
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(transcript: Transcript, logLevel: Logger.Level) {
        self.transcript = transcript
        self.logLevel = logLevel
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level,
        message: Logger.Message,
        metadata: Logger.Metadata?,
        source: String,
        file: String,
        function: String,
        line: UInt
    ) {
        transcript.write(message.description)
    }
}
