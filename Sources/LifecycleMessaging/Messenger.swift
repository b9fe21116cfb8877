public import LifecycleCore
public import Synchronization

/// Sends messages on a host's bus, as one module or as nobody in particular.
///
/// Get one from the context: `context.messages(from: Self.self)` in a module, so journals and receivers
/// know the sender; `context.messages` elsewhere. A handler gets one in its ``MessageContext``, which sends
/// as the receiver and continues the chain.
///
/// | call | goes to | returns |
/// |---|---|---|
/// | `send(_:to:)` | one module | its reply |
/// | `broadcast(_:to:combining:)` | every receiver in an audience | the replies, combined by a rule |
/// | ``listen(to:for:)`` | (listens) | every message of a type, as a sequence |
///
/// `send` and `broadcast` are `async` and reach every handler, `async` or not; a synchronous handler is
/// still called without suspending. Code that cannot `await` (a synchronous hook, a handler) calls
/// `sendSynchronously(_:to:)` and `broadcastSynchronously(_:to:combining:)`, which reach synchronous
/// handlers only and refuse the others before calling anyone (``MessageError/Code/asynchronousReceiver``).
/// The two forms have different names on purpose: with one name, Swift picks the synchronous overload in
/// top-level code (`main.swift`) even under `await`, and an `async` receiver would be refused there.
///
/// Receivers are called in the lifecycle's delivery order: dependencies first, then priority, highest
/// first, then manifest order. Messages flow from the start of `launch()` until termination ends;
/// before, a send is refused with ``MessageError/Code/notLaunched``, after, with
/// ``MessageError/Code/terminated``. A handler may send messages itself, to any depth up to
/// ``maximumDepth``; no lock is held while a handler runs, so that cannot deadlock.
public struct Messenger: Sendable {
    /// How deeply handlers may nest sends. A send beyond it throws ``MessageError/Code/recursionLimit``.
    public static let maximumDepth = 64

    @usableFromInline let bus: MessageBus?
    /// The sending module's type, or `nil` when the sender is not a module.
    @usableFromInline let sender: ObjectIdentifier?
    /// How long an `async` handler may take to answer an `async` send; `nil` for no limit.
    @usableFromInline let budget: Duration?

    init(bus: MessageBus?, sender: ObjectIdentifier?, budget: Duration? = nil) {
        self.bus = bus
        self.sender = sender
        self.budget = budget
    }

    /// This messenger, whose `async` sends give each `async` handler at most `budget` to answer.
    ///
    /// A handler that runs past it is reported as ``MessageError/Code/timedOut`` (and, in a broadcast, the
    /// others are still called). It is cancelled, and whatever it returns later is dropped, so a hanging
    /// receiver cannot hang its sender. Synchronous handlers run to completion, as a function call does;
    /// without a budget a send waits as long as its receivers take. Each budgeted call of an `async`
    /// handler costs three tasks. If the sending task is cancelled, the handler is cancelled too, and
    /// what it throws then is reported as that receiver's failure.
    public func within(_ budget: Duration) -> Messenger {
        Messenger(bus: bus, sender: sender, budget: budget)
    }

    @inlinable
    func open<M: Message>(_ message: M.Type) throws(MessageError) -> (MessageBus, MessageRouting) {
        guard let bus else { throw .noBus(M.name) }
        return (bus, try bus.open(message))
    }

    // MARK: To one

    /// Sends `message` to the module `receiver`, whose handler must be synchronous, and returns its reply
    /// without suspending: the form for code that cannot `await`.
    ///
    /// - Throws: ``MessageError``: ``MessageError/Code/noReceiver`` if `receiver` does not receive `M` or
    ///   is not a module of the host; ``MessageError/Code/receiverFailed`` with what its handler threw;
    ///   ``MessageError/Code/asynchronousReceiver`` if its handler is `async` (call `send(_:to:)` with
    ///   `await` instead); or the bus is closed.
    @inlinable
    public func sendSynchronously<M: Message, R: MessageReceiving>(
        _ message: M,
        to receiver: R.Type
    ) throws(MessageError) -> M.Reply {
        let (bus, routing) = try open(M.self)
        let (route, index) = try Self.find(M.self, R.self, routing)
        guard !route.handlers[index].isAsync else {
            throw .asynchronousReceiver(M.name, receivers: [route.recipients[index].participant.name])
        }
        return try callNow(route, index, message, bus: bus, routing: routing)
    }

