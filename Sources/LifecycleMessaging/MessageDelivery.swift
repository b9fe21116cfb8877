public import LifecycleCore
import Synchronization

// How one receiver is called: its context, the journal record and the error. `@inlinable`, so a send is
// specialized for its message type where it is written. The depth is counted once per send, by the
// sender (`Messenger`), not once per receiver.

extension MessageRoute {
    /// Calls the synchronous handler at `index`.
    @inlinable
    func callSync(
        _ index: Int,
        _ message: M,
        routing: MessageRouting,
        sender: ObjectIdentifier?
    ) throws(MessageError) -> M.Reply {
        guard case .sync(let handler) = handlers[index] else {
            throw .asynchronousReceiver(M.name, receivers: [recipients[index].participant.name])
        }
        guard !contexts[index].isRemoved else { throw removedReceiver(index) }
        let context = MessageContext(recipient: contexts[index], sender: sender)
        guard routing.isObserved, let observer = routing.context.observer else {
            // No journal and no `onDelivery`: no clock is read, and no optional instant is carried (its
            // value witnesses cost more than the call).
            do {
                return try handler(message, context)
            } catch {
                throw failure(error, at: index, directory: routing.directory, sender: sender)
            }
        }
        let began = ContinuousClock.now
        return try settle(Result { try handler(message, context) }, index, observer: observer, began: began, context)
    }

    /// Calls the handler at `index`, synchronous or `async`; an `async` one within `budget`, if set.
    @inlinable
    func call(
        _ index: Int,
        _ message: M,
        routing: MessageRouting,
        sender: ObjectIdentifier?,
        budget: Duration?
    ) async throws(MessageError) -> M.Reply {
        guard case .async(let handler) = handlers[index] else {
            return try callSync(index, message, routing: routing, sender: sender)
        }
        guard !contexts[index].isRemoved else { throw removedReceiver(index) }
        let context = MessageContext(recipient: contexts[index], sender: sender)
        let observer = routing.context.observer
        let began = observer == nil ? nil : ContinuousClock.now
        let outcome: Result<M.Reply, any Error>
        do {
            if let budget {
                outcome = .success(
                    try await withinBudget(budget, routing: routing) { try await handler(message, context) }
                )
            } else {
                outcome = .success(try await handler(message, context))
            }
        } catch {
            outcome = .failure(error)
        }
        if let observer, let began {
            return try settle(outcome, index, observer: observer, began: began, context)
        }
        return try outcome.mapError { failure($0, at: index, directory: routing.directory, sender: sender) }.get()
    }

    /// Reports the call to the host's journal and `onDelivery`, and returns the reply or the error the
    /// sender sees.
    @inlinable
    func settle(
        _ outcome: Result<M.Reply, any Error>,
        _ index: Int,
        observer: DeliveryObserver,
        began: ContinuousClock.Instant,
        _ context: MessageContext
    ) throws(MessageError) -> M.Reply {
        record(observer, index, began: began, outcome: outcome, sender: context)
        switch outcome {
        case .success(let reply): return reply
        case .failure(let error):
            throw failure(error, at: index, directory: context.recipient.directory, sender: context.senderType)
        }
    }

    /// Reports one call to the host's journal and `onDelivery`.
    @usableFromInline
    func record(
        _ observer: DeliveryObserver,
        _ index: Int,
        began: ContinuousClock.Instant,
        outcome: Result<M.Reply, any Error>,
        sender context: MessageContext
    ) {
        var reply: M.Reply?
        var error: (any Error)?
        switch outcome {
        case .success(let value): reply = value
        case .failure(let failure): error = failure
        }
        observer(
            DeliveryRecord(
                event: event,
                participant: recipients[index].participant,
                start: began,
                duration: began.duration(to: .now),
                result: reply as? Bool,
                error: error,
                sender: context.sender
            )
        )
    }

    /// What the sender sees when the handler at `index` threw `error`: a recursion error passes through
    /// with this hop added to its chain, a budget overrun is a timeout, anything else a failure.
    @usableFromInline
    func failure(
        _ error: any Error,
        at index: Int,
        directory: ModuleDirectory,
        sender: ObjectIdentifier?
    ) -> MessageError {
        if let chained = error as? MessageError, chained.code == .recursionLimit {
            return chained.after(hop(to: recipients[index].participant.name, directory: directory, sender: sender))
        }
        if let late = error as? BudgetExceeded {
            return .timedOut(M.name, receiver: recipients[index].participant.name, budget: late.budget)
        }
        return .receiversFailed(M.name, [(recipients[index].participant.name, error)])
    }

    /// The error of a send to a receiver that was removed after the send found it.
    @usableFromInline
    func removedReceiver(_ index: Int) -> MessageError {
        .noReceiver(M.name, receiver: recipients[index].participant.name, isModule: false)
    }

    /// One hop of a chain of sends, for a recursion error.
    @usableFromInline
    func hop(to receiver: String, directory: ModuleDirectory, sender: ObjectIdentifier?) -> MessageError.Hop {
        MessageError.Hop(
            sender: sender.flatMap { directory.modules[$0]?.name },
            message: M.name,
            receiver: receiver
        )
    }
}

/// An `async` handler ran past the send's budget.
@usableFromInline
struct BudgetExceeded: Error, CustomStringConvertible {
    @usableFromInline let budget: Duration
    @usableFromInline var description: String { "no answer within \(budget)" }
}

/// Runs `operation` in a task of its own and returns its result, or throws ``BudgetExceeded`` once
/// `budget` has passed on the host's clock. On a timeout the task is cancelled and left to finish: whatever it
/// returns later is dropped. Only sends with a budget pay for the task.
@usableFromInline
func withinBudget<R: Sendable>(
    _ budget: Duration,
    routing: MessageRouting,
    _ operation: @escaping @Sendable () async throws -> R
) async throws -> R {
    switch await routing.context.watchdog.supervise(within: budget, operation) {
    case .finished(let result, _): return try result.get()
    case .abandoned: throw BudgetExceeded(budget: budget)
    }
}

/// The failures of a broadcast, as one error: a recursion error first, since it shows a loop.
@usableFromInline
func combinedFailure(_ message: String, _ errors: [MessageError]) -> MessageError? {
    guard !errors.isEmpty else { return nil }
    if let loop = errors.first(where: { $0.code == .recursionLimit }) { return loop }
    if errors.count == 1 { return errors[0] }
    // A receiver that timed out has no failure of its own: the timeout is what it did.
    return .receiversFailed(
        message,
        errors.flatMap { error in
            error.failures.isEmpty ? error.modules.map { (receiver: $0, error: error as any Error) } : error.failures
        }
    )
}
