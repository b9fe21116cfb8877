#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleRouting
import Testing

@Suite("Patterns and matching: the grammar, precedence, parameters, and bad input")
struct RouteMatchingTests {
    @Test(
        "Patterns that cannot match are refused with the fix",
        arguments: [
            ("", "is empty"),
            ("users/:id", "does not start with `/`"),
            ("/a/**/b", "put `**` last"),
            ("/users/:", "without a name"),
            ("/users/:1d", "invalid parameter name"),
            ("/a/:x/b/:x", "captures `x` twice"),
            ("/a//b", "empty segment"),
            ("/a?b=1", "contains `?`"),
            ("/a b", "white space"),
            ("/files/a*", "`*` inside the segment"),
            ("/bad%zz", "percent-encode"),
            ("1app://x", "invalid scheme"),
            ("app://", "nothing after"),
        ]
    )
    func invalidPatterns(text: String, reason: String) {
        let pattern = RoutePattern(text)
        #expect(throws: RouteError.self) { try pattern.validate() }
        do {
            try pattern.validate()
        } catch {
            #expect(error.code == .invalidPattern)
            #expect(error.description.contains(reason), "\(error.description)")
        }
        var trie = RouteTrie<Int>()
        #expect(throws: RouteError.self) { try trie.insert(pattern, 1) }
        #expect(trie.count == 0)
    }

    @Test("Valid patterns: their parameters and scheme")
    func validPatterns() throws {
        let report: RoutePattern = "APP://Reports/:day"
        try report.validate()
        #expect(report.scheme == "app")
        #expect(report.parameterNames == ["day"])
        let root: RoutePattern = "/"
        try root.validate()
        #expect(RoutePattern("/a/:x/*/:y/**").parameterNames == ["x", "y"])
    }

    @Test("The most specific pattern wins, segment by segment, and a dead end backtracks")
    func precedence() throws {
        var trie = RouteTrie<String>()
        try trie.insert("/users/:id", "parameter")
        try trie.insert("/users/me", "literal")
        try trie.insert("/users/*/posts", "wildcard")
        try trie.insert("/users/me/settings", "literal deep")
        try trie.insert("/users/:id/followers", "parameter deep")
        try trie.insert("/users/**", "catch-all")
        try trie.insert("/", "root")
        #expect(trie.match(path: "/users/42")?.value == "parameter")
        #expect(trie.match(path: "/users/42")?.parameters["id"] == "42")
        #expect(trie.match(path: "/users/me")?.value == "literal")
        #expect(trie.match(path: "/users/me/settings")?.value == "literal deep")
        // `me` is a literal, but `/users/me/followers` only matches through the parameter: backtracking.
        #expect(trie.match(path: "/users/me/followers")?.value == "parameter deep")
        #expect(trie.match(path: "/users/me/followers")?.parameters["id"] == "me")
        #expect(trie.match(path: "/users/me/posts")?.value == "wildcard")
        #expect(trie.match(path: "/users/a/b/c")?.value == "catch-all")
        #expect(trie.match(path: "/users/a/b/c")?.parameters.rest == "a/b/c")
        #expect(trie.match(path: "/")?.value == "root")
        #expect(trie.match(path: "")?.value == "root")
        #expect(trie.match(path: "/nothing") == nil)
    }

    @Test("`**` matches zero segments too; empty input segments are skipped; escapes are decoded")
    func edges() throws {
        var trie = RouteTrie<String>()
        try trie.insert("/files/**", "files")
        try trie.insert("/tags/:tag", "tag")
        try trie.insert("/caf%C3%A9", "café")
        #expect(trie.match(path: "/files")?.parameters.rest == "")
        #expect(trie.match(path: "//files///a//b")?.parameters.rest == "a/b")
        #expect(trie.match(path: "/tags/a%2Fb")?.parameters["tag"] == "a/b")
        #expect(trie.match(path: "/tags/x?y=1")?.parameters["tag"] == "x")
        #expect(trie.match(path: "/café")?.value == "café")
        #expect(trie.match(path: "/caf%C3%A9")?.value == "café")
        // A malformed escape is kept as written.
        #expect(trie.match(path: "/tags/%zz")?.parameters["tag"] == "%zz")
    }

