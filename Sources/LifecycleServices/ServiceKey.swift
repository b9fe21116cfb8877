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

    /// The service's metatype as code spells it, for the fixes errors suggest: `(any DatabaseClient).self`
    /// for a protocol, as `ExistentialAny` requires, `Clock.self` for a concrete type.
    var metatypeExpression: String {
        let name = ServiceKey.name(of: type)
        return ServiceKey.isExistential(type) ? "(any \(name)).self" : "\(name).self"
    }

    /// Whether `type` is a protocol's existential (`any DatabaseClient`). `String(describing:)` does not tell
    /// on every runtime (Linux prints `DatabaseClient`), so this reads the metadata's kind, the first word of
    /// every type's metadata in Swift's stable ABI (docs/ABI/TypeMetadata.rst): 0x303 for an existential,
    /// 0x307 for an extended one (`any Collection<Int>`). A class's first word is a pointer, never these.
    static func isExistential(_ type: Any.Type) -> Bool {
        if String(describing: type).hasPrefix("any ") { return true }
        let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
        return kind == 0x303 || kind == 0x307
    }

    /// `any DatabaseClient` reads as `DatabaseClient`: the protocol is the service.
    static func name(of type: Any.Type) -> String {
        let described = String(describing: type)
        return described.hasPrefix("any ") ? String(described.dropFirst(4)) : described
    }
}
