/// Checks that a text is a Graphviz DOT graph that `dot` accepts, without Graphviz: what a test of
/// `ApplicationHost.planGraph()` (or any DOT a program writes) asserts where `dot` is not installed.
///
/// It parses the DOT grammar's statements — `graph`/`digraph`, `subgraph` blocks, node, edge and attribute
/// statements, `ID = ID` — with quoted strings, and checks that every edge's ends are declared nodes.
///
/// ```swift
/// let graph = try DOTSyntax.parse(host.planGraph())
/// #expect(graph.edges.contains { $0.from == "App.Cache" && $0.to == "App.Database" })
/// ```
public enum DOTSyntax {
    /// What a graph holds: its nodes, edges and clusters, by ID (quotes removed).
    public struct Graph: Sendable, Hashable {
        /// Node IDs, in the order they were declared.
        public var nodes: [String] = []
        /// Edges, in order.
        public var edges: [(from: String, to: String)] {
            edgePairs.map { ($0.from, $0.to) }
        }
        /// Subgraph IDs, in order.
        public var subgraphs: [String] = []
        fileprivate var edgePairs: [Pair] = []

        fileprivate struct Pair: Sendable, Hashable {
            let from: String
            let to: String
        }
    }

    /// A text that is not DOT, and where.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// The token (from 0) where parsing stopped.
        public let token: Int
        /// What was expected there.
        public let problem: String

        public var description: String { "DOT syntax error at token \(token): \(problem)" }
    }

    /// Parses `text`; throws ``SyntaxError`` where it is not DOT, or where an edge names an undeclared node.
    public static func parse(_ text: String) throws(SyntaxError) -> Graph {
        var parser = Parser(tokens: try tokenize(text))
        var graph = Graph()
        try parser.graph(into: &graph)
        let declared = Set(graph.nodes)
        for (index, edge) in graph.edgePairs.enumerated()
        where !declared.contains(edge.from) || !declared.contains(edge.to) {
            throw SyntaxError(token: index, problem: "edge \(edge.from) -> \(edge.to) names a node never declared")
        }
        return graph
    }

    fileprivate enum Token: Equatable {
        case id(String)
        case punctuation(String)
    }

    private static func tokenize(_ text: String) throws(SyntaxError) -> [Token] {
        var tokens: [Token] = []
        var characters = Array(text)[...]
        while let first = characters.first {
            if first.isWhitespace {
                characters.removeFirst()
            } else if first == "\"" {
                characters.removeFirst()
                var value = ""
                var closed = false
                while let next = characters.popFirst() {
                    if next == "\\" {
                        guard let escaped = characters.popFirst() else { break }
                        value += escaped == "\"" ? "\"" : "\\\(escaped)"
                    } else if next == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(next)
                    }
                }
                guard closed else { throw SyntaxError(token: tokens.count, problem: "a quoted string never ends") }
                tokens.append(.id(value))
            } else if first == "-", characters.dropFirst().first == ">" {
                characters.removeFirst(2)
                tokens.append(.punctuation("->"))
            } else if "{}[]=;,".contains(first) {
                characters.removeFirst()
                tokens.append(.punctuation(String(first)))
            } else if first.isLetter || first.isNumber || first == "_" || first == "." {
                let word = characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                characters.removeFirst(word.count)
                tokens.append(.id(String(word)))
            } else {
                throw SyntaxError(token: tokens.count, problem: "unexpected character \(first)")
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        var position = 0

        init(tokens: [Token]) { self.tokens = tokens }

        mutating func graph(into graph: inout Graph) throws(SyntaxError) {
            guard case .id(let kind) = next(), kind == "digraph" || kind == "graph" else {
                throw error("`digraph` or `graph`")
            }
            if case .id = peek() { position += 1 }
            try expect("{")
            try statements(into: &graph)
            try expect("}")
            guard position == tokens.count else { throw error("the end of the text after the graph") }
        }

        mutating func statements(into graph: inout Graph) throws(SyntaxError) {
            while let token = peek(), token != .punctuation("}") {
                try statement(into: &graph)
                if peek() == .punctuation(";") { position += 1 }
            }
        }

        mutating func statement(into graph: inout Graph) throws(SyntaxError) {
            guard case .id(let first) = next() else { throw error("a statement") }
            if first == "subgraph" {
                if case .id(let name) = peek() {
                    graph.subgraphs.append(name)
                    position += 1
                }
                try expect("{")
                try statements(into: &graph)
                try expect("}")
                return
            }
            if ["graph", "node", "edge"].contains(first), peek() == .punctuation("[") {
                try attributes()
                return
            }
            if peek() == .punctuation("=") {
                position += 1
                guard case .id = next() else { throw error("a value after `=`") }
                return
            }
            if peek() == .punctuation("->") {
                var from = first
                while peek() == .punctuation("->") {
                    position += 1
                    guard case .id(let to) = next() else { throw error("a node after `->`") }
                    graph.edgePairs.append(Graph.Pair(from: from, to: to))
                    from = to
                }
            } else if !graph.nodes.contains(first) {
                graph.nodes.append(first)
            }
            if peek() == .punctuation("[") { try attributes() }
        }

        mutating func attributes() throws(SyntaxError) {
            try expect("[")
            while peek() != .punctuation("]") {
                guard case .id = next() else { throw error("an attribute name") }
                try expect("=")
                guard case .id = next() else { throw error("an attribute value") }
                if peek() == .punctuation(",") || peek() == .punctuation(";") { position += 1 }
            }
            try expect("]")
        }

        func peek() -> Token? { position < tokens.count ? tokens[position] : nil }

        mutating func next() -> Token? {
            defer { position += 1 }
            return peek()
        }

        mutating func expect(_ punctuation: String) throws(SyntaxError) {
            guard next() == .punctuation(punctuation) else { throw error("`\(punctuation)`") }
        }

        func error(_ expected: String) -> SyntaxError {
            SyntaxError(token: max(0, position - 1), problem: "expected \(expected)")
        }
    }
}
