/// How a supervised operation ended (``Watchdog/supervise(until:escalation:_:)``).
package enum Supervised<Success: Sendable>: Sendable {
    /// It returned or threw, after the escalation had reached `step`.
    case finished(Result<Success, any Error>, after: Escalation.Step)
    /// Its time was up and it did not finish within the escalation: it is cancelled, and abandoned.
    /// Whatever it returns later is dropped.
    case abandoned

    /// Whether it was abandoned.
    package var isAbandoned: Bool {
        if case .abandoned = self { return true }
        return false
    }

    /// The value or error, for a result that finished; `nil` otherwise.
    package var result: Result<Success, any Error>? {
        if case .finished(let result, _) = self { return result }
        return nil
    }
}

/// What a supervisor does, from the deadline on, with an operation that has not finished: ask it to stop,
/// then cancel it, then abandon it, each after its own grace period. The ladder of swift-service-lifecycle's
/// graceful shutdown, `maximumGracefulShutdownDuration` and `maximumCancellationDuration`, and of OTP's
/// shutdown timeout followed by `brutal_kill`.
package struct Escalation: Sendable {
    /// How far an escalation went.
    package enum Step: Int, Sendable, Comparable {
        /// The operation finished before its deadline.
        case none
        /// It was asked to stop (``graceful``).
        case signalled
        /// It was cancelled.
        case cancelled

        package static func < (lhs: Step, rhs: Step) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// At the deadline, `signal` asks the operation to stop, and it has `grace` to do so before it is
    /// cancelled. `nil`: it is cancelled at the deadline.
    package var graceful: (signal: @Sendable () -> Void, grace: Duration)?
    /// How long a cancelled operation may take to return before it is abandoned, and the supervisor
    /// returns without it. `nil`: never abandoned; the supervisor waits for it, however long it takes.
    package var cancellationGrace: Duration?

    package init(graceful: (signal: @Sendable () -> Void, grace: Duration)? = nil, cancellationGrace: Duration?) {
        self.graceful = graceful
        self.cancellationGrace = cancellationGrace
    }

    /// Cancelled and abandoned at the deadline: a hook, a handler or an interceptor past its budget.
    package static let abandonAtDeadline = Escalation(cancellationGrace: .zero)
}

extension Watchdog {
    /// Runs `operation` in a task of its own, which inherits the caller's priority and task-local values, and
    /// returns how it ended: with its result, or, once `deadline` has passed, as ``Escalation`` says.
    ///
    /// Without a deadline it only waits. Cancelling the waiting task cancels the operation, which is still
    /// supervised: it settles with what the operation returns or throws then, or is abandoned at the time
    /// the escalation says, whichever comes first.
    ///
    /// The operation runs in an unstructured task because that is the only task that can be abandoned: a
    /// child task of a group cannot outlive its group. Under an escalation that never abandons, it is
    /// awaited exactly like a child task.
    package func supervise<R: Sendable>(
        until deadline: C.Instant?,
        escalation: Escalation = .abandonAtDeadline,
        _ operation: @escaping @Sendable () async throws -> R
    ) async -> Supervised<R> {
        let run = SupervisedRun<C, R>(escalation)
        run.start(operation)
        let token = deadline.map { deadline in arm(at: deadline, run) }
        let outcome = await run.outcome()
        if let token { disarm(token) }
        return outcome
    }
}

/// One supervised operation: its task, its reply, and how far its escalation went. Its own deadline's
/// target on the watchdog.
final class SupervisedRun<C: Clock, R: Sendable>: DeadlineTarget, Sendable where C.Duration == Duration {
    private struct State {
        var step = Escalation.Step.none
        var task: Task<Void, Never>?
    }

    private let escalation: Escalation
    private let reply = OneShot<Supervised<R>>()
    private let state = Locked(State())

    init(_ escalation: Escalation) { self.escalation = escalation }

    /// Starts the operation in a task of its own, which inherits the caller's priority and task-locals.
    func start(_ operation: @escaping @Sendable () async throws -> R) {
        let task = Task {
            let result: Result<R, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            reply.settle(.finished(result, after: state.withLock { $0.step }))
        }
        state.withLock { $0.task = task }
    }

    /// Whether the escalation has begun.
    var isEscalating: Bool { state.withLock { $0.step != .none } }

    /// The deadline passed at `now`: takes the next step of the escalation, and returns when the one after
    /// it is due, if any.
    func escalate(at now: C.Instant) -> C.Instant? {
        let (step, task): (Escalation.Step?, Task<Void, Never>?) = state.withLock { state in
            switch state.step {
            case .none: state.step = escalation.graceful == nil ? .cancelled : .signalled
            case .signalled: state.step = .cancelled
            case .cancelled: return (nil, nil)  // its cancellation grace is over
            }
            return (state.step, state.task)
        }
        switch step {
        case .signalled?:
            escalation.graceful?.signal()
            return now.advanced(by: escalation.graceful?.grace ?? .zero)
        case .cancelled?:
            if escalation.cancellationGrace == .zero { reply.settle(.abandoned) }
            task?.cancel()
            return escalation.cancellationGrace.flatMap { $0 == .zero ? nil : now.advanced(by: $0) }
        case .none?, nil:
            reply.settle(.abandoned)
            return nil
        }
    }

    func deadlinePassed(_ tag: Int, at now: C.Instant) -> C.Instant? { escalate(at: now) }

    /// Waits for the outcome; cancelling the waiting task cancels the operation.
    func outcome() async -> Supervised<R> {
        await withTaskCancellationHandler {
            await reply.value()
        } onCancel: {
            state.withLock { $0.task }?.cancel()
        }
    }
}
