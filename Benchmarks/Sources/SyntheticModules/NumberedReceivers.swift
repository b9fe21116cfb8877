public import LifecycleCore
public import LifecycleMessaging

/// The message of the messaging benchmark: no payload, no reply (`Reply == Void`).
public struct Tick: Message {
    public init() {}
}

/// What the hand-written baselines of the messaging rows call: one method per message, through an
/// existential. ``NumberedReceiver`` adopts it, so the baselines call the very same module types the bus
/// calls.
public protocol TickReceiving: Sendable {
    /// Receives a ``Tick``.
    func receiveTick(_ tick: Tick)
}

/// Receiver number `Number.value`: a module that receives ``Tick`` and does ``HookTally/tick()``, and
/// nothing else. No lifecycle hooks, no dependencies, normal priority, so the bus delivers in manifest
/// order.
///
/// All `NumberedReceiver` types share one implementation of the handler, as the `Numbered` modules share
/// their hooks: an indirect call through them always lands on the same code.
public struct NumberedReceiver<Number: TypeNumber>: MessageReceiving, TickReceiving {
    public static var priority: ModulePriority { .normal }

    public init(context: LifecycleContext) {}

    public static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Tick.self) { module, message, _ in module.receiveTick(message) }
    }

    /// Not inlined, so the bus's handler and the baselines both make one real call to it.
    @inline(never)
    public func receiveTick(_ tick: Tick) { HookTally.tick() }
}

extension SyntheticCatalog {
    /// `NumberedReceiver` module types 0 ..< ``SyntheticGraph/maximumCount``.
    public static let receivers: [any MessageReceiving.Type] = (0..<SyntheticGraph.maximumCount).map {
        receiverType(typeNumber($0))
    }

    private static func receiverType<Number: TypeNumber>(_: Number.Type) -> any MessageReceiving.Type {
        NumberedReceiver<Number>.self
    }
}
