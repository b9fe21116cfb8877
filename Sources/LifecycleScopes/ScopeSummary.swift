/// A scope's identity: unique within its registry, increasing in the order scopes were made.
public struct ScopeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number.
    public let rawValue: UInt64

    package init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: ScopeID, rhs: ScopeID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }
}

/// What a registry knows about a scope in flight, in ``ScopeRegistry/inFlight(_:)``, failures and errors.
/// A value: reading it never touches the scope.
public struct ScopeSummary: Hashable, Sendable, CustomStringConvertible {
    /// The scope's identity.
    public let id: ScopeID
    /// Its kind.
    public let kind: ScopeKind
    /// Its name, as given when it was made.
    public let name: String
    /// The scope it is nested in, if any.
    public let parent: ScopeID?
    /// Its state when the summary was taken.
    public internal(set) var state: ScopeState
    /// When it was made, after the registry's epoch. `ContinuousClock.Instant` is not frozen, so a value
    /// holding one has no size the compiler knows, and every function that moves a summary, a failure or a
    /// delivery run would find it at run time; a `Duration` is frozen.
    let madeOffset: Duration

    /// When it was made.
    public var made: ContinuousClock.Instant { ScopeClock.epoch + madeOffset }

    public var description: String { "\(kind.name) scope \(id) \"\(name)\"" }
}

/// The instant scope times are measured from: the first time a scope is made in the process.
enum ScopeClock {
    static let epoch = ContinuousClock.now

    /// Now, after the epoch.
    static var now: Duration { ContinuousClock.now - epoch }
}