    @Test("Patterns of one shape collide, whatever their parameters are called; the first stays")
    func duplicates() throws {
        var trie = RouteTrie<Int>()
        #expect(try trie.insert("/users/:id", 1) == nil)
        let existing = try trie.insert("/users/:name/", 2)
        #expect(existing?.value == 1)
        #expect(existing?.pattern.text == "/users/:id")
        #expect(try trie.insert("app://users/:id", 3) == nil)
        #expect(trie.count == 2)
        // An escaped `/`, `:` or `*` in a literal is not a separator, a parameter or a wildcard.
        #expect(try trie.insert("/a%2Fb", 4) == nil)
        #expect(try trie.insert("/a/b", 5) == nil)
        #expect(try trie.insert("/%3Aid", 6) == nil)
        #expect(try trie.insert("/:id", 7) == nil)
        #expect(try trie.insert("/%2A", 8) == nil)
        #expect(try trie.insert("/*", 9) == nil)
        #expect(trie.count == 8)
        #expect(trie.match(path: "/a%2Fb")?.value == 4)
        #expect(trie.match(path: "/a/b")?.value == 5)
        #expect(trie.match(path: "/users/42")?.parameters.description == "id=42")
    }

    @Test("A scheme's patterns match that scheme, its host first and without case; schemeless ones any URL")
    func schemes() throws {
        var trie = RouteTrie<String>()
        try trie.insert("app://reports/:day", "app report")
        try trie.insert("/reports/:day", "any report")
        try trie.insert("/reports/today", "today")
        #expect(trie.match(URL(string: "app://reports/7")!)?.value == "app report")
        #expect(trie.match(URL(string: "APP://Reports/7")!)?.value == "app report")
        #expect(trie.match(URL(string: "other://reports/7")!)?.value == "any report")
        #expect(trie.match(URL(string: "/reports/7")!)?.value == "any report")
        // The scheme's patterns are tried first: its parameter beats the schemeless literal.
        #expect(trie.match(URL(string: "app://reports/today")!)?.value == "app report")
        let found = trie.match(URL(string: "app://reports/7?format=json&x")!)
        #expect(found?.parameters["day"] == "7")
        #expect(found?.parameters["format"] == "json")
        #expect(found?.parameters["x"] == "")
    }

    @Test("Typed parameters: parsed, missing, and not parsable, each a typed error naming the route")
    func typedParameters() throws {
        let parameters = RouteParameters(route: "Demo", [("id", "42"), ("ratio", "0.5"), ("on", "yes"), ("bad", "x")])
        #expect(try parameters.require("id", as: Int.self) == 42)
        #expect(try parameters.require("ratio", as: Double.self) == 0.5)
        #expect(try parameters.require("on", as: Bool.self))
        #expect(try parameters.get("absent", as: Int.self) == nil)
        #expect(try parameters.require("id", as: Level.self) == .high)
        do {
            _ = try parameters.require("bad", as: Int.self)
            Issue.record("`x` parsed as an Int")
        } catch {
            #expect(error.code == .invalidParameter)
            #expect(
                error.description
                    == "Demo: the parameter `bad` is \"x\", which does not parse as `Int`. Pass a valid `Int`, or "
                    + "read the parameter as another type."
            )
        }
        do {
            _ = try parameters.require("absent", as: Int.self)
            Issue.record("an absent parameter was found")
        } catch {
            #expect(error.code == .missingParameter)
            #expect(error.description.contains("`absent`"))
        }
    }

    @Test("Fuzzed patterns and paths: nothing crashes; every match is of an inserted pattern")
    func fuzz() throws {
        var generator = SplitMix(seed: 0x5EED)
        let alphabet = Array("/:*?#%ab01 -_.~@!$&'()+,;=éZ\u{0}\u{7F}")
        var trie = RouteTrie<Int>()
        var inserted = 0
        for index in 0..<2_000 {
            let text = String(
                (0..<generator.next(upTo: 16)).map { _ in alphabet[generator.next(upTo: alphabet.count)] }
            )
            let pattern = RoutePattern(text)
            if (try? pattern.validate()) != nil, (try? trie.insert(pattern, index)) == nil { inserted += 1 }
        }
        #expect(inserted > 0)
        var matched = 0
        for _ in 0..<20_000 {
            let text = String(
                (0..<generator.next(upTo: 24)).map { _ in alphabet[generator.next(upTo: alphabet.count)] }
            )
            if let found = trie.match(path: text) {
                matched += 1
                #expect(trie.entries.contains { $0.value == found.value })
            }
            if let url = URL(string: text) { _ = trie.match(url) }
            if let url = URL(string: "app://" + text) { _ = trie.match(url) }
        }
        #expect(matched > 0)
    }
}

enum Level: Int, RouteParameterValue {
    case low = 1
    case high = 42
}

/// A small deterministic generator, so a failure reproduces.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
