/// A module that sets its own time budget for some events, overriding the host's.
///
/// ```swift
/// struct MigrationsModule: LifecycleModule, TimeBudgetedModule, DidFinishLaunching {
///     static let priority: ModulePriority = .high
///     static func budget(for event: LifecycleEvent) -> Duration? {
///         event == .didFinishLaunching ? .seconds(120) : nil  // nil: the host's budget applies
///     }
///     …
/// }
/// ```
public protocol TimeBudgetedModule: LifecycleModule {
    /// The most time one of this module's hooks may take for `event`, or `nil` for the host's budget.
    static func budget(for event: LifecycleEvent) -> Duration?
}

/// The failure recorded for a hook that ran past its budget: it names the module, the event, the budget
/// and the time it had run when the host gave up waiting.
///
/// The hook is not stopped — Swift cannot stop a task — but it is cancelled and abandoned: its result, if
/// it ever returns, is ignored, and the module is marked degraded.
public struct HookTimeout: Error, Sendable, Hashable, CustomStringConvertible {
    /// The module (or delegate) whose hook ran too long.
    public let participant: String
    /// The event being delivered.
    public let event: LifecycleEvent
    /// The budget that applied.
    public let budget: Duration
    /// How long the hook had run when it was abandoned.
    public let elapsed: Duration

    package init(participant: String, event: LifecycleEvent, budget: Duration, elapsed: Duration) {
        self.participant = participant
        self.event = event
        self.budget = budget
        self.elapsed = elapsed
    }

    public var description: String {
        "`\(participant)` exceeded its \(budget) budget in \(event.name) (abandoned after \(elapsed)); raise the "
            + "budget with TimeBudgetedModule or configuration.eventBudgets, or make the hook return sooner"
    }
}

/// The injected clock, opened once: time as a `Duration` since the host was created, and sleeping until
/// such a time; and wall-clock (`ContinuousClock`) time as a `Duration` since ``wallOrigin``, for
/// delivery records.
///
/// Hot paths keep instants as `Duration`s: `ContinuousClock.Instant` is resilient, so every copy of a value
/// that holds one goes through its value witnesses.
package struct ClockFunctions: Sendable {
    package let now: @Sendable () -> Duration
    /// ``now`` and the wall-clock time, in one reading when the configured clock is the continuous clock
    /// (the default): then the two are the same.
    package let nowAndWall: @Sendable () -> (now: Duration, wall: Duration)
    package let sleep: @Sendable (_ until: Duration) async throws -> Void
    /// The instant wall-clock times are measured from.
    package let wallOrigin: ContinuousClock.Instant

    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let wallOrigin = ContinuousClock.now
        self.wallOrigin = wallOrigin
        if let continuous = clock as? ContinuousClock {
            // Concrete code for the default clock: no generic instant arithmetic per reading.
            now = { wallOrigin.duration(to: .now) }
            nowAndWall = {
                let now = wallOrigin.duration(to: .now)
                return (now, now)
            }
            sleep = { offset in try await continuous.sleep(until: wallOrigin.advanced(by: offset), tolerance: nil) }
        } else {
            let origin = clock.now
            let now: @Sendable () -> Duration = { origin.duration(to: clock.now) }
            self.now = now
            nowAndWall = { (now(), wallOrigin.duration(to: .now)) }
            sleep = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        }
    }

    /// The wall-clock time now.
    package func wallNow() -> Duration { wallOrigin.duration(to: .now) }

    /// The wall-clock instant of a wall-clock time.
    package func wall(_ time: Duration) -> ContinuousClock.Instant { wallOrigin.advanced(by: time) }
}

/// Told by the fan-out loop about each hook call, so a watchdog can enforce budgets.
package protocol DeliverySupervisor: Sendable {
    /// Before calling the hook at delivery `position`. `false` means this runner was superseded (a hook
    /// of it timed out): it must stop without calling anything more.
    func willCall(_ position: Int) -> Bool
    /// After that hook returned `answer` or threw `failure`. `false` means the hook had already been
    /// abandoned on a timeout: its late result must not be reported anywhere.
    @discardableResult
    func didCall(_ position: Int, answer: (any Sendable)?, failure: (any Error)?) -> Bool
}

