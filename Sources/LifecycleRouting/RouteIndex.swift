#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RoutePatternSyntax

/// The trie behind ``RouteTrie``, without its values: one per scheme plus one for patterns without a scheme,
/// each pattern a terminal numbered in insertion order. Not generic, so matching is compiled once, here,
/// whatever the values are and wherever the caller is.
struct RouteIndex: Sendable {
    struct Node: Sendable {
        /// The children reached by a literal, keyed by `String`, so by canonical equivalence: a match checks
        /// the scalars too (``literalText``) when the input or a literal is not ASCII.
        var literals: [String: Int32] = [:]
        var parameter: Int32 = -1
        var wildcard: Int32 = -1
        /// The terminal of a `**` pattern ending here.
        var catchAll: Int32 = -1
        /// The terminal of a pattern ending exactly here.
        var terminal: Int32 = -1
        /// The fewest segments after this node with which a pattern below it (or here) can match: a path with
        /// fewer left fails here without a look further. `Int32.max` while no pattern passes through.
        var shortest: Int32 = .max
        /// The most segments after this node with which a pattern below it (or here) can match, `Int32.max`
        /// when a `**` is below: a path with more left fails here without a look further.
        var longest: Int32 = -1
    }

    struct Terminal: Sendable {
        let pattern: RoutePattern
        let names: [String]
    }

    private var nodes: [Node] = [Node()]
    /// The root of each scheme's patterns; node 0 is the root of patterns without a scheme.
    private var schemes: [String: Int32] = [:]
    /// The literal each node is reached by ("" for the others): what a match compares scalar by scalar.
    private var literalText: [String] = [""]
    /// Children whose literal is canonically equivalent to, but not the same scalars as, the one `literals`
    /// holds (`café` written precomposed and decomposed): by parent node, then by the exact literal.
    private var twins: [Int32: [LiteralKey: Int32]] = [:]
    /// Whether a literal is not ASCII: then every match checks the scalars of the literals it follows.
    private var hasNonASCIILiteral = false
    private(set) var terminals: [Terminal] = []

    // MARK: Building

    /// Adds `pattern` as the next terminal, or returns the terminal of the same shape already there.
    mutating func insert(_ pattern: RoutePattern) throws(RouteError) -> (inserted: Bool, terminal: Int) {
        let syntax: RoutePatternSyntax
        switch pattern.parsed {
        case .success(let parsed): syntax = parsed
        case .failure(let problem): throw .invalidPattern(problem, route: nil)
        }
        var node: Int32 = 0
        if let scheme = syntax.scheme {
            if let root = schemes[scheme] {
                node = root
            } else {
                node = addNode()
                schemes[scheme] = node
            }
        }
        var endsInCatchAll = false
        // The nodes the pattern passes through, the node it ends at last.
        var path: [Int32] = [node]
        path.reserveCapacity(syntax.segments.count + 1)
        for segment in syntax.segments {
            switch segment {
            case .literal(let text):
                if text.utf8.contains(where: { $0 >= 0x80 }) { hasNonASCIILiteral = true }
                if let child = nodes[Int(node)].literals[text] {
                    if Self.sameScalars(literalText[Int(child)], text) {
                        node = child
                    } else if let twin = twins[node]?[LiteralKey(text)] {
                        node = twin
                    } else {
                        let twin = addNode(literal: text)
                        twins[node, default: [:]][LiteralKey(text)] = twin
                        node = twin
                    }
                } else {
                    let child = addNode(literal: text)
                    nodes[Int(node)].literals[text] = child
                    node = child
                }
            case .parameter: node = child(of: node, \.parameter)
            case .wildcard: node = child(of: node, \.wildcard)
            case .catchAll: endsInCatchAll = true
            }
            // `**` ends the pattern where it is; every other segment moves one node down.
            if !endsInCatchAll { path.append(node) }
        }
        let slot = endsInCatchAll ? nodes[Int(node)].catchAll : nodes[Int(node)].terminal
        if slot >= 0 { return (false, Int(slot)) }
        terminals.append(Terminal(pattern: pattern, names: syntax.parameterNames))
        let index = Int32(terminals.count - 1)
        if endsInCatchAll { nodes[Int(node)].catchAll = index } else { nodes[Int(node)].terminal = index }
        for (depth, passed) in path.enumerated() {
            let left = Int32(path.count - 1 - depth)
            nodes[Int(passed)].shortest = min(nodes[Int(passed)].shortest, left)
            nodes[Int(passed)].longest = endsInCatchAll ? .max : max(nodes[Int(passed)].longest, left)
        }
        return (true, Int(index))
    }