    /// Sends `message` to the module `receiver`, whose handler may be `async`, and returns its reply.
    ///
    /// A synchronous handler is called without suspending, as by ``sendSynchronously(_:to:)``.
    ///
    /// - Throws: ``MessageError``: ``MessageError/Code/noReceiver`` if `receiver` does not receive `M` or
    ///   is not a module of the host; ``MessageError/Code/receiverFailed`` with what its handler threw;
    ///   ``MessageError/Code/timedOut`` if it ran past the budget (``within(_:)``); or the bus is closed.
    @inlinable
    public func send<M: Message, R: MessageReceiving>(
        _ message: M,
        to receiver: R.Type
    ) async throws(MessageError) -> M.Reply {
        let (bus, routing) = try open(M.self)
        let (route, index) = try Self.find(M.self, R.self, routing)
        if route.handlers[index].isAsync {
            let depth = try depth(M.self, routing) { route.recipients[index].participant.name } + 1
            defer { if bus.hasListeners { bus.notifyListeners(message) } }
            return try await Self.nested(at: depth) { () async throws(MessageError) -> M.Reply in
                try await route.call(index, message, routing: routing, sender: sender, budget: budget)
            }
        }
        return try callNow(route, index, message, bus: bus, routing: routing)
    }

    /// Calls the synchronous handler at `index` of `route`, counted one level deeper on this thread: it
    /// runs without suspending. Listeners hear the message after, even when the handler threw.
    @inlinable
    func callNow<M: Message>(
        _ route: MessageRoute<M>,
        _ index: Int,
        _ message: M,
        bus: MessageBus,
        routing: MessageRouting
    ) throws(MessageError) -> M.Reply {
        let (depth, saved) = try enter(M.self, routing) { route.recipients[index].participant.name }
        defer {
            depth.pointee = saved
            if bus.hasListeners { bus.notifyListeners(message) }
        }
        return try route.callSync(index, message, routing: routing, sender: sender)
    }

    /// The route of `M` and the position of `R` in it, or the error that says why there is none.
    @inlinable
    static func find<M: Message, R: MessageReceiving>(
        _: M.Type,
        _: R.Type,
        _ routing: MessageRouting
    ) throws(MessageError) -> (MessageRoute<M>, Int) {
        guard let route = routing.route(M.self), let index = route.positions[id: ObjectIdentifier(R.self)] else {
            throw .noReceiver(
                M.name,
                receiver: R.moduleName,
                isModule: routing.directory.modules[ObjectIdentifier(R.self)] != nil
            )
        }
        return (route, index)
    }

    // MARK: Depth

    /// Counts a synchronous send one level deeper on this thread, or refuses it when the chain is already
    /// ``maximumDepth`` deep. Returns the thread's counter and the count to restore in it when the send ends.
    @inlinable
    func enter<M: Message>(
        _: M.Type,
        _ routing: MessageRouting,
        receiver: () -> String
    ) throws(MessageError) -> (counter: UnsafeMutablePointer<Int>, saved: Int) {
        let counter = MessageDepth.threadCounter
        let saved = counter.pointee
        guard MessageDepth.task.get() + saved < Self.maximumDepth else {
            throw tooDeep(M.self, routing, receiver())
        }
        counter.pointee = saved + 1
        return (counter, saved)
    }

    /// The depth of the code sending now, or the refusal when the chain is already ``maximumDepth`` deep.
    @inlinable
    func depth<M: Message>(
        _: M.Type,
        _ routing: MessageRouting,
        receiver: () -> String
    ) throws(MessageError) -> Int {
        let depth = MessageDepth.current
        guard depth < Self.maximumDepth else { throw tooDeep(M.self, routing, receiver()) }
        return depth
    }

    @usableFromInline
    func tooDeep<M: Message>(_: M.Type, _ routing: MessageRouting, _ receiver: String) -> MessageError {
        .recursionLimit(
            M.name,
            hop: MessageError.Hop(
                sender: sender.flatMap { routing.directory.modules[$0]?.name },
                message: M.name,
                receiver: receiver
            )
        )
    }

