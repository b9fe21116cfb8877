public import LifecycleCore

/// Which receivers of a message a broadcast goes to: every receiver, those with a tag, those that conform
/// to a protocol, or a list of module types. Within the audience, delivery follows the lifecycle's order.
public struct MessageAudience: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        case all
        case tagged(MessageTag)
        case conforming(ObjectIdentifier, name: String, test: @Sendable (any LifecycleModule) -> Bool)
        case modules([ObjectIdentifier], names: [String])
    }

    /// What an audience is cached by in a route.
    enum Key: Hashable {
        case all
        case tagged(MessageTag)
        case conforming(ObjectIdentifier)
        case modules([ObjectIdentifier])
    }

    @usableFromInline let kind: Kind

    /// Whether this is every receiver.
    @usableFromInline var isAll: Bool {
        if case .all = kind { return true }
        return false
    }

    /// Every receiver of the message.
    public static let all = MessageAudience(kind: .all)

    /// The receivers whose ``MessageReceiving/messageTags`` contain `tag`.
    public static func tagged(_ tag: MessageTag) -> MessageAudience { MessageAudience(kind: .tagged(tag)) }

    /// The receivers that conform to `type`, usually a protocol: `.conforming(to: (any Auditing).self)`.
    public static func conforming<P>(to type: P.Type) -> MessageAudience {
        MessageAudience(
            kind: .conforming(ObjectIdentifier(type), name: String(describing: type)) { module in module is P }
        )
    }

    /// The receivers among `modules`, in delivery order (not in the order listed).
    public static func modules(_ modules: [any LifecycleModule.Type]) -> MessageAudience {
        MessageAudience(kind: .modules(modules.map { ObjectIdentifier($0) }, names: modules.map { $0.moduleName }))
    }

    var key: Key {
        switch kind {
        case .all: .all
        case .tagged(let tag): .tagged(tag)
        case .conforming(let id, _, _): .conforming(id)
        case .modules(let ids, _): .modules(ids)
        }
    }

    func selects(_ recipient: MessageRecipient) -> Bool {
        switch kind {
        case .all: true
        case .tagged(let tag): recipient.tags.contains(tag)
        case .conforming(_, _, let test): test(recipient.instance)
        case .modules(let ids, _): ids.contains(recipient.type)
        }
    }
}

extension MessageAudience: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .all: "every receiver"
        case .tagged(let tag): "receivers tagged `\(tag)`"
        case .conforming(_, let name, _): "receivers conforming to `\(name)`"
        case .modules(_, let names): "receivers among " + names.map { "`\($0)`" }.joined(separator: ", ")
        }
    }
}
