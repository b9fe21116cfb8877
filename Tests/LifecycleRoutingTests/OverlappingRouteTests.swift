#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleRouting
import Testing

/// Tables whose routes overlap at every segment (`a`, a parameter or `*`, some ending in `**`): the trie's
/// winner is the one the documented precedence picks among every pattern, whether or not the search refuses
/// a branch early because no pattern below it has the path's length.
@Suite("Overlapping routes: the most specific pattern wins, and a path of a length no route has fails at once")
struct OverlappingRouteTests {
    /// A segment of a generated pattern, ordered as the precedence orders them.
    enum Kind: Int, Comparable {
        case literal, parameter, wildcard, catchAll
        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The pattern of `kinds`: its literals are `a`, its parameters `p0`, `p1`… by position.
    static func pattern(_ kinds: [Kind]) -> String {
        guard !kinds.isEmpty else { return "/" }
        return kinds.enumerated().map { position, kind in
            switch kind {
            case .literal: "/a"
            case .parameter: "/:p\(position)"
            case .wildcard: "/*"
            case .catchAll: "/**"
            }
        }.joined()
    }

    /// What the documented precedence picks for `segments` among `table`, comparing every pattern: of those
    /// that match, the least by their kinds compared from the left (a literal before a parameter before `*`
    /// before `**`; a pattern that ends before another that goes on). `nil` if none matches.
    static func mostSpecific(_ table: [[Kind]], _ segments: [String]) -> [Kind]? {
        func matches(_ kinds: [Kind]) -> Bool {
            for (position, kind) in kinds.enumerated() {
                if kind == .catchAll { return true }
                guard position < segments.count else { return false }
                if kind == .literal, segments[position] != "a" { return false }
            }
            return kinds.count == segments.count
        }
        return table.filter(matches).min { $0.lexicographicallyPrecedes($1) }
    }

    @Test("Random overlapping tables: the winner, its parameters and its rest are the precedence's, for every path")
    func randomTables() throws {
        var generator = SplitMix(seed: 0x0E_12A9)
        for _ in 0..<60 {
            var table: [[Kind]] = []
            var trie = RouteTrie<[Kind]>()
            for _ in 0..<generator.next(upTo: 120) + 1 {
                var kinds = (0..<generator.next(upTo: 7)).map { _ in
                    Kind(rawValue: generator.next(upTo: 3))!
                }
                if generator.next(upTo: 6) == 0 { kinds.append(.catchAll) }
                if try trie.insert(RoutePattern(Self.pattern(kinds)), kinds) == nil { table.append(kinds) }
            }
            for _ in 0..<200 {
                let segments = (0..<generator.next(upTo: 9)).map { _ in generator.next(upTo: 3) == 0 ? "b" : "a" }
                let path = "/" + segments.joined(separator: "/")
                let expected = Self.mostSpecific(table, segments)
                let found = trie.match(path: path)
                #expect(found?.value == expected, "\(path) among \(table.map(Self.pattern))")
                guard let found, let expected else { continue }
                var captured: [String] = []
                for (position, kind) in expected.enumerated() where kind == .parameter {
                    captured.append("p\(position)=\(segments[position])")
                }
                let names = found.parameters.values.map { "\($0.name)=\($0.value)" }
                #expect(names == captured, "\(path)")
                if let start = expected.firstIndex(of: .catchAll) {
                    #expect(found.parameters.rest == segments[start...].joined(separator: "/"), "\(path)")
                } else {
                    #expect(found.parameters.rest == nil, "\(path)")
                }
            }
        }
    }

    @Test("Literal before parameter before `*` before `**`, at every segment of nine")
    func precedenceAtDepth() throws {
        var trie = RouteTrie<String>()
        let literal = String(repeating: "/a", count: 9)
        try trie.insert(RoutePattern(literal), "literal")
        try trie.insert(RoutePattern(String(repeating: "/a", count: 8) + "/:last"), "parameter")
        try trie.insert(RoutePattern(String(repeating: "/a", count: 8) + "/*"), "wildcard")
        try trie.insert(RoutePattern(String(repeating: "/a", count: 4) + "/**"), "catch-all")
        try trie.insert(RoutePattern("/:first" + String(repeating: "/a", count: 8)), "parameter first")
        try trie.insert(RoutePattern("/*" + String(repeating: "/a", count: 8)), "wildcard first")
        #expect(trie.match(path: literal)?.value == "literal")
        #expect(trie.match(path: String(repeating: "/a", count: 8) + "/b")?.value == "parameter")
        #expect(trie.match(path: String(repeating: "/a", count: 8) + "/b")?.parameters["last"] == "b")
        // Ten segments: no pattern of nine has that length, and the `**` below `/a/a/a/a` takes it.
        let ten = String(repeating: "/a", count: 10)
        #expect(trie.match(path: ten)?.value == "catch-all")
        #expect(trie.match(path: ten)?.parameters.rest == Array(repeating: "a", count: 6).joined(separator: "/"))
        // A parameter first beats `*` first, and beats the `**` that needs a literal first.
        #expect(trie.match(path: "/b" + String(repeating: "/a", count: 8))?.value == "parameter first")
        // Too long, and not under `/a/a/a/a`: nothing.
        #expect(trie.match(path: "/b" + String(repeating: "/a", count: 9)) == nil)
        // Too short for every pattern but the `**`, which needs four `a`.
        #expect(trie.match(path: "/a/a/a")?.value == nil)
        #expect(trie.match(path: "/a/a/a/a")?.value == "catch-all")
        #expect(trie.match(path: "/a/a/a/a")?.parameters.rest == "")
    }

    @Test("Every pattern of three segments over `a`, parameter and `*`: each path of three finds its own")
    func fullTable() throws {
        var table: [[Kind]] = []
        var trie = RouteTrie<[Kind]>()
        for number in 0..<27 {
            let kinds = [number % 3, number / 3 % 3, number / 9].map { Kind(rawValue: $0)! }
            #expect(try trie.insert(RoutePattern(Self.pattern(kinds)), kinds) == nil)
            table.append(kinds)
        }
        for bits in 0..<8 {
            let segments = (0..<3).map { (bits >> $0) & 1 == 0 ? "a" : "b" }
            let expected: [Kind] = segments.map { $0 == "a" ? .literal : .parameter }
            #expect(trie.match(path: "/" + segments.joined(separator: "/"))?.value == expected)
            #expect(Self.mostSpecific(table, segments) == expected)
        }
        #expect(trie.match(path: "/a/a") == nil)
        #expect(trie.match(path: "/a/a/a/a") == nil)
        #expect(trie.match(path: "/") == nil)
    }

    @Test("A scheme's patterns of another length leave the path to the patterns without a scheme")
    func schemesAndLengths() throws {
        var trie = RouteTrie<String>()
        try trie.insert("app://a/:x/:y", "scheme, three")
        try trie.insert("/a/:x", "any scheme, two")
        #expect(trie.match(URL(string: "app://a/b/c")!)?.value == "scheme, three")
        #expect(trie.match(URL(string: "app://a/b")!)?.value == "any scheme, two")
        #expect(trie.match(URL(string: "app://a/b/c/d")!) == nil)
    }
}
