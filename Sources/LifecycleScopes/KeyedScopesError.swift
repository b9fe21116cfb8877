/// A ``KeyedScopes`` table could not be made, or had no scope for a key. The description names the table
/// (by its scopes' kind), the key, what was asked, and the fix.
public struct KeyedScopesError: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Sendable {
            case invalidCapacity, invalidIdleTimeout, full, closed, openFailed
        }
        let base: Base

        /// The capacity given to the table is less than 1.
        public static let invalidCapacity = Code(base: .invalidCapacity)
        /// The idle timeout given to the table is zero or negative.
        public static let invalidIdleTimeout = Code(base: .invalidIdleTimeout)
        /// A new key arrived while the table held ``KeyedScopes/capacity`` scopes, every one of them in use:
        /// no idle scope could make room. For a server, answer 503 and let the client retry.
        public static let full = Code(base: .full)
        /// The table was closed by ``KeyedScopes/endAll()``.
        public static let closed = Code(base: .closed)
        /// The key's scope could not begin or activate; ``underlying`` has why.
        public static let openFailed = Code(base: .openFailed)

        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// The kind of the table's scopes.
    public let kind: ScopeKind
    /// The key asked for, as the scope would be named; `nil` when making the table.
    public let key: String?
    /// For ``Code/invalidCapacity`` and ``Code/full``: the capacity.
    public let capacity: Int?
    /// For ``Code/invalidIdleTimeout``: the timeout given.
    public let idleTimeout: Duration?
    /// For ``Code/openFailed``: why the scope could not begin or activate.
    public let underlying: ScopeError?

    init(
        _ code: Code,
        kind: ScopeKind,
        key: String?,
        capacity: Int? = nil,
        idleTimeout: Duration? = nil,
        underlying: ScopeError? = nil
    ) {
        self.code = code
        self.kind = kind
        self.key = key
        self.capacity = capacity
        self.idleTimeout = idleTimeout
        self.underlying = underlying
    }

    public var description: String {
        let table = "KeyedScopes(\(kind))"
        let key = key.map { "'\($0)'" } ?? "a key"
        switch code.base {
        case .invalidCapacity:
            return "\(table): cannot be made with capacity \(capacity ?? 0). Fix: give a capacity of at least 1, "
                + "or leave the default (\(KeyedScopes<String>.defaultCapacity))."
        case .invalidIdleTimeout:
            return "\(table): cannot be made with idle timeout \(idleTimeout.map { "\($0)" } ?? "?"). Fix: give "
                + "a timeout of more than zero, or leave the default (\(KeyedScopes<String>.defaultIdleTimeout))."
        case .full:
            return "\(table): no scope for \(key): all \(capacity ?? 0) scopes are in use, none idle to end. Fix: "
                + "refuse the request for now (HTTP 503) and let the client retry, or raise the capacity."
        case .closed:
            return "\(table): no scope for \(key): the table was closed by endAll(). Fix: use the table only "
                + "before the host terminates."
        case .openFailed:
            return "\(table): the scope of \(key) could not begin: \(underlying.map { "\($0)" } ?? "?"). Fix: "
                + "see the scope's error; the next use of the key tries again."
        }
    }
}