    /// Runs `operation` with the task's message depth set to `depth`.
    @inlinable
    static func nested<T>(
        at depth: Int,
        _ operation: () async throws(MessageError) -> T
    ) async throws(MessageError) -> T {
        do {
            return try await MessageDepth.task.withValue(depth) { try await operation() }
        } catch let error as MessageError {
            throw error
        } catch {
            preconditionFailure("only MessageError is thrown here: \(error)")
        }
    }

    // MARK: To many, to all

    /// Calls the synchronous handler of each receiver of `audience`, in delivery order, and hands each
    /// reply to `reply`; counts the send in the depth once, and tells the listeners after.
    @inlinable
    func deliverSync<M: Message>(
        _ message: M,
        to audience: MessageAudience,
        bus: MessageBus,
        routing: MessageRouting,
        reply: (M.Reply) -> Void
    ) throws(MessageError) {
        let route = routing.route(M.self)
        if let route, route.anyAsync {
            let async = route.positions(for: audience).filter { route.handlers[$0].isAsync }
            if !async.isEmpty {
                throw .asynchronousReceiver(M.name, receivers: async.map { route.recipients[$0].participant.name })
            }
        }
        // A broadcast's hop names its audience: it has no one receiver.
        let (depth, saved) = try enter(M.self, routing) { "(\(audience))" }
        defer { depth.pointee = saved }
        guard let route else {
            if bus.hasListeners { bus.notifyListeners(message) }
            return
        }
        var errors: [MessageError] = []
        if !routing.isObserved, let calls = route.boundHandlers(from: sender) {
            // Nobody observes deliveries: each handler is called, bound to its context, through an
            // unretained reference (the route keeps it).
            let removals = bus.removals.load(ordering: .acquiring)
            route.forEachPosition(in: audience) { index in
                do {
                    try calls[index]._withUnsafeGuaranteedRef { object in
                        let handler = unsafeDowncast(object, to: BoundHandler<M>.self)
                        // A receiver removed while the broadcast runs is not called. Until the bus counts
                        // a removal, none was: each receiver's own flag is read only after one.
                        if bus.removals.load(ordering: .acquiring) != removals, handler.presence.isRemoved {
                            return
                        }
                        reply(try handler(message))
                    }
                } catch {
                    errors.append(route.failure(error, at: index, directory: routing.directory, sender: sender))
                }
            }
        } else {
            route.forEachPosition(in: audience) { index in
                // A receiver removed while the broadcast runs is not called.
                guard !route.contexts[index].isRemoved else { return }
                do throws(MessageError) {
                    reply(try route.callSync(index, message, routing: routing, sender: sender))
                } catch {
                    errors.append(error)
                }
            }
        }
        // Listeners hear a message its receivers were called with, even when one of them threw.
        if bus.hasListeners { bus.notifyListeners(message) }
        if !errors.isEmpty, let failure = combinedFailure(M.name, errors) { throw failure }
    }

    /// As `deliverSync`, calling `async` handlers too, one after another.
    @inlinable
    func deliver<M: Message>(
        _ message: M,
        to audience: MessageAudience,
        bus: MessageBus,
        routing: MessageRouting,
        reply: (M.Reply) -> Void
    ) async throws(MessageError) {
        guard let route = routing.route(M.self), route.anyAsync else {
            // Every handler is synchronous: delivered without suspending, as a synchronous broadcast.
            return try deliverSync(message, to: audience, bus: bus, routing: routing, reply: reply)
        }
        let depth = try depth(M.self, routing) { "(\(audience))" } + 1
        let errors: [MessageError] = try await Self.nested(at: depth) { () async throws(MessageError) in
            var errors: [MessageError] = []
            // Every receiver, the usual audience, costs no array of positions.
            let selected: [Int]? = audience.isAll ? nil : route.positions(for: audience)
            for place in 0..<(selected?.count ?? route.handlers.count) {
                let index = selected?[place] ?? place
                // A receiver removed while the broadcast awaited another is not called.
                guard !route.contexts[index].isRemoved else { continue }
                do throws(MessageError) {
                    reply(try await route.call(index, message, routing: routing, sender: sender, budget: budget))
                } catch {
                    errors.append(error)
                }
            }
            return errors
        }
        if bus.hasListeners { bus.notifyListeners(message) }
        if !errors.isEmpty, let failure = combinedFailure(M.name, errors) { throw failure }
    }

