import LifecycleCore

/// The watchdog of one opening whose interceptors have budgets: it sleeps until the deadline of the
/// interceptor in progress, and if that interceptor is still the one in progress then, times it out.
/// One watchdog task per opening, whatever the number of interceptors; none without budgets.
///
/// It never sleeps longer than half the shortest budget of the chain at a time, so an interceptor whose
/// budget is shorter than the one before it is still timed out within half that budget of its deadline.
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
        /// The interceptor in progress overran its budget: the opening has failed, and nothing may follow.
        var timedOut = false
        /// The watchdog, parked while no interceptor runs.
        var parked: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())
    /// The longest the watchdog sleeps at a time: half the shortest budget of the chain.
    private let step: Duration

    init(shortestBudget: Duration) {
        step = shortestBudget / 2
    }

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

    /// The interceptor in progress returned. `true` if it had overrun its budget by then: the opening has
    /// failed already, and the caller must not act on what the interceptor decided.
    func leave() -> Bool {
        state.withLock { state in
            state.current = nil
            return state.timedOut
        }
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
                try await Task.sleep(until: min(current.deadline, .now + step), clock: .continuous)
            } catch {
                return
            }
            let overran = state.withLock { state in
                let overran =
                    !state.finished && state.generation == observed.generation && state.current != nil
                    && ContinuousClock.now >= current.deadline
                if overran { state.timedOut = true }
                return overran
            }
            if overran {
                expired(current.name, current.budget)
                return
            }
        }
    }
}
