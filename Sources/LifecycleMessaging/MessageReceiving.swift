public import LifecycleCore

/// Adopted by a module that receives messages. It lists its handlers once, in a static function, so the
/// bus knows who receives what without a registration call at run time:
///
/// ```swift
/// struct CacheModule: LifecycleModule, MessageReceiving {
///     static var messageTags: [MessageTag] { ["cache"] }
///
///     init(context: LifecycleContext) {}
///
///     static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
///         handlers.on(ConfigurationChanged.self) { module, message, context in
///             module.apply(message.keys)
///         }
///         handlers.on(CachedEntryCount.self) { module, _, _ in module.count }
///     }
/// }
/// ```
///
/// The discovery plugin lists every receiver in the generated manifest; a hand-written manifest finds
/// them by asking the runtime, once per host (`ModuleManifest.withMessages()`).
public protocol MessageReceiving: LifecycleModule {
    /// Registers one handler per message type this module receives.
    static func receiveMessages(_ handlers: inout MessageHandlers<Self>)

    /// The tags that address this module with ``MessageAudience/tagged(_:)``. None by default.
    static var messageTags: [MessageTag] { get }
}

extension MessageReceiving {
    public static var messageTags: [MessageTag] { [] }
}

/// What a handler receives besides the message: who sent it, a messenger to send on (as the receiver,
/// continuing the chain), and the receiver's lifecycle context.
public struct MessageContext: Sendable {
    @usableFromInline let recipient: RecipientContext
    /// The sender's type, looked up only when asked for.
    @usableFromInline let senderType: ObjectIdentifier?

    @usableFromInline
    init(recipient: RecipientContext, sender: ObjectIdentifier?) {
        self.recipient = recipient
        self.senderType = sender
    }

    /// The module that sent the message, or `nil` when the sender is not a module.
    public var sender: Participant? { senderType.flatMap { recipient.directory.modules[$0] } }
    /// Sends further messages as the receiving module.
    public var messages: Messenger { recipient.messenger }
    /// The receiving module's context.
    public var lifecycle: LifecycleContext { recipient.lifecycle }
}

/// The message handlers of one receiver type, filled in by ``MessageReceiving/receiveMessages(_:)``.
///
/// A handler is synchronous or `async`, as its closure is: a closure without `await` registers the
/// synchronous form, which a synchronous send can call. Registration is `@inlinable`, so each handler is
/// bound where the message type is concrete.
public struct MessageHandlers<Receiver: MessageReceiving> {
    @usableFromInline
    struct Registration {
        let message: ObjectIdentifier
        let name: String
        /// Binds the handler to one receiver instance and appends it to the message's route.
        let bind: (Receiver, MessageRecipient, inout MessageRoutingBuilder) -> Void

        @usableFromInline
        init(
            message: ObjectIdentifier,
            name: String,
            bind: @escaping (Receiver, MessageRecipient, inout MessageRoutingBuilder) -> Void
        ) {
            self.message = message
            self.name = name
            self.bind = bind
        }
    }

    @usableFromInline
    var registrations: [Registration] = []

    init() {}

    /// Registers the synchronous `handler` for the message `M`.
    ///
    /// Registering two handlers for one message type in one receiver is a `ManifestError`
    /// (`duplicateMessageHandler`) when the host is built, or when the module is registered at run time.
    @inlinable
    public mutating func on<M: Message>(
        _ message: M.Type,
        _ handler: @escaping @Sendable (Receiver, M, MessageContext) throws -> M.Reply
    ) {
        registrations.append(
            Registration(message: ObjectIdentifier(M.self), name: M.name) { receiver, recipient, builder in
                builder.append(
                    recipient,
                    handler: MessageRoute<M>.Handler.sync { message, context in
                        try handler(receiver, message, context)
                    },
                    bind: { context in ReceiverHandler(receiver, handler, context: context) }
                )
            }
        )
    }

    /// Registers the `async` `handler` for the message `M`. Only an `async` send reaches it; a
    /// synchronous send to it is refused with ``MessageError/Code/asynchronousReceiver``.
    @_disfavoredOverload
    @inlinable
    public mutating func on<M: Message>(
        _ message: M.Type,
        _ handler: @escaping @Sendable (Receiver, M, MessageContext) async throws -> M.Reply
    ) {
        registrations.append(
            Registration(message: ObjectIdentifier(M.self), name: M.name) { receiver, recipient, builder in
                builder.append(
                    recipient,
                    handler: MessageRoute<M>.Handler.async { message, context in
                        try await handler(receiver, message, context)
                    },
                    bind: { context in BoundHandler(context: context) }
                )
            }
        )
    }
}
