#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import Testing

/// The rules of `Docs/Routing.md`, "Paths from outside": each through `RouteTrie.match(path:)` and
/// `checkedMatch(path:)`, through a host's `router.open(url:)`, `match(_:)` and the open-URL event, and, where
/// they do not apply, command lines.
@Suite("Paths from outside: dot segments, encoded slashes, Unicode literals")
struct PathsFromOutsideTests {
    static func trie() throws -> RouteTrie<String> {
        var trie = RouteTrie<String>()
        try trie.insert("/files/**", "files")
        try trie.insert("/tags/:tag", "tag")
        try trie.insert("/café", "nfc")
        try trie.insert("/menu/:dish", "dish")
        try trie.insert("/a/b", "ab")
        return trie
    }

    @Test(
        "`.` and `..` segments, written so or percent-encoded, are refused before any pattern is tried",
        arguments: [
            "/files/../../etc/passwd", "/files/./a", "/files/a/..", "/files/%2E%2E/etc/passwd", "/files/%2e%2e",
            "/files/.%2E/x", "/files/%2E", "/tags/..", "/a/./b", "/../a/b", "/files/a/../../b?x=1",
        ]
    )
    func dotSegmentsAreRefused(path: String) throws {
        let trie = try Self.trie()
        #expect(trie.match(path: path) == nil)
        let error = #expect(throws: RouteError.self) { try trie.checkedMatch(path: path) }
        #expect(error?.code == .invalidPath)
        #expect(error?.intent == path)
        #expect(error?.description.contains("`.` or `..` segment") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("query item") == true)
        #expect(trie.match(URL(string: "app:/" + path)!) == nil)
    }

    @Test(
        "Dots that are not a whole segment are text: names, extensions, `...`, and after `?` or `#`",
        arguments: [
            ("/files/.hidden", ".hidden"), ("/files/a..b", "a..b"), ("/files/...", "..."), ("/files/a./.b", "a./.b"),
            ("/files/%2E%2E%2E", "..."), ("/files/v1.2/x.txt", "v1.2/x.txt"), ("/files/x?p=../..", "x"),
            ("/files/x#..", "x"),
        ]
    )
    func dotsInsideSegmentsAreText(path: String, rest: String) throws {
        let found = try #require(try Self.trie().checkedMatch(path: path))
        #expect(found.value == "files")
        #expect(found.parameters.rest == rest)
    }

    @Test("An encoded `/` stays inside its segment: the catch-all's segments tell `x%2Fy/z` from `x/y/z`")
    func encodedSlashKeepsItsSegment() throws {
        let trie = try Self.trie()
        let encoded = try #require(trie.match(path: "/files/x%2Fy/z"))
        let plain = try #require(trie.match(path: "/files/x/y/z"))
        #expect(encoded.parameters.restSegments == ["x/y", "z"])
        #expect(plain.parameters.restSegments == ["x", "y", "z"])
        // `rest` names the same file either way, and never climbs out.
        #expect(encoded.parameters.rest == "x/y/z" && plain.parameters.rest == "x/y/z")
        #expect(trie.match(path: "/files")?.parameters.restSegments == [])
        #expect(trie.match(path: "/tags/a")?.parameters.restSegments == nil)
        // One segment: a parameter captures it decoded, `/` included, as before.
        #expect(trie.match(path: "/tags/AC%2FDC")?.parameters["tag"] == "AC/DC")
        #expect(trie.match(path: "/tags/AC/DC") == nil)
        // A literal matches an encoded `/` only where it is written encoded.
        var literal = RouteTrie<Int>()
        try literal.insert("/a%2Fb", 1)
        try literal.insert("/a/b", 2)
        #expect(literal.match(path: "/a%2Fb")?.value == 1)
        #expect(literal.match(path: "/a%2fb")?.value == 1)
        #expect(literal.match(path: "/a/b")?.value == 2)
    }

    @Test(
        "An encoded `/` next to nothing, `.` or `..` is refused: it would smuggle a climb or a root past the rule",
        arguments: [
            "/files/..%2F..%2Fetc%2Fpasswd", "/files/%2Fetc/passwd", "/files/a%2F", "/files/a%2F%2Fb",
            "/files/a%2F..", "/files/.%2Fa", "/tags/..%2Fadmin", "/tags/%2F", "/files/%2e%2e%2fx",
        ]
    )
    func encodedSlashNextToNothingOrDotsIsRefused(path: String) throws {
        let trie = try Self.trie()
        #expect(trie.match(path: path) == nil)
        let error = #expect(throws: RouteError.self) { try trie.checkedMatch(path: path) }
        #expect(error?.code == .invalidPath)
        #expect(error?.description.contains("encoded `/`") == true, "\(error?.description ?? "")")
    }

