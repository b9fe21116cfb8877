public import LifecycleCore

/// A message type's way to one receiver, resolved once: what a module keeps to send the same message to
/// the same module many times.
///
/// Get one from a messenger in a launch hook or later, and keep it:
/// `context.messages(from: Self.self).channel(for: CurrentPrice.self, to: PricingModule.self)`. Resolving it
/// does what every ``Messenger/send(_:to:)`` does (the host is running, `to` is a module of the host that
/// receives `M`); a send through it then does none of that again. It checks one flag, counts the send in
/// the depth, and calls the handler.
///
/// | call | handler | returns |
/// |---|---|---|
/// | ``sendSynchronously(_:)`` | synchronous only, without suspending | the reply |
/// | ``send(_:)`` | synchronous or `async` | the reply |
///
/// Each send is what the messenger's send to the same receiver is: the same sender, the same budget
/// (``Messenger/within(_:)``), the same journal records, listeners and errors.
///
/// **When the receiver goes.** A channel is bound to the receiver as the host had it when the channel was
/// resolved. Once the host removes that module (``ApplicationHost/remove(_:file:line:)``, a reload that
/// switches it off, a quarantine), every send through the channel throws ``MessageError/Code/noReceiver``
/// naming the module and the message, and calls nothing: a send is never lost silently, and never reaches
/// a module the host let go. That holds even if the module comes back (a reload switches it on, a quarantine
/// is released): the module that comes back is a new instance, so resolve the channel again, or send with
/// ``Messenger/send(_:to:)``, which finds the receiver on every send. After the host terminated, a send
/// throws ``MessageError/Code/terminated``.
public struct MessageChannel<M: Message>: Sendable {
    /// The receiver's handler, as its route holds it.
    @usableFromInline let handler: MessageRoute<M>.Handler
    /// The receiver's context, built when the host installed it; set as removed when the host lets it go.
    @usableFromInline let recipient: RecipientContext
    /// The route the channel was resolved from, and the receiver's position in it: for errors and records.
    @usableFromInline let route: MessageRoute<M>
    @usableFromInline let index: Int
    /// The installation the channel was resolved in: who is observed, and the host's state.
    @usableFromInline let routing: MessageRouting
    @usableFromInline let bus: MessageBus
    /// The sending module's type, or `nil`; and the budget of `async` handlers, as the messenger had them.
    @usableFromInline let sender: ObjectIdentifier?
    @usableFromInline let budget: Duration?

    @usableFromInline
    init(
        route: MessageRoute<M>,
        index: Int,
        routing: MessageRouting,
        bus: MessageBus,
        sender: ObjectIdentifier?,
        budget: Duration?
    ) {
        self.handler = route.handlers[index]
        self.recipient = route.contexts[index]
        self.route = route
        self.index = index
        self.routing = routing
        self.bus = bus
        self.sender = sender
        self.budget = budget
    }

    /// The receiving module, as plans and journals name it.
    public var receiver: Participant { route.recipients[index].participant }

    /// Whether a send can still reach the receiver: the host has not removed it and has not terminated.
    public var isOpen: Bool { !recipient.isRemoved && !routing.isTerminated }

    /// Whether the receiver's handler is `async`: then only ``send(_:)`` reaches it.
    public var isAsynchronous: Bool { handler.isAsync }

    /// Sends `message` to the channel's receiver, whose handler must be synchronous, and returns its reply
    /// without suspending: the form for code that cannot `await`.
    ///
    /// - Throws: ``MessageError``: ``MessageError/Code/noReceiver`` if the host removed the receiver after
    ///   the channel was resolved; ``MessageError/Code/terminated`` after the host terminated;
    ///   ``MessageError/Code/receiverFailed`` with what its handler threw;
    ///   ``MessageError/Code/asynchronousReceiver`` if its handler is `async` (call ``send(_:)`` with `await`);
    ///   ``MessageError/Code/recursionLimit`` if handlers nest sends deeper than ``Messenger/maximumDepth``.
    @inlinable
    public func sendSynchronously(_ message: M) throws(MessageError) -> M.Reply {
        guard case .sync(let handler) = handler else { throw asynchronous() }
        return try callNow(handler, message)
    }

