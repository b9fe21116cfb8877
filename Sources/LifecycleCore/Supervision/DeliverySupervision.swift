/// Told by the fan-out loop about each hook call, so a watchdog can enforce budgets.
@usableFromInline
package protocol DeliverySupervisor: Sendable {
    /// Before calling the hook at delivery `position`: whether to call it, to stop (this runner was
    /// superseded: a hook of it timed out, and it must call nothing more), or to strike a fault in its place
    /// (a host with ``FaultInjection`` only).
    func willCall(_ position: Int) -> CallDecision
    /// After that hook returned `answer` or threw `failure` (an injected fault's included). `false` means the
    /// hook had already been abandoned on a timeout: its late result must not be reported anywhere.
    @discardableResult
    func didCall(_ position: Int, answer: (any Sendable)?, failure: (any Error)?) -> Bool
}

/// What a fan-out does with its next hook, as its supervisor says (``DeliverySupervisor/willCall(_:)``).
@usableFromInline
package enum CallDecision: Sendable {
    /// Call it.
    case call
    /// Stop: call nothing more.
    case stop
    /// Strike this fault in its place.
    case fault(InjectedFault)
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
        /// The clock reading taken when the last hook returned, if one was (to journal it) and the fan-out
        /// runs no code of its own between hooks (built-in events: a custom event combines results with
        /// its own code there): the next hook of the same runner starts then, and need not read the
        /// clock again.
        var lastReading: (generation: Int, now: Duration, wall: Duration)?
        /// The answers kept: every one when the event combines results, else only the failures.
        var answers: [Answer] = []
        /// How many hooks answered, and which, when that is tracked (for the overall deadline).
        var answeredCount = 0
        var answered: [Bool]
        var finished = false
        /// The runner whose first hook armed the watchdog, and its armed deadline, until taken.
        var armedGeneration = -1
        var watch: Watchdog<HostClock>.Token?
        /// ``ApplicationHost/interruptTermination()`` stopped the delivery: no runner may call another hook,
        /// but the hook in progress may finish and answer.
        var interrupted = false
        /// Calls journaled since the journal last took them: the last ones, in a ring, and how many.
        var journaled: [PendingCall] = []
        var journaledHead = 0
        var journaledCount = 0
    }

    private let time: ClockFunctions
    private let generation: Int
    private let shared: SharedState

    /// Where the supervisor journals each hook call itself, instead of the fan-out building a
    /// ``DeliveryRecord`` for an observer: the journal, and the delivery's context and event in it.
    package struct Journaling: Sendable {
        let journal: DeliveryJournal
        /// The journal's context of the delivery (see `DeliveryJournal.openContext(_:plan:)`).
        let context: Int
        let event: LifecycleEvent
        /// Whether the event has a Bool result to record.
        let hasResult: Bool
        /// The journal's origin to the clock's wall origin: zero for the host's own journal.
        let shift: Duration

        package init(journal: DeliveryJournal, context: Int, event: LifecycleEvent, time: ClockFunctions) {
            self.journal = journal
            self.context = context
            self.event = event
            self.hasResult = event.resultRule != .none
            self.shift = journal.origin.duration(to: time.wallOrigin)
        }
    }

    /// The state shared by every runner of one delivery. It keeps the calls it journals until the journal
    /// takes them (see ``JournalSource``), so journaling a call costs no lock of its own.
    package final class SharedState: JournalSource {
        fileprivate let state: Locked<State>
        /// Whether answers are kept for combining; without, only failures are, and answering costs less.
        fileprivate let keepsAnswers: Bool
        fileprivate let journaling: Journaling?
        /// Whether a hook starts with the reading its predecessor ended with (see `State.lastReading`).
        fileprivate let chainsReadings: Bool
        /// `journaling`'s plain values, read for each call without copying it (and retaining what it holds).
        fileprivate let journals: Bool
        fileprivate let journalsResults: Bool
        fileprivate let journalCapacity: Int

        /// Shared by the runners of one delivery over a plan of `count` hooks. `tracksAnswered` keeps
        /// which hooks answered, for `unanswered(_:)`.
        package init(count: Int, tracksAnswered: Bool, keepsAnswers: Bool = true, journaling: Journaling? = nil) {
            self.state = Locked(State(answered: tracksAnswered ? Array(repeating: false, count: count) : []))
            self.keepsAnswers = keepsAnswers
            self.journaling = journaling
            self.chainsReadings = journaling.map { !$0.event.isCustom } ?? false
            self.journals = journaling != nil
            self.journalsResults = journaling?.hasResult ?? false
            self.journalCapacity = journaling?.journal.capacity ?? 0
        }
    }

    /// Arms the watchdog of this runner's hooks, given when its first hook starts (see ``init``).
    private let arm: (@Sendable (_ start: Duration) -> Watchdog<HostClock>.Token?)?
    /// The faults to inject, by delivery position; `nil` outside the test kit.
    private let faults: (@Sendable (_ position: Int) -> InjectedFault?)?

    /// A supervisor for the runner of `generation`. `arm` is called when its first hook starts, so the
    /// host's watchdog watches only while a hook runs (and a test's virtual clock has a sleeper only then);
    /// its token is kept for ``SharedState/takeWatch()``.
    package init(
        time: ClockFunctions,
        shared: SharedState,
        generation: Int,
        arm: (@Sendable (_ start: Duration) -> Watchdog<HostClock>.Token?)? = nil,
        faults: (@Sendable (_ position: Int) -> InjectedFault?)? = nil
    ) {
        self.time = time
        self.shared = shared
        self.generation = generation
        self.arm = arm
        self.faults = faults
    }

    package func willCall(_ position: Int) -> CallDecision {
        let armsAt: Duration?? = shared.state.withLock { state in
            guard state.generation == generation, !state.finished, !state.interrupted else { return nil }
            // Straight after the last hook of this runner returned, when that reading was taken: the loop
            // in between does no work worth a second reading (and each reading is a serializing one).
            let (now, wall): (Duration, Duration)
            if let last = state.lastReading, last.generation == generation {
                (now, wall) = (last.now, last.wall)
                state.lastReading = nil
            } else {
                (now, wall) = time.nowAndWall()
            }
            state.current = (position, now, wall)
            guard arm != nil, state.armedGeneration != generation else { return .some(nil) }
            state.armedGeneration = generation
            return .some(now)
        }
        guard let armsAt else { return .stop }
        if let start = armsAt, let arm, let token = arm(start) {
            shared.state.withLock { $0.watch = token }
        }
        // After arming: an injected hang is watched like the hook it replaces.
        if let faults, let fault = faults(position) { return .fault(fault) }
        return .call
    }

    /// Whether this runner is still the current one (no hook of it was abandoned). Once the runner has
    /// returned no hook is in progress, so nothing can expire after this answer.
    package var isCurrent: Bool { shared.state.withLock { $0.generation == generation } }

    @discardableResult
    package func didCall(_ position: Int, answer: (any Sendable)?, failure: (any Error)?) -> Bool {
        let shared = self.shared
        let keep = shared.keepsAnswers || failure != nil
        let journals = shared.journals
        let end = journals ? time.nowAndWall() : nil
        // Described now, as thrown: an error's description may not stay the same.
        let described = journals ? failure.map { "\($0)" } : nil
        let result = shared.journalsResults ? answer as? Bool : nil
        return shared.state.withLock { state in
            guard state.generation == generation else { return false }
            // The hook in progress is this one: a runner calls one hook at a time, and one superseded
            // meanwhile was turned away above.
            let start = state.current?.wallStart
            state.current = nil
            state.answeredCount += 1
            if !state.answered.isEmpty { state.answered[position] = true }
            if keep { state.answers.append(Answer(position: position, answer: answer, failure: failure)) }
            // Journaled as the fan-out would report it to an observer: only a call that counts, once it
            // returned.
            if let end, let start {
                if shared.chainsReadings { state.lastReading = (generation, end.now, end.wall) }
                let call = PendingCall(
                    position: position,
                    start: start,
                    end: end.wall,
                    result: result,
                    error: described
                )
                if state.journaled.count < shared.journalCapacity {
                    state.journaled.append(call)
                } else {
                    state.journaled[state.journaledHead] = call
                    state.journaledHead += 1
                    if state.journaledHead == state.journaled.count { state.journaledHead = 0 }
                }
                state.journaledCount += 1
            }
            return true
        }
    }
}

