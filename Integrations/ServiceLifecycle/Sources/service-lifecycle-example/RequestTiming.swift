import Foundation
import LifecycleScopes

/// A request scope's timing: it keeps when the scope began, and logs
/// `timing <METHOD> <path> <milliseconds> ms` to the request log (``RequestLog``, at `.info`) when the scope
/// ends. ``RequestScopeMiddleware`` adopts one per
/// request; the scope keeps the value, so what `didBegin` stores, `willEnd` reads.
struct RequestTiming: ScopeBehavior {
    /// Where the line goes.
    let log: RequestLog
    /// When the scope began; `nil` before.
    private(set) var started: ContinuousClock.Instant?

    /// A timing that writes to `log`.
    init(log: RequestLog) {
        self.log = log
    }

    mutating func didBegin(_ scope: Scope) {
        started = .now
    }

    func willEnd(_ scope: Scope) {
        let elapsed = started.map { ContinuousClock.now - $0 } ?? .zero
        log.write("timing \(scope.name) \(Self.milliseconds(elapsed)) ms")
    }

    /// `elapsed` in milliseconds, with three decimals.
    private static func milliseconds(_ elapsed: Duration) -> String {
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        return String(format: "%.3f", milliseconds)
    }
}
