#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Values found by ``RoutePattern``: the index the router matches URLs and paths with, usable on its own.
///
/// A trie of segments, one per scheme plus one for patterns without a scheme. When several patterns match one
/// input, the most specific wins, segment by segment from the left: a literal before a parameter, a parameter
/// before `*`, `*` before `**`; a branch that fails further on is left for the next (backtracking). A
/// scheme's patterns are tried before those without one.
///
/// Matching costs one dictionary lookup per segment when one branch agrees with the input, whatever the
/// number of patterns. With overlapping patterns it visits each node at most once, and only nodes that agree
/// with the input so far and have patterns of its length below them: an input longer or shorter than every
/// pattern fails in one step. The bound is in `Docs/Routing.md`.
///
/// ```swift
/// var trie = RouteTrie<String>()
/// try trie.insert("/users/:id", "user")
/// try trie.insert("/users/me", "me")
/// trie.match(path: "/users/42")?.value           // "user", with id=42
/// trie.match(path: "/users/me")?.value           // "me"
/// ```
public struct RouteTrie<Value: Sendable>: Sendable {
    private var index = RouteIndex()
    /// The values, by terminal: in insertion order.
    private var values: [Value] = []

    public init() {}

    /// How many patterns the trie holds.
    public var count: Int { values.count }

    /// The patterns, in insertion order, with their values.
    public var entries: [(pattern: RoutePattern, value: Value)] {
        zip(index.terminals, values).map { ($0.pattern, $1) }
    }

    /// Adds `pattern` with `value`.
    ///
    /// - Returns: `nil`, or, when a pattern of the same shape is already there (the same inputs match it,
    ///   whatever its parameters are called), that pattern and its value; the trie is then unchanged.
    /// - Throws: ``RouteError/Code/invalidPattern`` if `pattern` cannot match anything.
    @discardableResult
    public mutating func insert(
        _ pattern: RoutePattern,
        _ value: Value
    ) throws(RouteError) -> (pattern: RoutePattern, value: Value)? {
        let (inserted, terminal) = try index.insert(pattern)
        guard inserted else { return (index.terminals[terminal].pattern, values[terminal]) }
        values.append(value)
        return nil
    }

    /// The value of the pattern that matches `url`, with what it captured and the URL's query items.
    ///
    /// The URL's host, if it has one, is its first segment, lowercased; its path's segments follow,
    /// percent-decoded. Empty segments (`//`) are skipped. A path the router refuses (a `.` or `..` segment,
    /// an encoded `/` next to nothing, `.` or `..`; `Docs/Routing.md`, "Paths from outside") matches nothing:
    /// ``checkedMatch(_:)`` says why.
    public func match(_ url: URL) -> (value: Value, parameters: RouteParameters)? {
        (try? checkedMatch(url)) ?? nil
    }

    /// ``match(_:)``, throwing for a path the router refuses instead of answering `nil`, so a server can tell
    /// a bad request from one nothing serves.
    ///
    /// - Returns: `nil` when no pattern matches.
    /// - Throws: ``RouteError/Code/invalidPath`` naming the segment and why.
    public func checkedMatch(_ url: URL) throws(RouteError) -> (value: Value, parameters: RouteParameters)? {
        do {
            return try index.match(url).map { (values[$0.terminal], $0.parameters) }
        } catch {
            throw .invalidPath(url.absoluteString, error)
        }
    }

    /// The value of the pattern without a scheme that matches `path`, such as `/users/42`, with what it
    /// captured. The path is taken as it is, up to a `?` or `#`; segments are percent-decoded, and empty
    /// ones skipped. A path the router refuses matches nothing: ``checkedMatch(path:)`` says why.
    public func match(path: String) -> (value: Value, parameters: RouteParameters)? {
        (try? checkedMatch(path: path)) ?? nil
    }

    /// ``match(path:)-(String)``, throwing for a path the router refuses instead of answering `nil`.
    ///
    /// - Returns: `nil` when no pattern matches.
    /// - Throws: ``RouteError/Code/invalidPath`` naming the segment and why.
    public func checkedMatch(path: String) throws(RouteError) -> (value: Value, parameters: RouteParameters)? {
        do {
            return try index.match(path: path).map { (values[$0.terminal], $0.parameters) }
        } catch {
            throw .invalidPath(path, error)
        }
    }

    /// ``match(path:)-(String)`` for a substring or another string type.
    @_disfavoredOverload
    public func match(path: some StringProtocol) -> (value: Value, parameters: RouteParameters)? {
        match(path: String(path))
    }
}