extension DeliverySupervision.SharedState {
    /// The watchdog's deadline armed by the last runner, taken out, to disarm when the runner is over.
    package func takeWatch() -> Watchdog<HostClock>.Token? {
        state.withLock { state in
            defer { state.watch = nil }
            return state.watch
        }
    }

    /// The hook in progress and when it started, if any.
    package var current: (position: Int, start: Duration, wallStart: Duration)? { state.withLock { $0.current } }

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

    /// Interrupts the delivery: no runner calls another hook, and the one in progress may still answer.
    package func interrupt() {
        state.withLock { $0.interrupted = true }
    }

    /// Whether ``interrupt()`` was called.
    package var wasInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Marks the delivery finished: no runner may call another hook.
    package func finish() {
        state.withLock { state in
            state.finished = true
            state.current = nil
        }
    }

    /// The answers kept (see `keepsAnswers`), in delivery order.
    package var answers: [DeliverySupervision.Answer] {
        state.withLock { state in
            // Each runner answers in increasing position, after the last answer of the one it replaced.
            let sorted = zip(state.answers, state.answers.dropFirst()).allSatisfy { $0.position < $1.position }
            return sorted ? state.answers : state.answers.sorted { $0.position < $1.position }
        }
    }

    /// How many hooks answered.
    package var answeredCount: Int { state.withLock { $0.answeredCount } }

    package func takeCalls(keeping limit: Int) -> PendingCalls {
        // Attached to a journal only when it journals; the ring holds at most the journal's capacity.
        guard let journaling else { return PendingCalls(context: -1, total: 0, calls: [], first: 0, shift: .zero) }
        let (total, calls, first): (Int, [PendingCall], Int) = state.withLock { state in
            var calls: [PendingCall] = []
            swap(&calls, &state.journaled)
            defer {
                state.journaledHead = 0
                state.journaledCount = 0
            }
            return (state.journaledCount, calls, state.journaledHead)
        }
        return PendingCalls(
            context: journaling.context,
            total: total,
            calls: calls,
            first: first,
            shift: journaling.shift
        )
    }

    /// The positions, among `positions`, of the hooks that did not answer (those answered are tracked
    /// only when the state was made with `tracksAnswered`; without, none counts as answered).
    package func unanswered(_ positions: some Sequence<Int>) -> [Int] {
        state.withLock { state in positions.filter { state.answered.isEmpty || !state.answered[$0] } }
    }
}