/// The shared state of one supervised delivery: which runner is current, which hook it is in and since
/// when, and the answers collected so far. One per event delivery; runners and the watchdog share it.
package final class DeliverySupervision: DeliverySupervisor {
    package struct Answer: Sendable {
        package let position: Int
        package let answer: (any Sendable)?
        package let failure: (any Error)?
    }

    fileprivate struct State {
        var generation = 0
        /// The hook in progress: its position, and when it started on the configured and the wall clock.
        var current: (position: Int, start: Duration, wallStart: Duration)?
        /// The answers kept: every one when the event combines results, else only the failures.
        var answers: [Answer] = []
        /// The position of every hook that answered, in the order they answered.
        var answered: [Int] = []
        var finished = false
        /// How many hooks were called, and the watchdog waiting for the next call, if it waits.
        var calls = 0
        var watchdog: CheckedContinuation<Void, Never>?
    }

    private let time: ClockFunctions
    private let generation: Int
    private let shared: SharedState

    /// Where the supervisor journals each hook call itself, instead of the fan-out building a
    /// ``DeliveryRecord`` for an observer: the delivered event, its plan, and the journal.
    package struct Journaling: Sendable {
        let journal: DeliveryJournal
        let event: LifecycleEvent
        let plan: [Participant]
        /// Whether the event has a Bool result to record.
        let hasResult: Bool
        /// The journal's origin to the clock's wall origin: zero for the host's own journal.
        let shift: Duration

        package init(journal: DeliveryJournal, event: LifecycleEvent, plan: [Participant], time: ClockFunctions) {
            self.journal = journal
            self.event = event
            self.plan = plan
            self.hasResult = event.resultRule != .none
            self.shift = journal.origin.duration(to: time.wallOrigin)
        }
    }

    /// The state shared by every runner of one delivery.
    package final class SharedState: Sendable {
        fileprivate let state = Locked(State())
        /// Whether answers are kept for combining; without, only failures are, and answering costs less.
        fileprivate let keepsAnswers: Bool
        fileprivate let journaling: Journaling?

        package init(keepsAnswers: Bool = true, journaling: Journaling? = nil) {
            self.keepsAnswers = keepsAnswers
            self.journaling = journaling
        }
    }

    package init(time: ClockFunctions, shared: SharedState, generation: Int) {
        self.time = time
        self.shared = shared
        self.generation = generation
    }

    package func willCall(_ position: Int) -> Bool {
        let (now, wall) = time.nowAndWall()
        let (calling, watchdog): (Bool, CheckedContinuation<Void, Never>?) = shared.state.withLock { state in
            guard state.generation == generation, !state.finished else { return (false, nil) }
            state.current = (position, now, wall)
            state.calls += 1
            defer { state.watchdog = nil }
            return (true, state.watchdog)
        }
        watchdog?.resume()
        return calling
    }

    /// Whether this runner is still the current one (no hook of it was abandoned). Once the runner has
    /// returned no hook is in progress, so nothing can expire after this answer.
    package var isCurrent: Bool { shared.state.withLock { $0.generation == generation } }

    @discardableResult
    package func didCall(_ position: Int, answer: (any Sendable)?, failure: (any Error)?) -> Bool {
        let keep = shared.keepsAnswers || failure != nil
        let journaling = shared.journaling
        let end = journaling == nil ? nil : time.wallNow()
        let (accepted, start): (Bool, Duration?) = shared.state.withLock { state in
            guard state.generation == generation else { return (false, nil) }
            // The hook in progress is this one: a runner calls one hook at a time, and one superseded
            // meanwhile was turned away above.
            let start = state.current?.wallStart
            state.current = nil
            state.answered.append(position)
            if keep { state.answers.append(Answer(position: position, answer: answer, failure: failure)) }
            return (true, start)
        }
        // Journaled as the fan-out would report it to an observer: only a call that counts, once it returned.
        if accepted, let journaling, let start, let end {
            journaling.journal.record(
                journaling.event,
                of: journaling.plan,
                at: position,
                startOffset: start + journaling.shift,
                duration: end - start,
                result: journaling.hasResult ? answer as? Bool : nil,
                error: failure
            )
        }
        return accepted
    }
}

extension DeliverySupervision.SharedState {
    /// The hook in progress and when it started, if any, and how many hooks were called so far.
    package var progress: (current: (position: Int, start: Duration, wallStart: Duration)?, calls: Int) {
        state.withLock { ($0.current, $0.calls) }
    }

    /// Returns once a hook is called after the first `calls`, the delivery is finished, or the task is
    /// cancelled: a watchdog with no hook to watch waits here instead of polling.
    package func waitForCall(after calls: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (now, replaced): (Bool, CheckedContinuation<Void, Never>?) = state.withLock { state in
                    guard state.calls == calls, !state.finished, !Task.isCancelled else { return (true, nil) }
                    defer { state.watchdog = continuation }
                    return (false, state.watchdog)
                }
                replaced?.resume()
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.watchdog = nil }
                return state.watchdog
            }?.resume()
        }
    }

    /// Abandons the hook at `position` if it is still the one in progress, superseding its runner in the
    /// same step — so the runner can neither record that hook's answer nor call another hook. Returns the
    /// new generation, or `nil` if that hook had already finished (nothing was abandoned).
    package func expire(position: Int) -> Int? {
        state.withLock { state in
            guard state.current?.position == position else { return nil }
            state.generation += 1
            state.current = nil
            return state.generation
        }
    }

    /// Stops everything at the overall deadline, in one step: supersedes the runner and returns the hook
    /// that was in progress, if any.
    package func stopAll() -> (position: Int, start: Duration, wallStart: Duration)? {
        state.withLock { state in
            state.generation += 1
            defer { state.current = nil }
            return state.current
        }
    }

    /// Marks the delivery finished: no runner may call another hook.
    package func finish() {
        state.withLock { state in
            state.finished = true
            state.current = nil
            defer { state.watchdog = nil }
            return state.watchdog
        }?.resume()
    }

    /// The answers kept (see `keepsAnswers`), in delivery order.
    package var answers: [DeliverySupervision.Answer] {
        state.withLock { state in
            // Each runner answers in increasing position, after the last answer of the one it replaced.
            let sorted = zip(state.answers, state.answers.dropFirst()).allSatisfy { $0.position < $1.position }
            return sorted ? state.answers : state.answers.sorted { $0.position < $1.position }
        }
    }

    /// The positions of every hook that answered.
    package var answered: [Int] { state.withLock { $0.answered } }
}