    private mutating func addNode(literal: String = "") -> Int32 {
        nodes.append(Node())
        literalText.append(literal)
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

    /// The terminal that matches `url`, with what it captured and the URL's query items.
    ///
    /// - Throws: why the path is refused before any pattern is tried (``PathRefusal``).
    func match(_ url: URL) throws(PathRefusal) -> (terminal: Int, parameters: RouteParameters)? {
        var segments: [String] = []
        segments.reserveCapacity(8)
        // Whether literals are compared scalar by scalar: when one is not ASCII, or the input is not.
        var exact = hasNonASCIILiteral
        if let host = url.host(percentEncoded: true), !host.isEmpty {
            try Self.split(host, into: &segments, exact: &exact)
            if !segments.isEmpty { segments[0] = segments[0].lowercased() }
        }
        try Self.split(url.path(percentEncoded: true), into: &segments, exact: &exact)
        guard var found = match(scheme: url.scheme?.lowercased(), segments: segments, exact: exact) else {
            return nil
        }
        if url.query(percentEncoded: true) != nil,
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        {
            for item in items { found.parameters.append(item.name, item.value ?? "") }
        }
        return found
    }

    /// The terminal without a scheme that matches `path`, up to a `?` or `#`, with what it captured.
    ///
    /// - Throws: why the path is refused before any pattern is tried (``PathRefusal``).
    func match(path: String) throws(PathRefusal) -> (terminal: Int, parameters: RouteParameters)? {
        var segments: [String] = []
        segments.reserveCapacity(8)
        var exact = hasNonASCIILiteral
        try Self.split(path, into: &segments, exact: &exact)
        return match(scheme: nil, segments: segments, exact: exact)
    }

    /// The match among the patterns of `scheme`, then those without a scheme.
    private func match(
        scheme: String?,
        segments: [String],
        exact: Bool
    ) -> (terminal: Int, parameters: RouteParameters)? {
        var captures: [String] = []
        captures.reserveCapacity(4)
        if let scheme, let root = schemes[scheme], let found = search(root, segments, 0, &captures, exact) {
            return result(found, captures)
        }
        captures.removeAll(keepingCapacity: true)
        if let found = search(0, segments, 0, &captures, exact) { return result(found, captures) }
        return nil
    }

    private func result(
        _ found: (terminal: Int32, rest: [String]?),
        _ captures: [String]
    ) -> (terminal: Int, parameters: RouteParameters) {
        let terminal = terminals[Int(found.terminal)]
        let names = terminal.names
        var values: [(name: String, value: String)] = []
        values.reserveCapacity(names.count)
        for (name, value) in zip(names, captures) { values.append((name, value)) }
        // Named by the pattern, for errors; the router renames them after the route.
        return (Int(found.terminal), RouteParameters(route: terminal.pattern.text, values, restSegments: found.rest))
    }

    /// Depth first, most specific edge first; `captures` holds the parameters of the path taken.
    ///
    /// Each node is visited at most once (it is reached by one path only, at one position), and only if the
    /// segments left are within its `shortest` … `longest`: a path no pattern below has the
    /// length of is refused at the first such node, without backtracking through the branches that agree
    /// with its first segments.
    private func search(
        _ index: Int32,
        _ segments: [String],
        _ position: Int,
        _ captures: inout [String],
        _ exact: Bool
    ) -> (terminal: Int32, rest: [String]?)? {
        let node = nodes[Int(index)]
        let left = segments.count - position
        guard left >= Int(node.shortest), left <= Int(node.longest) else { return nil }
        guard position < segments.count else {
            if node.terminal >= 0 { return (node.terminal, nil) }
            if node.catchAll >= 0 { return (node.catchAll, []) }
            return nil
        }
        let segment = segments[position]
        if var child = node.literals[segment] {
            if exact, !Self.sameScalars(literalText[Int(child)], segment) {
                child = twins[index]?[LiteralKey(segment)] ?? -1
            }
            if child >= 0, let found = search(child, segments, position + 1, &captures, exact) { return found }
        }
        if node.parameter >= 0 {
            captures.append(segment)
            if let found = search(node.parameter, segments, position + 1, &captures, exact) { return found }
            captures.removeLast()
        }
        if node.wildcard >= 0, let found = search(node.wildcard, segments, position + 1, &captures, exact) {
            return found
        }
        if node.catchAll >= 0 { return (node.catchAll, Array(segments[position...])) }
        return nil
    }

    // MARK: Segments

    /// Appends the non-empty `/`-separated segments of `text`, up to a `?` or `#`, percent-decoded, to
    /// `segments`. Works on the UTF-8 bytes: no `Character` is formed.
    ///
    /// - Throws: ``PathRefusal`` for a segment that is `.` or `..`, written so or encoded, or that holds an
    ///   encoded `/` next to nothing, `.` or `..`; `segments` then holds those before it.
    static func split(_ text: String, into segments: inout [String], exact: inout Bool) throws(PathRefusal) {
        var text = text
        // Every byte ORed: its high bit is set when one is not ASCII.
        var bits: UInt8 = 0
        var anyEscaped = false
        let refusal = text.withUTF8 { bytes -> PathRefusal? in
            var start = 0
            var index = 0
            var escaped = false
            func emit() -> PathRefusal? {
                guard index > start else { return nil }
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                if escaped {
                    anyEscaped = true
                    let decoded = decode(raw)
                    if let reason = RoutePatternSyntax.refusedInput(decoded: decoded) {
                        return PathRefusal(segment: String(decoding: raw, as: UTF8.self), reason: reason)
                    }
                    segments.append(decoded)
                } else {
                    // `.` or `..`: a segment of one or two bytes, all dots.
                    if raw.count <= 2, raw[0] == UInt8(ascii: "."), raw[raw.count - 1] == UInt8(ascii: ".") {
                        return PathRefusal(segment: String(decoding: raw, as: UTF8.self), reason: .dotSegment)
                    }
                    segments.append(String(decoding: raw, as: UTF8.self))
                }
                return nil
            }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "/"):
                    if let refusal = emit() { return refusal }
                    start = index + 1
                    escaped = false
                case UInt8(ascii: "?"), UInt8(ascii: "#"):
                    return emit()
                case UInt8(ascii: "%"):
                    escaped = true
                default:
                    bits |= bytes[index]
                }
                index += 1
            }
            return emit()
        }
        if let refusal { throw refusal }
        // A decoded escape may not be ASCII: checked as if it were not.
        if bits >= 0x80 || anyEscaped { exact = true }
    }

    /// Whether `a` and `b` are the same Unicode scalars, not only canonically equivalent.
    static func sameScalars(_ a: String, _ b: String) -> Bool { LiteralKey(a) == LiteralKey(b) }

    /// `raw` percent-decoded; as it is if an escape is malformed, or decodes to invalid UTF-8.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 2 < raw.count, let high = RoutePatternSyntax.hexValue(raw[index + 1]),
                let low = RoutePatternSyntax.hexValue(raw[index + 2])
            else { return String(decoding: raw, as: UTF8.self) }
            bytes.append(high << 4 | low)
            index += 3
        }
        return String(validating: bytes, as: UTF8.self) ?? String(decoding: raw, as: UTF8.self)
    }
}
