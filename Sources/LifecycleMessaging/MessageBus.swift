public import LifecycleCore
import Synchronization

/// One host's message bus: the routes of its installed modules, and the listeners that are not modules.
///
/// A manifest built with `ModuleManifest.withMessages()` gives each host one. The host
/// installs its modules when it is built and again after each registration or removal; every send reads
/// the installation current at that moment.
public final class MessageBus: Sendable {
    /// The current installation; `nil` until the host installs its modules.
    private let installation = Mutex<MessageRouting?>(nil)
    /// Listeners by message type. `listenerCount` lets a send skip the lock when there are none.
    private let listeners = Mutex<[ObjectIdentifier: [any AnyMessageListener]]>([:])
    private let listenerCount = Atomic<Int>(0)

    init() {}

    func install(_ routing: MessageRouting) {
        installation.withLock { $0 = routing }
    }

    /// The installation, if messages can flow now: from the start of the launch until termination ends.
    /// The message's name is built only for an error: `Message.name` costs a `String(describing:)`.
    @usableFromInline
    func open<M: Message>(_: M.Type) throws(MessageError) -> MessageRouting {
        guard let routing = installation.withLock({ $0 }) else { throw .noBus(M.name) }
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

    /// Whether any listener listens to anything: one atomic load per send.
    @usableFromInline
    var hasListeners: Bool { listenerCount.load(ordering: .acquiring) > 0 }

    /// Hands `message` to every listener of `M`.
    @usableFromInline
    func notifyListeners<M: Message>(_ message: M) {
        let current = listeners.withLock { $0[ObjectIdentifier(M.self)] } ?? []
        for listener in current { unsafeDowncast(listener, to: MessageListener<M>.self).offer(message) }
    }

    func add<M: Message>(_ listener: MessageListener<M>) {
        listeners.withLock { $0[ObjectIdentifier(M.self), default: []].append(listener) }
        listenerCount.wrappingAdd(1, ordering: .releasing)
    }

    func remove<M: Message>(_ listener: MessageListener<M>) {
        let removed = listeners.withLock { table in
            guard let index = table[ObjectIdentifier(M.self)]?.firstIndex(where: { $0 === listener }) else {
                return false
            }
            table[ObjectIdentifier(M.self)]?.remove(at: index)
            return true
        }
        if removed { listenerCount.wrappingSubtract(1, ordering: .releasing) }
    }
}

/// Where a host's launch options keep its bus.
enum MessageBusKey: LaunchOptionKey {
    static let defaultValue: MessageBus? = nil
}