    @Test("Literals compare by Unicode scalars: a decomposed `é` does not match a precomposed one")
    func literalsCompareByScalars() throws {
        let trie = try Self.trie()
        let precomposed = "/caf\u{E9}"
        let decomposed = "/cafe\u{301}"
        #expect(precomposed == decomposed)  // what `String` says: canonical equivalence
        #expect(trie.match(path: precomposed)?.value == "nfc")
        #expect(trie.match(path: "/caf%C3%A9")?.value == "nfc")
        #expect(trie.match(path: decomposed) == nil)
        #expect(trie.match(path: "/cafe%CC%81") == nil)
        #expect(try trie.checkedMatch(path: decomposed) == nil)  // no route, not a refusal
        // A pattern written decomposed matches the decomposed form only; both can be served side by side.
        var both = RouteTrie<String>()
        try both.insert("/caf\u{E9}/x", "nfc")
        #expect(try both.insert("/cafe\u{301}/x", "nfd") == nil)
        #expect(both.match(path: precomposed + "/x")?.value == "nfc")
        #expect(both.match(path: decomposed + "/x")?.value == "nfd")
        // Canonical twins further down keep their own branches: each form reaches its own route only.
        var twins = RouteTrie<String>()
        try twins.insert("/cafe\u{301}/a", "nfd a")
        try twins.insert("/caf\u{E9}/b", "nfc b")
        #expect(twins.match(path: decomposed + "/a")?.value == "nfd a")
        #expect(twins.match(path: precomposed + "/b")?.value == "nfc b")
        #expect(twins.match(path: precomposed + "/a") == nil)
        #expect(twins.match(path: decomposed + "/b") == nil)
        #expect(twins.match(URL(string: "app:/caf%C3%A9/b")!)?.value == "nfc b")
        // A non-ASCII literal never matches its ASCII look-alike, nor the reverse (U+212A KELVIN SIGN ≡ K).
        var kelvin = RouteTrie<String>()
        try kelvin.insert("/\u{212A}", "kelvin")
        #expect(kelvin.match(path: "/K") == nil)
        #expect(kelvin.match(path: "/\u{212A}")?.value == "kelvin")
        var ascii = RouteTrie<String>()
        try ascii.insert("app://k/K", "K")
        #expect(ascii.match(path: "/\u{212A}") == nil)
        #expect(ascii.match(path: "/%E2%84%AA") == nil)
        #expect(ascii.match(URL(string: "app://k/%E2%84%AA")!) == nil)
        #expect(ascii.match(URL(string: "app://k/K")!)?.value == "K")
        // Parameters capture the scalars sent, not normalized.
        let dish = try #require(trie.match(path: "/menu/cafe%CC%81"))
        #expect(dish.parameters["dish"]?.unicodeScalars.count == 5)
    }

    @Test("Patterns with a segment no input can have (`.`, `..`, an encoded `/` next to nothing) are refused")
    func patternsThatCannotMatch() {
        for text in ["/files/../x", "/a/.", "/a/%2E%2E", "app://../x", "/a%2F", "/%2Fetc", "/a%2F..%2Fb"] {
            let error = #expect(throws: RouteError.self, "\(text)") { try RoutePattern(text).validate() }
            #expect(error?.code == .invalidPattern)
            #expect(error?.description.contains("no input") == true, "\(error?.description ?? "")")
        }
        #expect(throws: Never.self) { try RoutePattern("/files/.well-known/a%2Fb/...").validate() }
    }

    // MARK: - Through a host

    @Test("router.open(url:): a refused path throws invalidPath before any interceptor; match answers nil")
    func throughTheRouter() async throws {
        let (host, script) = try routingHost()
        let router = try #require(host.router)
        for text in ["/files/../../etc/passwd", "/files/%2E%2E/etc/passwd", "app://files/..%2Fsecret", "/users/.."] {
            let url = try #require(URL(string: text))
            let error = await #expect(throws: RouteError.self, "\(text)") { try await router.open(url: url) }
            #expect(error?.code == .invalidPath)
            #expect(error?.intent == url.absoluteString)
            #expect(error?.description.contains("Refused \(url.absoluteString)") == true)
            #expect(router.match(url) == nil)
        }
        #expect(script.entries.isEmpty)  // refused before resolving: no interceptor ran
        // Allowed forms reach the handler with what the rule promises.
        #expect(try await router.open(url: URL(string: "/files/a/.b/c..d")!) as? String == "file a/.b/c..d")
        #expect(try await router.open(url: URL(string: "/files/x%2Fy/z")!) as? String == "file x/y/z")
        #expect(router.match(URL(string: "/files/x%2Fy/z")!)?.parameters.restSegments == ["x/y", "z"])
    }

    @Test("A host refuses two patterns that differ only in Unicode normalization, as duplicates")
    func normalizationTwinsAreDuplicates() {
        let error = #expect(throws: ManifestError.self) {
            _ = try ApplicationHost(manifest: ModuleManifest([CafeServer.self]).withRouting())
        }
        #expect(error?.code == .duplicateRoute)
    }

    @Test("The open-URL event: a refused path is the router's failure, a typed error, not `false` nor a crash")
    func throughTheOpenURLEvent() async throws {
        let (host, _) = try routingHost([UserServer.self, LegacyLinks.self])
        try await host.launch()
        let error = await #expect(throws: LifecycleError.self) {
            try await host.open(URL(string: "/files/../../etc/passwd")!)
        }
        #expect(error?.code == .hookFailed)
        #expect(error?.failures.first?.participant.name == "LifecycleRouting.RouterModule")
        #expect((error?.failures.first?.error as? RouteError)?.code == .invalidPath)
        #expect(try await host.open(URL(string: "/files/a")!))
    }

    @Test("Command lines are not paths: `..`, `.` and `%2F` in an argument reach the route as typed")
    func commandLinesAreNotPaths() async throws {
        let (host, _) = try routingHost(interceptors: [])
        let router = try #require(host.router)
        #expect(try await router.run(arguments: ["greet", ".."]) as? String == "hello ..")
        #expect(try await router.run(arguments: ["greet", "../x%2Fy", "."]) as? String == "hello . ../x%2Fy")
    }
}

struct CafePrecomposed: Route {
    static let pattern: RoutePattern? = "/caf\u{E9}"
    init(parameters: RouteParameters) {}
}

struct CafeDecomposed: Route {
    static let pattern: RoutePattern? = "/cafe\u{301}"
    init(parameters: RouteParameters) {}
}

struct CafeServer: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(CafePrecomposed.self) { _, _, _ in }
        routes.on(CafeDecomposed.self) { _, _, _ in }
    }
}
