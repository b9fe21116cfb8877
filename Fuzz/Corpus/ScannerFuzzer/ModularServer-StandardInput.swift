import Foundation

/// The lines of standard input.
enum StandardInput {
    /// Each line of standard input, read on a thread of its own: a read that waits never holds a thread
    /// of the concurrency pool, and the process can exit while one waits.
    static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }
            .start()
        }
    }
}
