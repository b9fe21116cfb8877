/// One receiver's synchronous handler with everything a call passes it, built once: what a broadcast
/// calls through an unretained reference, so a call costs no reference counting (reading a closure or a
/// reference out of an array copies it: a retain and a release around every call).
///
/// The object is a ``ReceiverHandler`` of the receiver's type, which holds the receiver and the closure
/// its module registered: a call reads this one object and calls the module's closure, with no closure of
/// the route's between them. At 10,000 receivers that closure's context, built among everything else the
/// host built when it installed its modules, cost a cache miss per receiver (12 ns per receiver against
/// 8.2 ns); a fresh closure per object, built next to it, cost as much.
@usableFromInline
class BoundHandler<M: Message> {
    /// What the handler receives besides the message: the receiver's context and the sender.
    @usableFromInline let context: MessageContext
    /// Whether the host still has the receiver.
    @usableFromInline let presence: RecipientPresence

    @usableFromInline
    init(context: MessageContext) {
        self.context = context
        self.presence = context.recipient.presence
    }

    /// Calls the handler with `message` and the bound context. An `async` handler's stand-in is never
    /// called: a synchronous broadcast refuses an `async` receiver before calling anyone.
    @usableFromInline
    func callAsFunction(_ message: M) throws -> M.Reply {
        preconditionFailure("an async handler is never called synchronously")
    }
}

/// The ``BoundHandler`` of a receiver of type `R`: its instance and the synchronous closure it registered.
@usableFromInline
final class ReceiverHandler<M: Message, R: MessageReceiving>: BoundHandler<M> {
    let receiver: R
    let handler: @Sendable (R, M, MessageContext) throws -> M.Reply

    @usableFromInline
    init(
        _ receiver: R,
        _ handler: @escaping @Sendable (R, M, MessageContext) throws -> M.Reply,
        context: MessageContext
    ) {
        self.receiver = receiver
        self.handler = handler
        super.init(context: context)
    }

    @usableFromInline
    override func callAsFunction(_ message: M) throws -> M.Reply {
        try handler(receiver, message, context)
    }
}
