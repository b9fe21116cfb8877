/// What a scope is for: a request, a session, a job, or a kind of your own.
///
/// Two kinds are the same when their names are. Declare your own next to the code that begins them:
///
/// ```swift
/// extension ScopeKind {
///     static let connection = ScopeKind("connection")
/// }
/// ```
public struct ScopeKind: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The kind's name, in listings, failures and errors.
    public let name: String

    /// A kind named `name`.
    public init(_ name: String) { self.name = name }

    public init(stringLiteral value: String) { name = value }

    /// One request a server answers.
    public static let request = ScopeKind("request")
    /// A client's session or connection, across its requests.
    public static let session = ScopeKind("session")
    /// A background job.
    public static let job = ScopeKind("job")

    public var description: String { name }
}

/// The scope kinds a global ``ScopeAction`` runs for: a list, or every kind.
///
/// ```swift
/// static let kinds: ScopeKinds = [.request, .job]
/// static let kinds: ScopeKinds = .all
/// ```
public enum ScopeKinds: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// Every kind, including kinds declared after the action.
    case all
    /// These kinds only.
    case only(Set<ScopeKind>)

    public init(arrayLiteral elements: ScopeKind...) { self = .only(Set(elements)) }

    /// Whether `kind` is one of these kinds.
    public func contains(_ kind: ScopeKind) -> Bool {
        switch self {
        case .all: true
        case .only(let kinds): kinds.contains(kind)
        }
    }

    public var description: String {
        switch self {
        case .all: "all kinds"
        case .only(let kinds): kinds.map(\.name).sorted().joined(separator: ", ")
        }
    }
}
