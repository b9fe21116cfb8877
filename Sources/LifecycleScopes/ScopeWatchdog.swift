import LifecycleCore

/// Watches the ends of a registry's scopes that have a budget, with one task for the whole registry: a
/// scope's end costs two short critical sections here, never a task or a timer of its own.
///
/// The task sleeps until the earliest deadline, and never longer than a quarter of the shortest budget
/// seen, so an end is taken over within a quarter of its budget after its deadline. An end that overruns is
/// handed to ``Scope/takeOverEnd()`` in a task of its own, so one stuck end never delays another. After a
/// quarter-budget with no end watched, the task parks until the next one (or, once the host is gone, stops).
final class ScopeWatchdog: Sendable {
    private struct Entry: Sendable {
        let token: UInt64
        let scope: Scope
        let deadline: ContinuousClock.Instant
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        var nextToken: UInt64 = 0
        /// Ends watched since the task last looked: it parks only after a quiet tick.
        var activity = false
        var shortestBudget: Duration?
        var running = false
        var retired = false
        var parked: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Watches the end of `scope`, which must finish within `budget`; returns the token to ``unwatch(_:)``.
    func watch(_ scope: Scope, budget: Duration) -> UInt64 {
        let deadline = ContinuousClock.now + budget
        let (token, start, parked) = state.withLock { state in
            state.nextToken += 1
            state.entries.append(Entry(token: state.nextToken, scope: scope, deadline: deadline))
            state.activity = true
            state.shortestBudget = min(state.shortestBudget ?? budget, budget)
            let start = !state.running
            if start { state.running = true }
            defer { state.parked = nil }
            return (state.nextToken, start, state.parked)
        }
        parked?.resume()
        if start { Task.detached { await self.run() } }
        return token
    }

    /// The end watched with `token` has finished.
    func unwatch(_ token: UInt64) {
        state.withLock { state in
            if let index = state.entries.firstIndex(where: { $0.token == token }) {
                state.entries.remove(at: index)
            }
        }
    }

    /// The registry's host is gone: the task stops as soon as no end is watched, instead of parking.
    func retire() {
        let parked = state.withLock { state in
            state.retired = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume()
    }

    private enum Next {
        case sleep(Duration)
        case park
        case stop
    }

    private func run() async {
        while true {
            let now = ContinuousClock.now
            let (expired, next): ([Scope], Next) = state.withLock { state in
                var expired: [Scope] = []
                state.entries.removeAll { entry in
                    guard entry.deadline <= now else { return false }
                    expired.append(entry.scope)
                    return true
                }
                let tick = max(min((state.shortestBudget ?? .seconds(1)) / 4, .seconds(1)), .milliseconds(1))
                if state.entries.isEmpty && !state.activity {
                    // Parked, the task would wait for an end forever once the host is gone: it stops instead,
                    // and the next watched end starts a new one.
                    guard !state.retired else {
                        state.running = false
                        return (expired, .stop)
                    }
                    return (expired, .park)
                }
                state.activity = false
                let earliest = state.entries.map(\.deadline).min().map { $0 - now } ?? tick
                return (expired, .sleep(max(min(tick, earliest), .milliseconds(1))))
            }
            for scope in expired { Task.detached { await scope.takeOverEnd() } }
            switch next {
            case .stop:
                return
            case .sleep(let duration):
                // This task is never cancelled, so the sleep always waits.
                try? await Task.sleep(for: duration)
            case .park:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state in
                        guard !state.retired, state.entries.isEmpty, !state.activity else { return true }
                        state.parked = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }
}
