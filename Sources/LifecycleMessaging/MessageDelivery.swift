public import LifecycleCore

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
                sender: sender.flatMap { routing.modules[$0] },
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

    /// Calls the handler at `index`, synchronous or `async`.
    @inlinable
    func call(
        _ index: Int,
        _ message: M,
        routing: MessageRouting,
        sender: ObjectIdentifier?
    ) async throws(MessageError) -> M.Reply {
        guard case .async(let handler) = handlers[index] else {
            return try callSync(index, message, routing: routing, sender: sender)
        }
        let call = try begin(index, routing: routing, sender: sender)
        do {
            let reply = try await MessageDepth.current.withValue(call.depth) {
                try await handler(message, call.context)
            }
            _ = end(call, index, routing: routing, sender: sender, reply: reply, error: nil)
            return reply
        } catch {
            throw end(call, index, routing: routing, sender: sender, reply: nil, error: error)!
        }
    }
}

/// The failures of a broadcast, as one error: a recursion error first, since it shows a loop.
@usableFromInline
func combinedFailure(_ message: String, _ errors: [MessageError]) -> MessageError? {
    guard !errors.isEmpty else { return nil }
    if let loop = errors.first(where: { $0.code == .recursionLimit }) { return loop }
    return .receiversFailed(message, errors.flatMap(\.failures))
}
