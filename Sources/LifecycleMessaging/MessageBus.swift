public import LifecycleCore
public import Synchronization

/// One host's message bus: the routes of its installed modules, and the listeners that are not modules.
///
/// A manifest built with `ModuleManifest.withMessages()` gives each host one. The host
/// installs its modules when it is built and again after each registration or removal; every send reads
/// the installation current at that moment.
public final class MessageBus: Sendable {
    /// The current installation; `nil` until the host installs its modules.
    private let installation = Locked<MessageRouting?>(nil)
    /// Listeners by message type, held weakly: a listener nobody holds any more is gone, and its deinit
    /// takes it off. `listening` lets a send skip the lock when there are none.
    private let listeners = Locked<[ObjectIdentifier: [WeakListener]]>([:])
    @usableFromInline let listening = Atomic<Int>(0)
    /// Set when the host is gone: a messenger kept past it is told the host terminated.
    private let retired = Atomic<Bool>(false)
    /// How many times receivers were removed (an installation without some, or the host gone), counted
    /// before they are marked: a broadcast that sees the count it started with need not look at each
    /// receiver's presence.
    @usableFromInline let removals = Atomic<Int>(0)

    init() {}

    /// Makes `routing` the current installation. The receivers the previous one had and this one lacks
    /// were removed: they are marked, so a send already under way, or a channel resolved before, calls them
    /// no more.
    func install(_ routing: MessageRouting) {
        let previous = installation.withLock { current in
            defer { current = routing }
            return current
        }
        guard let previous else { return }
        let present = Set(routing.directory.modules.values.map(\.id))
        let removed = previous.routes.flatMap { route in
            route.recipientList.filter { !present.contains($0.participant.id) }
        }
        guard !removed.isEmpty else { return }
        removals.wrappingAdd(1, ordering: .releasing)
        for recipient in removed { recipient.context.presence.markRemoved() }
    }

    /// The presence of each receiver of the current installation, by participant: what the next
    /// installation shares with it, so a module that stays is one receiver to whatever was resolved before.
    func presences() -> [Int: RecipientPresence] {
        guard let routing = installation.withLock({ $0 }) else { return [:] }
        var presences: [Int: RecipientPresence] = [:]
        for route in routing.routes {
            for recipient in route.recipientList { presences[recipient.participant.id] = recipient.context.presence }
        }
        return presences
    }

    /// The host's watchdog, which times listeners; the continuous clock's before the host installs.
    var watchdog: HostWatchdog { installation.withLock { $0?.context.watchdog } ?? .standalone }

    /// Lets the installation go, for good: its host is gone. Breaks the cycle bus → installation → the
    /// host's context → its launch options → bus, so the modules and the bus are freed with the host.
    func retire() {
        let previous = installation.withLock { current in
            defer { current = nil }
            return current
        }
        retired.store(true, ordering: .releasing)
        removals.wrappingAdd(1, ordering: .releasing)
        for route in previous?.routes ?? [] {
            for recipient in route.recipientList { recipient.context.presence.markRemoved() }
        }
    }

    /// The installation, if messages can flow now: from the start of the launch until termination ends.
    /// The message's name is built only for an error: `Message.name` costs a `String(describing:)`.
    @usableFromInline
    func open<M: Message>(_: M.Type) throws(MessageError) -> MessageRouting {
        // A bus exists only in a host with messages; before the host installs its modules (while their
        // initializers run), nothing can receive yet.
        guard let routing = installation.withLock({ $0 }) else {
            throw .closed(M.name, state: retired.load(ordering: .acquiring) ? .terminated : .notRunning)
        }
        let state = routing.context.events.mailbox?.stateWithoutLock ?? .notRunning
        guard state != .notRunning, state != .terminated else { throw .closed(M.name, state: state) }
        return routing
    }

    /// The receivers of `message`, in delivery order; empty before the host installs its modules.
    public func receivers<M: Message>(of message: M.Type) -> [Participant] {
        installation.withLock { $0?.route(M.self)?.participants } ?? []
    }

    /// Every message type some module receives, by name, with its receivers in delivery order, in the order
    /// the receivers registered them: what `lifecycle-demo plan` prints.
    public var routes: [(message: String, receivers: [Participant])] {
        guard let routing = installation.withLock({ $0 }) else { return [] }
        return routing.routes.map { ($0.messageName, $0.participants) }
    }

    // MARK: Listeners

    /// How many listeners listen, to any message type.
    public var listenerCount: Int { listening.load(ordering: .acquiring) }

    /// Whether any listener listens to anything: one atomic load per send.
    @inlinable
    var hasListeners: Bool { listening.load(ordering: .acquiring) > 0 }

    /// Hands `message` to every listener of `M`.
    @usableFromInline
    func notifyListeners<M: Message>(_ message: M) {
        let current = listeners.withLock { $0[ObjectIdentifier(M.self)] } ?? []
        for weak in current {
            guard let listener = weak.listener else { continue }
            unsafeDowncast(listener, to: MessageListener<M>.self).offer(message)
        }
    }

    func add<M: Message>(_ listener: MessageListener<M>) {
        let entry = WeakListener(listener)
        listeners.withLock { $0[ObjectIdentifier(M.self), default: []].append(entry) }
        listening.wrappingAdd(1, ordering: .releasing)
    }

    /// Takes the listener `id` of `message` off, once: on `cancel()`, or when it is deallocated.
    func remove(_ id: ObjectIdentifier, of message: ObjectIdentifier) {
        let removed = listeners.withLock { table in
            guard let index = table[message]?.firstIndex(where: { $0.id == id }) else { return false }
            table[message]?.remove(at: index)
            return true
        }
        if removed { listening.wrappingSubtract(1, ordering: .releasing) }
    }
}

/// A listener as the bus holds it: weakly, so dropping the last reference to a listener ends it.
final class WeakListener: Sendable {
    weak let listener: (any AnyMessageListener)?
    let id: ObjectIdentifier

    init(_ listener: any AnyMessageListener) {
        self.listener = listener
        self.id = ObjectIdentifier(listener)
    }
}

/// Where a host's launch options keep its bus.
enum MessageBusKey: LaunchOptionKey {
    static let defaultValue: MessageBus? = nil
}
