import LifecycleCore

/// The watchdog of one opening whose interceptors have budgets: it sleeps until the deadline of the
/// interceptor in progress, and if that interceptor is still the one in progress then, times it out.
/// One watchdog task per opening, whatever the number of interceptors; none without budgets.
final class RouteChainWatch: Sendable {
    private struct Current {
        let name: String
        let budget: Duration
        let deadline: ContinuousClock.Instant
    }

    private struct State {
        var generation = 0
        var current: Current?
        var finished = false
        /// The watchdog, parked while no interceptor runs.
        var parked: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// An interceptor named `name` starts, with `budget` to decide.
    func enter(_ name: String, budget: Duration) {
        let parked = state.withLock { state in
            state.generation += 1
            state.current = Current(name: name, budget: budget, deadline: .now + budget)
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume()
    }

    /// The interceptor in progress decided (or returned).
    func leave() {
        state.withLock { $0.current = nil }
    }

    /// The opening is over: the watchdog returns.
    func finish() {
        let parked = state.withLock { state in
            state.finished = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume()
    }

    /// Watches until ``finish()``, or until an interceptor overruns its budget: then calls `expired` with its
    /// name and budget, and returns.
    func watch(_ expired: (String, Duration) -> Void) async {
        while true {
            let observed: (generation: Int, current: Current?)? = state.withLock { state in
                state.finished ? nil : (state.generation, state.current)
            }
            guard let observed else { return }
            guard let current = observed.current else {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state in
                        guard !state.finished, state.current == nil, state.generation == observed.generation else {
                            return true
                        }
                        state.parked = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
                continue
            }
            do {
                try await Task.sleep(until: current.deadline, clock: .continuous)
            } catch {
                return
            }
            let overran = state.withLock { state in
                !state.finished && state.generation == observed.generation && state.current != nil
            }
            if overran {
                expired(current.name, current.budget)
                return
            }
        }
    }
}
