/// The identity of a service: its type, used as the key. A protocol's existential is the usual key
/// (`DatabaseClient.self` for `protocol DatabaseClient`), but any type works.
public struct ServiceKey: Sendable, Hashable, CustomStringConvertible {
    let id: ObjectIdentifier
    /// The service type.
    public let type: Any.Type

    /// The key of `type`.
    public init<S>(_ type: S.Type) {
        id = ObjectIdentifier(type)
        self.type = type
    }

    /// The type's name, as plans and error messages show it. Built when asked: resolution never names.
    public var name: String { ServiceKey.name(of: type) }

    public var description: String { name }

    public static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// `any DatabaseClient` reads as `DatabaseClient`: the protocol is the service.
    static func name(of type: Any.Type) -> String {
        let described = String(describing: type)
        return described.hasPrefix("any ") ? String(described.dropFirst(4)) : described
    }
}
