public import LifecycleCore
import Synchronization

// How one receiver is called: the depth check, the handler's context, the journal record and the error.
// `@inlinable`, so a send is specialized for its message type where it is written.

/// How deeply the current task is nested in message handlers.
@usableFromInline
enum MessageDepth {
    /// A task-local value, declared without the wrapper so inlined sends can read and set it.
    @usableFromInline static let current = TaskLocal(wrappedValue: 0)
}

extension MessageRoute {
    /// What one call needs before the handler runs; throws when the chain is too deep.
    @usableFromInline
    struct Call {
        @usableFromInline let context: MessageContext
        @usableFromInline let depth: Int
        @usableFromInline let began: ContinuousClock.Instant?

        @usableFromInline
        init(context: MessageContext, depth: Int, began: ContinuousClock.Instant?) {
            self.context = context
            self.depth = depth
            self.began = began
        }
    }

    @inlinable
    func begin(_ index: Int, routing: MessageRouting, sender: ObjectIdentifier?) throws(MessageError) -> Call {
        let depth = MessageDepth.current.get()
        guard depth < Messenger.maximumDepth else {
            throw .recursionLimit(M.name, hop: hop(index, routing: routing, sender: sender))
        }
        let recipient = recipients[index]
        return Call(
            context: MessageContext(
                sender: sender,
                routing: routing,
                messages: recipient.messenger,
                lifecycle: recipient.lifecycle
            ),
            depth: depth + 1,
            began: routing.context.observer == nil ? nil : .now
        )
    }

    /// Records the call in the host's journal, when it keeps one, and turns what the handler threw into
    /// the error the sender sees: a recursion error passes through with this hop added to its chain.
    @inlinable
    func end(
        _ call: Call,
        _ index: Int,
        routing: MessageRouting,
        sender: ObjectIdentifier?,
        reply: M.Reply?,
        error: (any Error)?
    ) -> MessageError? {
        if let began = call.began, let observer = routing.context.observer {
            observer(
                DeliveryRecord(
                    event: event,
                    participant: recipients[index].participant,
                    start: began,
                    duration: began.duration(to: .now),
                    result: reply as? Bool,
                    error: error,
                    sender: call.context.sender
                )
            )
        }
        guard let error else { return nil }
        if let chained = error as? MessageError, chained.code == .recursionLimit {
            return chained.after(hop(index, routing: routing, sender: sender))
        }
        if let late = error as? BudgetExceeded {
            return .timedOut(M.name, receiver: recipients[index].participant.name, budget: late.budget)
        }
        return .receiversFailed(M.name, [(recipients[index].participant.name, error)])
    }

    @usableFromInline
    func hop(_ index: Int, routing: MessageRouting, sender: ObjectIdentifier?) -> MessageError.Hop {
        MessageError.Hop(
            sender: sender.flatMap { routing.modules[$0]?.name },
            message: M.name,
            receiver: recipients[index].participant.name
        )
    }

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
        let call = try begin(index, routing: routing, sender: sender)
        do {
            let reply = try MessageDepth.current.withValue(call.depth) { try handler(message, call.context) }
            _ = end(call, index, routing: routing, sender: sender, reply: reply, error: nil)
            return reply
        } catch {
            throw end(call, index, routing: routing, sender: sender, reply: nil, error: error)!
        }
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
        let call = try begin(index, routing: routing, sender: sender)
        do {
            let depth = call.depth
            let context = call.context
            let reply: M.Reply
            if let budget {
                reply = try await withinBudget(budget) {
                    try await MessageDepth.current.withValue(depth) { try await handler(message, context) }
                }
            } else {
                reply = try await MessageDepth.current.withValue(depth) { try await handler(message, context) }
            }
            _ = end(call, index, routing: routing, sender: sender, reply: reply, error: nil)
            return reply
        } catch {
            throw end(call, index, routing: routing, sender: sender, reply: nil, error: error)!
        }
    }
}

/// Where a budgeted call meets its sender: the first of the answer and the deadline settles it, once,
/// whether it comes before or after the sender waits.
final class Settlement<R: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<R, any Error>)
        case outcome(Result<R, any Error>)
        case finished
    }

    private let state = Mutex(State.empty)

    /// Settles with `result`, unless settled already.
    func finish(_ result: Result<R, any Error>) {
        let continuation: CheckedContinuation<R, any Error>? = state.withLock { state in
            switch state {
            case .empty:
                state = .outcome(result)
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .outcome, .finished:
                return nil
            }
        }
        continuation?.resume(with: result)
    }

    /// Waits for the settlement.
    func wait() async throws -> R {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<R, any Error>) in
            let early: Result<R, any Error>? = state.withLock { state in
                if case .outcome(let result) = state {
                    state = .finished
                    return result
                }
                state = .waiting(continuation)
                return nil
            }
            if let early { continuation.resume(with: early) }
        }
    }
}

/// An `async` handler ran past the send's budget.
@usableFromInline
struct BudgetExceeded: Error, CustomStringConvertible {
    @usableFromInline let budget: Duration
    @usableFromInline var description: String { "no answer within \(budget)" }
}

/// Runs `operation` in a task of its own and returns its result, or throws ``BudgetExceeded`` once
/// `budget` has passed. On a timeout the task is cancelled and left to finish: whatever it returns later
/// is dropped. Only sends with a budget pay for the tasks.
@usableFromInline
func withinBudget<R: Sendable>(
    _ budget: Duration,
    _ operation: @escaping @Sendable () async throws -> R
) async throws -> R {
    let settlement = Settlement<R>()
    let work = Task { try await operation() }
    let timer = Task {
        do {
            try await Task.sleep(for: budget)
        } catch {
            return  // the answer came first
        }
        work.cancel()
        settlement.finish(.failure(BudgetExceeded(budget: budget)))
    }
    Task {
        let result: Result<R, any Error>
        do {
            result = .success(try await work.value)
        } catch {
            result = .failure(error)
        }
        timer.cancel()
        settlement.finish(result)
    }
    return try await withTaskCancellationHandler {
        try await settlement.wait()
    } onCancel: {
        work.cancel()
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
