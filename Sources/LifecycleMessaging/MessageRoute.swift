public import LifecycleCore
public import Synchronization

/// A module that receives messages, as a route holds it.
@usableFromInline
struct MessageRecipient: Sendable {
    /// The module, as plans and journals name it.
    @usableFromInline let participant: Participant
    /// `ObjectIdentifier` of its type: how "to one" finds it.
    @usableFromInline let type: ObjectIdentifier
    /// The instance, for ``MessageAudience/conforming(to:)``.
    let instance: any LifecycleModule
    let tags: [MessageTag]
    /// What its handlers receive, built once.
    let context: RecipientContext
}

/// The part of a ``MessageContext`` that belongs to the receiver, built once per installation so a call
/// passes one reference: the receiver's own messenger (sending as it) and the host's context.
@usableFromInline
final class RecipientContext: Sendable {
    @usableFromInline let messenger: Messenger
    @usableFromInline let lifecycle: LifecycleContext
    /// Who is a module of the host, to name a sender when a handler asks.
    @usableFromInline let directory: ModuleDirectory
    /// Whether the host still has the module: shared by every installation the module is in.
    @usableFromInline let presence: RecipientPresence

    /// Whether the module was removed from the host: one atomic load per call.
    @inlinable
    var isRemoved: Bool { presence.isRemoved }

    init(messenger: Messenger, lifecycle: LifecycleContext, directory: ModuleDirectory, presence: RecipientPresence) {
        self.messenger = messenger
        self.lifecycle = lifecycle
        self.directory = directory
        self.presence = presence
    }
}

/// Whether the host still has one module instance, set once when it lets it go. Every installation the
/// instance is part of shares it, so what was resolved in an earlier one (a send under way, a
/// ``MessageChannel``) learns of the removal, however many registrations came in between.
@usableFromInline
final class RecipientPresence: Sendable {
    /// Set once the host installs modules without this one (it was removed, switched off, quarantined, or
    /// the host is gone): a send that began before, or a channel resolved before, calls it no more.
    @usableFromInline let removed = Atomic<Bool>(false)

    init() {}

    /// Whether the module was removed from the host: one atomic load.
    @inlinable
    var isRemoved: Bool { removed.load(ordering: .acquiring) }

    /// Marks the module as removed, for good.
    func markRemoved() { removed.store(true, ordering: .releasing) }
}

/// Every installed module, receiver or not, by type: the senders, and the "to one" addresses that exist
/// but receive nothing.
@usableFromInline
final class ModuleDirectory: Sendable {
    @usableFromInline let modules: [ObjectIdentifier: Participant]

    init(modules: [ObjectIdentifier: Participant]) {
        self.modules = modules
    }
}

/// The receivers of one message type, in delivery order (dependencies, then priority, then manifest
/// order), with their handlers. Immutable once built, except for the audience cache.
@usableFromInline
final class MessageRoute<M: Message>: AnyMessageRoute {
    /// One receiver's handler, bound to the receiver: synchronous or `async`, as registered.
    @usableFromInline
    enum Handler: Sendable {
        case sync(@Sendable (M, MessageContext) throws -> M.Reply)
        case async(@Sendable (M, MessageContext) async throws -> M.Reply)

        @usableFromInline
        var isAsync: Bool {
            if case .async = self { return true }
            return false
        }
    }

    @usableFromInline let handlers: [Handler]
    @usableFromInline let recipients: [MessageRecipient]
    /// Each recipient's context, apart: the one thing a call reads of the recipient.
    @usableFromInline let contexts: [RecipientContext]
    /// The message as delivery records name it.
    @usableFromInline let event: LifecycleEvent
    /// Position of each receiver, by its type.
    @usableFromInline let positions: TypeTable
    /// Whether any handler is `async`: a synchronous broadcast checks before it calls anyone.
    @usableFromInline let anyAsync: Bool
    /// The positions each audience selected, computed once per audience: a conformance check is a
    /// runtime look-up.
    private let selections = Locked<[MessageAudience.Key: [Int]]>([:])
    /// Each receiver's handler bound to its context, for the few senders that broadcast this message.
    private let bound = BoundHandlerCache()

    /// Each receiver's maker of its ``BoundHandler``, given the context for one sender.
    private let binders: [@Sendable (MessageContext) -> BoundHandler<M>]

    init(
        handlers: [Handler],
        binders: [@Sendable (MessageContext) -> BoundHandler<M>],
        recipients: [MessageRecipient]
    ) {
        self.handlers = handlers
        self.binders = binders
        self.recipients = recipients
        self.contexts = recipients.map(\.context)
        self.event = LifecycleEvent(message: M.self, name: M.name)
        var positions = TypeTable(capacity: recipients.count)
        for (index, recipient) in recipients.enumerated() { positions.insert(recipient.type, index) }
        self.positions = positions
        self.anyAsync = handlers.contains { $0.isAsync }
    }

    /// Each receiver's handler bound to its context for messages from `sender`, in delivery order, as
    /// unretained references to ``BoundHandler``s of `M` (the route keeps the objects, for as long as it
    /// lives); `nil` when the route keeps enough senders' already (then each call builds its own context).
    @usableFromInline
    func boundHandlers(from sender: ObjectIdentifier?) -> [Unmanaged<AnyObject>]? {
        bound.calls(from: sender) {
            handlers.indices.map { index in
                binders[index](MessageContext(recipient: contexts[index], sender: sender))
            }
        }
    }