    /// Sends `message` to every receiver of `audience` (every receiver of `M` by default), whose handlers
    /// must be synchronous, and combines their replies with `rule` without suspending: the form for code
    /// that cannot `await`.
    ///
    /// Every receiver is called, in delivery order, even when one throws; an audience with no receiver
    /// returns the rule's initial value.
    ///
    /// - Throws: ``MessageError/Code/receiverFailed`` naming every receiver that threw (the others' replies
    ///   are lost with it), ``MessageError/Code/recursionLimit`` when one nested too deep,
    ///   ``MessageError/Code/asynchronousReceiver`` before calling anyone if one handler is `async` (call
    ///   `broadcast(_:to:combining:)` with `await` instead), or the bus is closed.
    @inlinable
    public func broadcastSynchronously<M: Message, Combined>(
        _ message: M,
        to audience: MessageAudience = .all,
        combining rule: ReplyRule<M.Reply, Combined>
    ) throws(MessageError) -> Combined {
        let (bus, routing) = try open(M.self)
        var combined = rule.initial
        try deliverSync(message, to: audience, bus: bus, routing: routing) { rule.combine(&combined, $0) }
        return combined
    }

    /// Sends `message` to every receiver of `audience` (every receiver of `M` by default), whose handlers
    /// may be `async`, and combines their replies with `rule`: `.collect`, `.anyTrue`, `.firstNonNil()`,
    /// `.count`, or your own.
    ///
    /// The receivers are called one after another, in delivery order, every one even when one throws; an
    /// audience with no receiver returns the rule's initial value. When every handler is synchronous, the
    /// broadcast runs without suspending.
    ///
    /// - Throws: as ``broadcastSynchronously(_:to:combining:)``, except that `async` handlers are called.
    @inlinable
    public func broadcast<M: Message, Combined>(
        _ message: M,
        to audience: MessageAudience = .all,
        combining rule: ReplyRule<M.Reply, Combined>
    ) async throws(MessageError) -> Combined {
        let (bus, routing) = try open(M.self)
        var combined = rule.initial
        try await deliver(message, to: audience, bus: bus, routing: routing) { rule.combine(&combined, $0) }
        return combined
    }

    /// Sends `message`, which has no reply, to every receiver of `audience`, whose handlers must be
    /// synchronous, and returns how many handled it.
    @inlinable
    @discardableResult
    public func broadcastSynchronously<M: Message>(
        _ message: M,
        to audience: MessageAudience = .all
    ) throws(MessageError) -> Int where M.Reply == Void {
        let (bus, routing) = try open(M.self)
        var count = 0
        try deliverSync(message, to: audience, bus: bus, routing: routing) { count += 1 }
        return count
    }

    /// Sends `message`, which has no reply, to every receiver of `audience`, whose handlers may be `async`,
    /// and returns how many handled it.
    @inlinable
    @discardableResult
    public func broadcast<M: Message>(
        _ message: M,
        to audience: MessageAudience = .all
    ) async throws(MessageError) -> Int where M.Reply == Void {
        let (bus, routing) = try open(M.self)
        var count = 0
        try await deliver(message, to: audience, bus: bus, routing: routing) { count += 1 }
        return count
    }

    // MARK: Listening

    /// Every message of type `message` sent on this bus from now on, for `duration` or until cancelled.
    ///
    /// - Throws: ``MessageError/Code/noBus`` if the host has no bus.
    public func listen<M: Message>(
        to message: M.Type,
        for duration: Duration? = nil
    ) throws(MessageError) -> MessageListener<M> {
        guard let bus else { throw .noBus(M.name) }
        return MessageListener(bus: bus, duration: duration)
    }
}

extension LifecycleContext {
    /// Sends messages on this context's host as nobody in particular: from code that is not a module.
    public var messages: Messenger {
        Messenger(bus: launchOptions[MessageBusKey.self], sender: nil)
    }

    /// Sends messages as the module `sender`, which journals and receivers see:
    /// `context.messages(from: Self.self)`.
    public func messages(from sender: any LifecycleModule.Type) -> Messenger {
        Messenger(bus: launchOptions[MessageBusKey.self], sender: ObjectIdentifier(sender))
    }

    /// This context's host's message bus, if its manifest has messages: who receives what.
    public var messageBus: MessageBus? { launchOptions[MessageBusKey.self] }
}
