/// A message one module sends to others through the bus: a `Sendable` value, optionally answered.
///
/// The conforming type is the payload; `Reply` is what each receiver answers, `Void` when it answers
/// nothing.
///
/// ```swift
/// struct ConfigurationChanged: Message {
///     var keys: Set<String>
/// }
///
/// struct CachedEntryCount: Message {
///     typealias Reply = Int
/// }
/// ```
///
/// A module receives messages by adopting ``MessageReceiving``; another sends them through
/// `context.messages(from: Self.self)`, a ``Messenger``.
public protocol Message: Sendable {
    /// What one receiver answers. Several answers combine by the ``ReplyRule`` of the send.
    associatedtype Reply: Sendable = Void

    /// The name used in journals, plans and error messages. Defaults to the type's name.
    static var name: String { get }
}

extension Message {
    /// The type's name, as `String(describing:)` gives it. Built only for journals and errors.
    public static var name: String { String(describing: Self.self) }
}

/// A label a receiver carries, so a message can go to every module with it:
/// `messenger.broadcast(message, to: .tagged("cache"))`.
public struct MessageTag: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The tag's text.
    public let name: String

    /// The tag `name`.
    public init(_ name: String) { self.name = name }

    /// The tag `value`: `"cache"`.
    public init(stringLiteral value: String) { self.name = value }

    public var description: String { name }
}
