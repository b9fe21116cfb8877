public import LifecycleCore
import LifecycleProxy

extension ModuleManifest {
    /// This manifest with messages: every host built from it gets a ``MessageBus``, whose receivers are
    /// its modules that adopt ``MessageReceiving``, found by asking the runtime once per installation. A
    /// generated manifest lists them instead (``withMessages(receivers:)``).
    public func withMessages() -> ModuleManifest {
        adding(MessagesPreparation(declared: nil))
    }

    /// This manifest with messages, whose receivers are listed: what the discovery plugin generates, so a
    /// host asks the runtime nothing. Entries not in the list are asked, as ``withMessages()`` asks.
    public func withMessages(receivers: [any MessageReceiving.Type]) -> ModuleManifest {
        adding(
            MessagesPreparation(
                declared: Dictionary(receivers.map { (ObjectIdentifier($0), $0) }) { first, _ in first }
            )
        )
    }
}

/// Gives each host a bus, checks the receivers' handlers before anything is created, and binds the
/// receivers whenever the host installs its modules.
struct MessagesPreparation: ManifestPreparation {
    var key: String { "LifecycleMessaging" }
    /// The receivers a generated manifest listed, by type.
    let declared: [ObjectIdentifier: any MessageReceiving.Type]?

    func merged(with other: any ManifestPreparation) -> any ManifestPreparation {
        guard let other = other as? MessagesPreparation else { return self }
        switch (declared, other.declared) {
        case (let mine?, let theirs?): return MessagesPreparation(declared: mine.merging(theirs) { first, _ in first })
        case (let mine, let theirs): return MessagesPreparation(declared: mine ?? theirs)
        }
    }

    func receiverType(of type: any LifecycleModule.Type) -> (any MessageReceiving.Type)? {
        declared?[ObjectIdentifier(type)] ?? (type as? any MessageReceiving.Type)
    }

    func prepare(_ manifest: ModuleManifest, launchOptions: inout LaunchOptions) throws -> ModuleManifest {
        try Self.checkHandlers(of: manifest.entries.map(\.type), receiverType: receiverType)
        launchOptions[MessageBusKey.self] = MessageBus()
        return manifest
    }

    func validate(adding type: any LifecycleModule.Type, context: LifecycleContext) throws {
        try Self.checkHandlers(of: [type], receiverType: receiverType)
    }

    /// Refuses receivers among `types` that register two handlers for one message type.
    private static func checkHandlers(
        of types: [any LifecycleModule.Type],
        receiverType: (any LifecycleModule.Type) -> (any MessageReceiving.Type)?
    ) throws(ManifestError) {
        var problems: [(module: String, messages: [String])] = []
        for type in types {
            guard let receiver = receiverType(type) else { continue }
            let repeated = repeatedMessages(receiver)
            if !repeated.isEmpty { problems.append((type.moduleName, repeated)) }
        }
        guard problems.isEmpty else {
            throw ManifestError(
                code: .duplicateMessageHandler,
                modules: problems.map(\.module),
                description: problems.map { problem in
                    "`\(problem.module)` registers more than one handler for "
                        + problem.messages.map { "`\($0)`" }.joined(separator: ", ")
                }
                .joined(separator: "; ")
                    + ". Nothing was created. Register one handler per message type and do everything in it."
            )
        }
    }

    /// The message types `receiver` registers more than one handler for.
    private static func repeatedMessages<R: MessageReceiving>(_ receiver: R.Type) -> [String] {
        var handlers = MessageHandlers<R>()
        R.receiveMessages(&handlers)
        var seen: Set<ObjectIdentifier> = []
        var repeated: [String] = []
        for registration in handlers.registrations where !seen.insert(registration.message).inserted {
            if !repeated.contains(registration.name) { repeated.append(registration.name) }
        }
        return repeated
    }

    func install(_ modules: [InstalledModule], context: LifecycleContext) {
        guard let bus = context.launchOptions[MessageBusKey.self] else { return }
        var builder = MessageRoutingBuilder()
        var participants: [ObjectIdentifier: Participant] = [:]
        for module in modules { participants[ObjectIdentifier(module.type)] = module.participant }
        let directory = ModuleDirectory(modules: participants)
        // A module that stays keeps its presence, so what was resolved before learns of its removal later.
        let presences = bus.presences()
        for module in modules {
            guard let receiver = receiverType(of: module.type) else { continue }
            Self.bind(
                receiver,
                module,
                bus: bus,
                context: context,
                directory: directory,
                presence: presences[module.participant.id] ?? RecipientPresence(),
                into: &builder
            )
        }
        bus.install(builder.build(directory: directory, context: context))
    }

    func uninstall(context: LifecycleContext) {
        context.launchOptions[MessageBusKey.self]?.retire()
    }

    /// Appends the handlers of `module`, a `R`, to their routes: the first handler of each message type.
    private static func bind<R: MessageReceiving>(
        _: R.Type,
        _ module: InstalledModule,
        bus: MessageBus,
        context: LifecycleContext,
        directory: ModuleDirectory,
        presence: RecipientPresence,
        into builder: inout MessageRoutingBuilder
    ) {
        guard let instance = module.instance as? R else { return }
        var handlers = MessageHandlers<R>()
        R.receiveMessages(&handlers)
        let recipient = MessageRecipient(
            participant: module.participant,
            type: ObjectIdentifier(R.self),
            instance: instance,
            tags: R.messageTags,
            context: RecipientContext(
                messenger: Messenger(bus: bus, sender: ObjectIdentifier(R.self)),
                lifecycle: context,
                directory: directory,
                presence: presence
            )
        )
        var seen: Set<ObjectIdentifier> = []
        for registration in handlers.registrations where seen.insert(registration.message).inserted {
            registration.bind(instance, recipient, &builder)
        }
    }
}
