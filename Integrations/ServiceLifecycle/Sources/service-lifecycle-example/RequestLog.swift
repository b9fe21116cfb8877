import Logging

/// Where the per-request lines go: each request's `timing` and `audit`, the item route's progress, and each
/// session's `began`, `welcome` and `ended`. They go through swift-log, at ``level`` (`.info`) under the
/// label ``label`` (`shop.requests`), so an operator turns them on and off: the example's default log level
/// is `.notice`, which leaves them out, and `--log-level info` (or `LOG_LEVEL=info`) writes them. Nothing
/// is formatted while they are off.
///
/// The program's logging bootstrap sends this label to the transcript, one line per message
/// (``TranscriptLogHandler``), so the lines read as before when enabled; other labels go to standard error.
struct RequestLog: Sendable {
    /// The logger label of the per-request lines.
    static let label = "shop.requests"
    /// The level they are logged at.
    static let level: Logger.Level = .info

    let logger: Logger

    /// Per-request lines to the logger the logging system makes for ``label``.
    init() {
        logger = Logger(label: Self.label)
    }

    /// Per-request lines to `transcript`, at or above `logLevel`: for a test that hosts the example in its
    /// own process, without bootstrapping the logging system.
    init(transcript: Transcript, logLevel: Logger.Level) {
        logger = Logger(label: Self.label) { _ in TranscriptLogHandler(transcript: transcript, logLevel: logLevel) }
    }

    /// Logs `line` at ``level``; `line` is not even built when that level is off.
    func write(_ line: @autoclosure () -> String) {
        logger.log(level: Self.level, "\(line())")
    }
}