    /// Sends `message` to the channel's receiver, whose handler may be `async`, and returns its reply. A
    /// synchronous handler is called without suspending, as by ``sendSynchronously(_:)``.
    ///
    /// - Throws: as ``sendSynchronously(_:)``, and ``MessageError/Code/timedOut`` if an `async` handler ran
    ///   past the budget of the messenger the channel was resolved from (``Messenger/within(_:)``).
    @inlinable
    public func send(_ message: M) async throws(MessageError) -> M.Reply {
        switch handler {
        case .sync(let handler):
            return try callNow(handler, message)
        case .async:
            guard !recipient.isRemoved, !routing.isTerminated else { throw closed() }
            let depth = MessageDepth.current
            guard depth < Messenger.maximumDepth else { throw tooDeep() }
            defer { if bus.hasListeners { bus.notifyListeners(message) } }
            return try await Messenger.nested(at: depth + 1) { () async throws(MessageError) -> M.Reply in
                try await route.call(index, message, routing: routing, sender: sender, budget: budget)
            }
        }
    }

    /// Calls the synchronous `handler`, counted one level deeper on this thread. Listeners hear the message
    /// after, even when the handler threw.
    @inlinable
    func callNow(
        _ handler: @Sendable (M, MessageContext) throws -> M.Reply,
        _ message: M
    ) throws(MessageError) -> M.Reply {
        guard !recipient.isRemoved, !routing.isTerminated else { throw closed() }
        // A synchronous stretch runs on one thread: the thread's counter bounds it, without the task-local
        // read an `async` send needs. An `async` send before it checked its own depth.
        let saved = MessageDepth.onThread
        guard saved < Messenger.maximumDepth else { throw tooDeep() }
        MessageDepth.onThread = saved + 1
        defer {
            MessageDepth.onThread = saved
            if bus.hasListeners { bus.notifyListeners(message) }
        }
        let context = MessageContext(recipient: recipient, sender: sender)
        guard routing.isObserved, let observer = routing.context.observer else {
            do {
                return try handler(message, context)
            } catch {
                throw route.failure(error, at: index, directory: routing.directory, sender: sender)
            }
        }
        let began = ContinuousClock.now
        return try route.settle(
            Result { try handler(message, context) },
            index,
            observer: observer,
            began: began,
            context
        )
    }

    // MARK: Errors

    /// Why the channel reaches nobody any more: the host terminated, or removed the receiver.
    @usableFromInline
    func closed() -> MessageError {
        if routing.isTerminated { return .closed(M.name, state: .terminated) }
        return .channelReceiverRemoved(M.name, receiver: receiver.name)
    }

    @usableFromInline
    func asynchronous() -> MessageError {
        .asynchronousReceiver(M.name, receivers: [receiver.name])
    }

    @usableFromInline
    func tooDeep() -> MessageError {
        .recursionLimit(
            M.name,
            hop: MessageError.Hop(
                sender: sender.flatMap { routing.directory.modules[$0]?.name },
                message: M.name,
                receiver: receiver.name
            )
        )
    }
}

extension Messenger {
    /// A channel that sends `message` to the module `receiver`, resolved now: keep it, and send through it
    /// without finding the receiver again. Its sends are as this messenger's: the same sender and budget.
    ///
    /// Resolve it from a launch hook or later (before the launch there is nothing to resolve). See
    /// ``MessageChannel`` for what a send through it does when the host removes the receiver.
    ///
    /// - Throws: ``MessageError``: ``MessageError/Code/noReceiver`` if `receiver` does not receive `M` or is
    ///   not a module of the host; ``MessageError/Code/notLaunched`` or ``MessageError/Code/terminated`` if
    ///   messages do not flow now; ``MessageError/Code/noBus`` if the host has no bus.
    public func channel<M: Message, R: MessageReceiving>(
        for message: M.Type,
        to receiver: R.Type
    ) throws(MessageError) -> MessageChannel<M> {
        let (bus, routing) = try open(M.self)
        let (route, index) = try Self.find(M.self, R.self, routing)
        return MessageChannel(route: route, index: index, routing: routing, bus: bus, sender: sender, budget: budget)
    }
}
