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
/// resolved. Once the host removes that module (`ApplicationHost.remove(_:file:line:)`, a reload that
/// switches it off, a quarantine), every send through the channel throws ``MessageError/Code/noReceiver``
/// naming the module and the message, and calls nothing: a send is never lost silently, and never reaches
/// a module the host let go. That holds even if the module comes back (a reload switches it on, a quarantine
/// is released): the module that comes back is a new instance, so resolve the channel again, or send with
/// ``Messenger/send(_:to:)``, which finds the receiver on every send. After the host terminated, a send
/// throws ``MessageError/Code/terminated``.
public struct MessageChannel<M: Message>: Sendable {
    /// The receiver's synchronous handler; for an `async` one, a stand-in that is never called.
    @usableFromInline let syncHandler: @Sendable (M, MessageContext) throws -> M.Reply
    /// Whether the receiver's handler is `async`: then only ``send(_:)`` reaches it, through its route.
    @usableFromInline let isAsync: Bool
    /// What the handler receives besides the message, built once: the receiver's context and the sender.
    @usableFromInline let context: MessageContext
    /// Whether the host still has the receiver: one flag, set when the host lets it go.
    @usableFromInline let presence: RecipientPresence
    /// Whether the host's journal or `onDelivery` observes deliveries: fixed for a host.
    @usableFromInline let isObserved: Bool
    /// The route the channel was resolved from, and the receiver's position in it: for errors and records.
    @usableFromInline let route: MessageRoute<M>
    @usableFromInline let index: Int
    /// The installation the channel was resolved in: the host's state, its observer, its modules.
    @usableFromInline let routing: MessageRouting
    @usableFromInline let bus: MessageBus
    /// The budget of `async` handlers, as the messenger had it.
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
        switch route.handlers[index] {
        case .sync(let handler):
            self.syncHandler = handler
            self.isAsync = false
        case .async:
            // Never called: a synchronous send refuses an `async` receiver before calling anyone.
            let name = route.recipients[index].participant.name
            self.syncHandler = { _, _ in throw MessageError.asynchronousReceiver(M.name, receivers: [name]) }
            self.isAsync = true
        }
        self.context = MessageContext(recipient: route.contexts[index], sender: sender)
        self.presence = route.contexts[index].presence
        self.isObserved = routing.isObserved
        self.route = route
        self.index = index
        self.routing = routing
        self.bus = bus
        self.budget = budget
    }

    /// The receiving module, as plans and journals name it.
    public var receiver: Participant { route.recipients[index].participant }

    /// Whether a send can still reach the receiver: the host has not removed it and has not terminated.
    public var isOpen: Bool { !presence.isRemoved && !routing.isTerminated }

    /// Whether the receiver's handler is `async`: then only ``send(_:)`` reaches it.
    public var isAsynchronous: Bool { isAsync }

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
        if isAsync { try refuseAsynchronous() }
        return try callNow(message)
    }

    /// Sends `message` to the channel's receiver, whose handler may be `async`, and returns its reply. A
    /// synchronous handler is called without suspending, as by ``sendSynchronously(_:)``.
    ///
    /// - Throws: as ``sendSynchronously(_:)``, and ``MessageError/Code/timedOut`` if an `async` handler ran
    ///   past the budget of the messenger the channel was resolved from (``Messenger/within(_:)``).
    @inlinable
    public func send(_ message: M) async throws(MessageError) -> M.Reply {
        guard isAsync else { return try callNow(message) }
        return try await callAsync(message)
    }

    /// Calls the `async` handler through its route, counted one level deeper in the task.
    @inlinable
    func callAsync(_ message: M) async throws(MessageError) -> M.Reply {
        if presence.isRemoved || routing.isTerminated { try refuseClosed() }
        let depth = MessageDepth.current
        guard depth < Messenger.maximumDepth else { throw tooDeep() }
        defer { if bus.hasListeners { bus.notifyListeners(message) } }
        return try await Messenger.nested(at: depth + 1) { () async throws(MessageError) -> M.Reply in
            try await route.call(index, message, routing: routing, sender: context.senderType, budget: budget)
        }
    }

    /// Calls the synchronous handler, counted one level deeper on this thread. Listeners hear the message
    /// after, even when the handler threw.
    @inlinable
    func callNow(_ message: M) throws(MessageError) -> M.Reply {
        if presence.isRemoved || routing.isTerminated { try refuseClosed() }
        // A synchronous stretch runs on one thread: the thread's counter bounds it, without the task-local
        // read an `async` send needs. An `async` send before it checked its own depth.
        let depth = MessageDepth.threadCounter
        let saved = depth.pointee
        if saved >= Messenger.maximumDepth { try refuseTooDeep() }
        depth.pointee = saved + 1
        defer {
            depth.pointee = saved
            if bus.hasListeners { bus.notifyListeners(message) }
        }
        guard isObserved else {
            do {
                return try syncHandler(message, context)
            } catch {
                try refuseFailed(error)
            }
        }
        return try callObserved(message)
    }

    /// As `callNow`'s call, for a host whose journal or `onDelivery` observes deliveries.
    @inlinable
    func callObserved(_ message: M) throws(MessageError) -> M.Reply {
        guard let observer = routing.context.observer else {
            preconditionFailure("an observed installation has an observer")
        }
        let began = ContinuousClock.now
        return try route.settle(
            Result { try syncHandler(message, context) },
            index,
            observer: observer,
            began: began,
            context
        )
    }

    // MARK: Errors

    // Thrown from functions of their own, kept out of line, so a send's code stays small enough to inline.

    @usableFromInline @inline(never)
    func refuseClosed() throws(MessageError) -> Never { throw closed() }

    @usableFromInline @inline(never)
    func refuseAsynchronous() throws(MessageError) -> Never { throw asynchronous() }

    @usableFromInline @inline(never)
    func refuseTooDeep() throws(MessageError) -> Never { throw tooDeep() }

    @usableFromInline @inline(never)
    func refuseFailed(_ error: any Error) throws(MessageError) -> Never {
        throw route.failure(error, at: index, directory: routing.directory, sender: context.senderType)
    }

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
                sender: context.senderType.flatMap { routing.directory.modules[$0]?.name },
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
