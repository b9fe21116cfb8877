#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import RoutePatternSyntax

/// Values found by ``RoutePattern``: the index the router matches URLs and paths with, usable on its own.
///
/// A trie of segments, one per scheme plus one for patterns without a scheme, so matching costs one
/// dictionary lookup per segment, whatever the number of patterns. When several patterns match one input,
/// the most specific wins, segment by segment from the left: a literal before a parameter, a parameter
/// before `*`, `*` before `**`; a branch that fails further on is left for the next (backtracking). A
/// scheme's patterns are tried before those without one.
///
/// ```swift
/// var trie = RouteTrie<String>()
/// try trie.insert("/users/:id", "user")
/// try trie.insert("/users/me", "me")
/// trie.match(path: "/users/42")?.value           // "user", with id=42
/// trie.match(path: "/users/me")?.value           // "me"
/// ```
public struct RouteTrie<Value: Sendable>: Sendable {
    struct Node: Sendable {
        var literals: [String: Int32] = [:]
        var parameter: Int32 = -1
        var wildcard: Int32 = -1
        /// The terminal (in ``terminals``) of a `**` pattern ending here.
        var catchAll: Int32 = -1
        /// The terminal of a pattern ending exactly here.
        var terminal: Int32 = -1
    }

    struct Terminal: Sendable {
        let value: Value
        let pattern: RoutePattern
        let names: [String]
    }

    private var nodes: [Node] = [Node()]
    /// The root of each scheme's patterns; node 0 is the root of patterns without a scheme.
    private var schemes: [String: Int32] = [:]
    private var terminals: [Terminal] = []

    public init() {}

    /// How many patterns the trie holds.
    public var count: Int { terminals.count }

    /// The patterns, in insertion order, with their values.
    public var entries: [(pattern: RoutePattern, value: Value)] { terminals.map { ($0.pattern, $0.value) } }

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
        let syntax: RoutePatternSyntax
        switch pattern.parsed {
        case .success(let parsed): syntax = parsed
        case .failure(let problem): throw .invalidPattern(problem, route: nil)
        }
        var node: Int32
        if let scheme = syntax.scheme {
            if let root = schemes[scheme] {
                node = root
            } else {
                node = addNode()
                schemes[scheme] = node
            }
        } else {
            node = 0
        }
        var endsInCatchAll = false
        for segment in syntax.segments {
            switch segment {
            case .literal(let text):
                if let child = nodes[Int(node)].literals[text] {
                    node = child
                } else {
                    let child = addNode()
                    nodes[Int(node)].literals[text] = child
                    node = child
                }
            case .parameter:
                node = child(of: node, \.parameter)
            case .wildcard:
                node = child(of: node, \.wildcard)
            case .catchAll:
                endsInCatchAll = true
            }
        }
        let slot = endsInCatchAll ? nodes[Int(node)].catchAll : nodes[Int(node)].terminal
        if slot >= 0 { return (terminals[Int(slot)].pattern, terminals[Int(slot)].value) }
        terminals.append(Terminal(value: value, pattern: pattern, names: syntax.parameterNames))
        let index = Int32(terminals.count - 1)
        if endsInCatchAll { nodes[Int(node)].catchAll = index } else { nodes[Int(node)].terminal = index }
        return nil
    }

    private mutating func addNode() -> Int32 {
        nodes.append(Node())
        return Int32(nodes.count - 1)
    }

    private mutating func child(of node: Int32, _ edge: WritableKeyPath<Node, Int32>) -> Int32 {
        let existing = nodes[Int(node)][keyPath: edge]
        if existing >= 0 { return existing }
        let child = addNode()
        nodes[Int(node)][keyPath: edge] = child
        return child
    }

    // MARK: Matching

    /// The value of the pattern that matches `url`, with what it captured and the URL's query items.
    ///
    /// The URL's host, if it has one, is its first segment, lowercased; its path's segments follow,
    /// percent-decoded. Empty segments (`//`) are skipped.
    public func match(_ url: URL) -> (value: Value, parameters: RouteParameters)? {
        var segments: [String] = []
        if let host = url.host(percentEncoded: true), !host.isEmpty {
            segments.append(Self.decode(Substring(host)).lowercased())
        }
        for part in url.path(percentEncoded: true).split(separator: "/") { segments.append(Self.decode(part)) }
        guard var found = match(scheme: url.scheme?.lowercased(), segments: segments) else { return nil }
        if let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems {
            for item in items { found.parameters.append(item.name, item.value ?? "") }
        }
        return found
    }

    /// The value of the pattern without a scheme that matches `path`, such as `/users/42`, with what it
    /// captured. The path is taken as it is, up to a `?` or `#`; segments are percent-decoded.
    public func match(path: some StringProtocol) -> (value: Value, parameters: RouteParameters)? {
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        var segments: [String] = []
        for part in path[..<end].split(separator: "/") { segments.append(Self.decode(Substring(part))) }
        return match(scheme: nil, segments: segments)
    }

    /// The match among the patterns of `scheme`, then those without a scheme.
    func match(scheme: String?, segments: [String]) -> (value: Value, parameters: RouteParameters)? {
        var captures: [String] = []
        if let scheme, let root = schemes[scheme], let found = search(root, segments, 0, &captures) {
            return result(found, captures)
        }
        captures.removeAll(keepingCapacity: true)
        if let found = search(0, segments, 0, &captures) { return result(found, captures) }
        return nil
    }

    private func result(
        _ found: (terminal: Int32, rest: String?),
        _ captures: [String]
    ) -> (value: Value, parameters: RouteParameters) {
        let terminal = terminals[Int(found.terminal)]
        var parameters = RouteParameters(route: "", [], rest: found.rest)
        for (name, value) in zip(terminal.names, captures) { parameters.append(name, value) }
        return (terminal.value, parameters)
    }

    /// Depth first, most specific edge first; `captures` holds the parameters of the path taken.
    private func search(
        _ index: Int32,
        _ segments: [String],
        _ position: Int,
        _ captures: inout [String]
    ) -> (terminal: Int32, rest: String?)? {
        let node = nodes[Int(index)]
        guard position < segments.count else {
            if node.terminal >= 0 { return (node.terminal, nil) }
            if node.catchAll >= 0 { return (node.catchAll, "") }
            return nil
        }
        let segment = segments[position]
        if let child = node.literals[segment], let found = search(child, segments, position + 1, &captures) {
            return found
        }
        if node.parameter >= 0 {
            captures.append(segment)
            if let found = search(node.parameter, segments, position + 1, &captures) { return found }
            captures.removeLast()
        }
        if node.wildcard >= 0, let found = search(node.wildcard, segments, position + 1, &captures) { return found }
        if node.catchAll >= 0 { return (node.catchAll, segments[position...].joined(separator: "/")) }
        return nil
    }

    /// `part` percent-decoded; as it is if it has no escape, or a malformed one, or decodes to invalid UTF-8.
    static func decode(_ part: Substring) -> String {
        guard part.utf8.contains(UInt8(ascii: "%")) else { return String(part) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.utf8.count)
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(RoutePatternSyntax.hexValue),
                let low = iterator.next().flatMap(RoutePatternSyntax.hexValue)
            else { return String(part) }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self) ?? String(part)
    }
}
