import Foundation
import LifecycleScopes

/// A request scope's timing: it keeps when the scope began, and writes
/// `timing <METHOD> <path> <milliseconds> ms` when the scope ends. ``RequestScopeMiddleware`` adopts one per
/// request; the scope keeps the value, so what `didBegin` stores, `willEnd` reads.
struct RequestTiming: ScopeBehavior {
    /// Where the line goes.
    let transcript: Transcript
    /// When the scope began; `nil` before.
    private(set) var started: ContinuousClock.Instant?

    /// A timing that writes to `transcript`.
    init(transcript: Transcript) {
        self.transcript = transcript
    }

    mutating func didBegin(_ scope: Scope) {
        started = .now
    }

    func willEnd(_ scope: Scope) {
        let elapsed = started.map { ContinuousClock.now - $0 } ?? .zero
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        transcript.write("timing \(scope.name) \(String(format: "%.3f", milliseconds)) ms")
    }
}
