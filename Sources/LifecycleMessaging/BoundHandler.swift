/// One receiver's synchronous handler with everything a call passes it, built once: what a broadcast
/// calls through an unretained reference, so a call costs no reference counting (reading a closure or a
/// reference out of an array copies it: a retain and a release around every call).
@usableFromInline
final class BoundHandler<M: Message>: Sendable {
    /// The synchronous handler; for an `async` one, a stand-in that is never called (a synchronous
    /// broadcast refuses an `async` receiver before calling anyone).
    @usableFromInline let call: @Sendable (M, MessageContext) throws -> M.Reply
    /// What the handler receives besides the message: the receiver's context and the sender.
    @usableFromInline let context: MessageContext
    /// Whether the host still has the receiver.
    @usableFromInline let presence: RecipientPresence

    init(_ handler: MessageRoute<M>.Handler, context: MessageContext) {
        switch handler {
        case .sync(let call): self.call = call
        case .async: self.call = { _, _ in preconditionFailure("an async handler is never called synchronously") }
        }
        self.context = context
        self.presence = context.recipient.presence
    }

    /// Calls the handler with `message` and the bound context.
    @inlinable
    func callAsFunction(_ message: M) throws -> M.Reply {
        try call(message, context)
    }
}