    @usableFromInline var participants: [Participant] { recipients.map(\.participant) }
    @usableFromInline var messageName: String { M.name }
    @usableFromInline var recipientList: [MessageRecipient] { recipients }

    /// Calls `body` with the position of each receiver `audience` addresses, in delivery order. Every
    /// receiver, the usual audience, costs no array.
    @inlinable
    func forEachPosition<Failure: Error>(
        in audience: MessageAudience,
        _ body: (Int) throws(Failure) -> Void
    ) throws(Failure) {
        if audience.isAll {
            for index in handlers.indices { try body(index) }
        } else {
            for index in positions(for: audience) { try body(index) }
        }
    }

    /// The positions of the receivers `audience` addresses, in delivery order.
    @usableFromInline
    func positions(for audience: MessageAudience) -> [Int] {
        if case .all = audience.kind { return Array(handlers.indices) }
        if let cached = selections.withLock({ $0[audience.key] }) { return cached }
        let selected = recipients.indices.filter { audience.selects(recipients[$0]) }
        selections.withLock { $0[audience.key] = selected }
        return selected
    }
}

/// A type-erased ``MessageRoute``.
@usableFromInline
protocol AnyMessageRoute: AnyObject, Sendable {
    var participants: [Participant] { get }
    var messageName: String { get }
    var recipientList: [MessageRecipient] { get }
}

/// Every route of one installation of a host's modules, and who is a module there. Replaced, never
/// changed, when the host registers or removes a module.
@usableFromInline
final class MessageRouting: Sendable {
    /// Every route, in the order its first receiver registered it.
    @usableFromInline let routes: [any AnyMessageRoute]
    /// The position in `routes` of each message type's route.
    @usableFromInline let positions: TypeTable
    /// Every installed module, by type.
    @usableFromInline let directory: ModuleDirectory
    /// The host's context: its state and its journal.
    @usableFromInline let context: LifecycleContext
    /// Whether anyone observes deliveries (the journal, `onDelivery`): read on every call, so a plain
    /// flag rather than the observer closure, whose load costs a retain.
    @usableFromInline let isObserved: Bool
    /// The host's mailbox, whose state a channel's send reads: one atomic load, without the bus's lock.
    private let mailbox: HostMailbox?

    init(routes: [(ObjectIdentifier, any AnyMessageRoute)], directory: ModuleDirectory, context: LifecycleContext) {
        self.isObserved = context.observer != nil
        self.mailbox = context.events.mailbox
        self.routes = routes.map(\.1)
        var positions = TypeTable(capacity: routes.count)
        for (index, (message, _)) in routes.enumerated() { positions.insert(message, index) }
        self.positions = positions
        self.directory = directory
        self.context = context
    }

    /// Whether the host has terminated: messages flow no more.
    @usableFromInline
    var isTerminated: Bool { mailbox?.stateWithoutLock == .terminated }

    /// The route of `M`, if any module receives it.
    @inlinable
    func route<M: Message>(_: M.Type) -> MessageRoute<M>? {
        guard let index = positions[id: ObjectIdentifier(M.self)] else { return nil }
        return unsafeDowncast(routes[index], to: MessageRoute<M>.self)
    }
}

/// Collects the handlers of every receiver while a host installs its modules, then freezes into routes.
@usableFromInline
struct MessageRoutingBuilder {
    private var builders: [ObjectIdentifier: any RouteBuilder] = [:]
    private var order: [ObjectIdentifier] = []

    init() {}

    /// Appends `receiver`'s handler to the route of `M`.
    @usableFromInline
    mutating func append<M: Message>(
        _ recipient: MessageRecipient,
        handler: MessageRoute<M>.Handler,
        bind: @escaping @Sendable (MessageContext) -> BoundHandler<M>
    ) {
        let key = ObjectIdentifier(M.self)
        let builder = builders[key] as? TypedRouteBuilder<M> ?? TypedRouteBuilder<M>()
        if builders[key] == nil { order.append(key) }
        if let faults = recipient.context.lifecycle.faults {
            let faulting = FaultingMessageHandler(handler, bind, faults: faults, participant: recipient.participant)
            builder.handlers.append(faulting.handler)
            builder.binders.append(faulting.bind)
        } else {
            builder.handlers.append(handler)
            builder.binders.append(bind)
        }
        builder.recipients.append(recipient)
        builders[key] = builder
    }

    func build(directory: ModuleDirectory, context: LifecycleContext) -> MessageRouting {
        let routes = order.compactMap { key in builders[key].map { (key, $0.build()) } }
        return MessageRouting(routes: routes, directory: directory, context: context)
    }
}

private protocol RouteBuilder: AnyObject {
    func build() -> any AnyMessageRoute
}

private final class TypedRouteBuilder<M: Message>: RouteBuilder {
    var handlers: [MessageRoute<M>.Handler] = []
    var binders: [@Sendable (MessageContext) -> BoundHandler<M>] = []
    var recipients: [MessageRecipient] = []

    func build() -> any AnyMessageRoute {
        MessageRoute<M>(handlers: handlers, binders: binders, recipients: recipients)
    }
}
