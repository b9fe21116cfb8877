import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import SyntheticModules

#if HummingbirdComparison
@_spi(Internal) import Hummingbird
#endif

// The routing rows: matching a path among N routes with `RouteTrie`, against Hummingbird's router trie; and
// opening a `Route` value through ten global interceptors, against the same calls written by hand.

// MARK: - The route table

/// N route patterns of realistic shapes, generated, and a fixed set of inputs to match against them.
///
/// The patterns come in families of routes, four kinds in turn, and the first N are kept:
///
/// - a resource: `/api/v{k}/resource{f}`, `…/:id`, `…/:id/items/:item`, `…/:id/items/:item/history`;
/// - another resource, in the next API version;
/// - documents, literal only: `/docs/section{f/8}/page{f}` and `…/print`;
/// - files: `/files/bucket{f}/*/meta` (a wildcard) and `/assets/pack{f}/**` (the rest).
///
/// So half the routes capture parameters, a third are literal only, and a sixth have wildcards. Every
/// pattern has a shape of its own: no two differ only by their parameters' names.
///
/// The inputs are 48 hits spread evenly over the table (every kind of route among them), and 16 misses:
/// an unknown resource, a path one segment short of a route, an unknown page, a wildcard route's wrong
/// last segment, and paths under no prefix at all (`--route-inputs` keeps the hits or the misses alone).
/// Every system must answer every input the same, which is checked before anything is measured.
struct RouteTable {
    /// Which inputs are matched.
    enum Inputs: String {
        case all, hits, misses
    }

    /// The patterns; a pattern's value is its index.
    let patterns: [String]
    /// The paths matched, in order.
    let inputs: [String]
    /// The same paths as URLs of a scheme no pattern names, whose host is the first segment.
    let urls: [URL]
    /// For each input, the index of the pattern it matches, or -1 for a miss.
    let expected: [Int]
    /// For each input, the parameters it captures, in order.
    let captures: [[(name: String, value: String)]]

    static let hitCount = 48
    static let missCount = 16

    /// How many inputs one pass matches.
    static func inputCount(_ kept: Inputs) -> Int {
        switch kept {
        case .all: hitCount + missCount
        case .hits: hitCount
        case .misses: missCount
        }
    }

    init(count: Int, inputs kept: Inputs = .all) {
        var patterns: [String] = []
        var family = 0
        while patterns.count < count {
            patterns += Self.family(family)
            family += 1
        }
        patterns.removeLast(patterns.count - count)
        self.patterns = patterns

        var inputs: [String] = []
        var expected: [Int] = []
        var captures: [[(name: String, value: String)]] = []
        for hit in 0..<(kept == .misses ? 0 : Self.hitCount) {
            // Evenly spread, from the first route to the last.
            let index = count == 1 ? 0 : hit * (count - 1) / (Self.hitCount - 1)
            let (path, captured) = Self.input(for: patterns[index], seed: hit)
            inputs.append(path)
            expected.append(index)
            captures.append(captured)
        }
        for miss in 0..<(kept == .hits ? 0 : Self.missCount) {
            inputs.append(Self.miss(miss, family: family))
            expected.append(-1)
            captures.append([])
        }
        self.inputs = inputs
        self.expected = expected
        self.captures = captures
        urls = inputs.map { URL(string: "bench:/" + $0)! }
    }

    /// The routes of family `f`.
    static func family(_ f: Int) -> [String] {
        switch f % 4 {
        case 0, 1:
            let resource = "/api/v\(f % 3 + 1)/resource\(f)"
            return [
                resource, resource + "/:id", resource + "/:id/items/:item", resource + "/:id/items/:item/history",
            ]
        case 2:
            let page = "/docs/section\(f / 8)/page\(f)"
            return [page, page + "/print"]
        default:
            return ["/files/bucket\(f)/*/meta", "/assets/pack\(f)/**"]
        }
    }

    /// A path `pattern` matches, and what it captures.
    static func input(for pattern: String, seed: Int) -> (String, [(name: String, value: String)]) {
        var captured: [(name: String, value: String)] = []
        let segments = pattern.split(separator: "/").map { segment -> String in
            if segment.hasPrefix(":") {
                let value = "\(segment.dropFirst())-\(seed * 7 + captured.count)"
                captured.append((String(segment.dropFirst()), value))
                return value
            }
            if segment == "*" { return "object\(seed)" }
            if segment == "**" { return "css/site\(seed).css" }
            return String(segment)
        }
        return ("/" + segments.joined(separator: "/"), captured)
    }

    /// Miss number `k` in a table whose families end before `family`.
    static func miss(_ k: Int, family: Int) -> String {
        switch k % 8 {
        case 0: return "/api/v1/resource\(family + k)/7"  // a resource the table does not have
        case 1: return "/api/v1/resource0/7/items"  // one segment short of `/api/v1/resource0/:id/items/:item`
        case 2: return "/docs/section0/page\(family + k)"  // an unknown page
        case 3: return "/files/bucket3/object/data"  // a wildcard route, wrong last segment
        case 4: return "/api/v1"  // a prefix of routes, not a route
        case 5: return "/unknown/path/\(k)"
        case 6: return "/api/v2/resource\(family + k)/7/items/8"
        default: return "/static/app\(k).js"
        }
    }

    /// The `RouteTrie` of the patterns.
    func routeTrie() -> RouteTrie<Int> {
        var trie = RouteTrie<Int>()
        for (index, pattern) in patterns.enumerated() {
            do {
                if let existing = try trie.insert(RoutePattern(pattern), index) {
                    fatalError("routing: \(pattern) has the shape of \(existing.pattern)")
                }
            } catch {
                fatalError("routing: \(pattern) does not insert: \(error)")
            }
        }
        return trie
    }

    /// Stops the run if `answer`, what a system made of input `index`, is not what the table expects.
    func check(_ system: System, _ index: Int, value: Int?, captured: [(name: String, value: String)]?) {
        let expectedValue = expected[index]
        guard (value ?? -1) == expectedValue else {
            fatalError(
                "\(system.id): \(inputs[index]) matched \(value.map { patterns[$0] } ?? "nothing"), expected "
                    + (expectedValue >= 0 ? patterns[expectedValue] : "nothing")
            )
        }
        guard let captured, value != nil else { return }
        let wanted = captures[index]
        guard captured.count == wanted.count, zip(captured, wanted).allSatisfy({ $0 == $1 }) else {
            fatalError("\(system.id): \(inputs[index]) captured \(captured), expected \(wanted)")
        }
    }
}

// MARK: - Matching

/// Matches every input in the `RouteTrie`, `passes` times; the loop of the `route-trie-path` row. Returns
/// how many matches found another route than expected.
@inline(never)
func matchPaths(_ trie: RouteTrie<Int>, _ inputs: [String], _ expected: [Int], _ passes: Int) -> Int {
    var wrong = 0
    for _ in 0..<passes {
        for index in inputs.indices {
            let found = trie.match(path: inputs[index])
            if (found?.value ?? -1) != expected[index] { wrong += 1 }
        }
    }
    return wrong
}

/// The `route-trie-url` row: the same inputs as URLs, as the router matches them.
@inline(never)
func matchURLs(_ trie: RouteTrie<Int>, _ urls: [URL], _ expected: [Int], _ passes: Int) -> Int {
    var wrong = 0
    for _ in 0..<passes {
        for index in urls.indices {
            let found = trie.match(urls[index])
            if (found?.value ?? -1) != expected[index] { wrong += 1 }
        }
    }
    return wrong
}

#if HummingbirdComparison
/// Hummingbird's trie of the same patterns; building it is quadratic in the patterns (seconds at 10,000).
func hummingbirdTrie(_ table: RouteTable) -> RouterTrie<Int> {
    let builder = RouterPathTrieBuilder<Int>()
    for (index, pattern) in table.patterns.enumerated() {
        builder.addEntry(RouterPath(pattern), value: index)
    }
    return builder.build()
}

/// The `route-hummingbird` row: `matchPaths(_:_:_:_:)` with Hummingbird's trie.
@inline(never)
func resolvePaths(_ trie: RouterTrie<Int>, _ inputs: [String], _ expected: [Int], _ passes: Int) -> Int {
    var wrong = 0
    for _ in 0..<passes {
        for index in inputs.indices {
            let found = trie.resolve(inputs[index])
            if (found?.value ?? -1) != expected[index] { wrong += 1 }
        }
    }
    return wrong
}
#endif

/// Whether this build includes Hummingbird (the `HummingbirdComparison` trait).
var hummingbirdAvailable: Bool {
    #if HummingbirdComparison
    true
    #else
    false
    #endif
}

/// The matching rows for a table of `count` routes, matching `kept` inputs: one repetition is one pass over
/// the inputs (the report divides by their number), so every sample matches each input as often. Hummingbird's
/// row only with `hummingbird`.
func routeMatchCases(
    _ count: Int,
    inputs kept: RouteTable.Inputs,
    hummingbird: Bool,
    only: [String]
) -> [BenchCase] {
    func selected(_ system: System) -> Bool { only.isEmpty || only.contains { system.id.hasPrefix($0) } }
    let table = RouteTable(count: count, inputs: kept)
    let trie = table.routeTrie()
    let inputs = table.inputs
    let urls = table.urls
    let expected = table.expected
    for index in inputs.indices {
        let byPath = trie.match(path: inputs[index])
        table.check(.routeTriePath, index, value: byPath?.value, captured: byPath?.parameters.values)
        let byURL = trie.match(urls[index])
        table.check(.routeTrieURL, index, value: byURL?.value, captured: byURL?.parameters.values)
    }
    func check(wrong: Int, _ system: System) {
        if wrong != 0 { fatalError("\(system.id) at N=\(grouped(count)): \(wrong) wrong matches") }
    }
    var cases: [BenchCase] = []
    if selected(.routeTriePath) {
        cases.append(
            BenchCase(system: .routeTriePath, modules: count, expectedTicks: nil) { meter, iterations in
                meter.begin()
                let wrong = matchPaths(trie, inputs, expected, iterations)
                meter.end()
                check(wrong: wrong, .routeTriePath)
            }
        )
    }
    if selected(.routeTrieURL) {
        cases.append(
            BenchCase(system: .routeTrieURL, modules: count, expectedTicks: nil) { meter, iterations in
                meter.begin()
                let wrong = matchURLs(trie, urls, expected, iterations)
                meter.end()
                check(wrong: wrong, .routeTrieURL)
            }
        )
    }
    #if HummingbirdComparison
    if hummingbird, selected(.hummingbirdTrie) {
        let started = ContinuousClock.now
        let other = hummingbirdTrie(table)
        let seconds = (ContinuousClock.now - started).nanoseconds / 1e9
        log("N=\(grouped(count)) routes: Hummingbird's trie built in \(significant(seconds)) s")
        for index in inputs.indices {
            let found = other.resolve(inputs[index])
            let captured = found.map { found in
                table.captures[index].map { (name: $0.name, value: found.parameters.get($0.name) ?? "(none)") }
            }
            table.check(.hummingbirdTrie, index, value: found?.value, captured: captured)
        }
        cases.append(
            BenchCase(system: .hummingbirdTrie, modules: count, expectedTicks: nil) { meter, iterations in
                meter.begin()
                let wrong = resolvePaths(other, inputs, expected, iterations)
                meter.end()
                check(wrong: wrong, .hummingbirdTrie)
            }
        )
    }
    #endif
    return cases
}

// MARK: - The interceptor chain

/// The route the chain rows open, by value; its handler returns an `Int`.
struct ChainRoute: Route {
    typealias Result = Int
    let value: Int

    init(value: Int) { self.value = value }
    init(parameters: RouteParameters) throws { value = try parameters.require("value") }
}

/// Serves ``ChainRoute``: its handler calls ``answer(_:)``.
struct ChainServer: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal

    init(context: LifecycleContext) {}

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ChainRoute.self) { server, route, _ in server.answer(route.value) }
    }

    /// The handler's work: a tick, and the answer. Not inlined, so the router's handler and the hand-written
    /// chain both make one real call to it.
    @inline(never)
    func answer(_ value: Int) -> Int {
        HookTally.tick()
        return value &+ 1
    }
}

/// Interceptor number `Number.value`: ticks and continues. Ten of them are ten distinct types, so the host
/// runs ten global interceptors.
struct ContinuingInterceptor<Number: TypeNumber>: RouteInterceptor {
    init(context: LifecycleContext) {}

    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        HookTally.tick()
        decision.continue()
    }
}

/// The interceptors of the chain rows.
let chainInterceptors: [any RouteInterceptor.Type] = (0..<10).map { continuingInterceptor(typeNumber($0)) }

private func continuingInterceptor<Number: TypeNumber>(_: Number.Type) -> any RouteInterceptor.Type {
    ContinuingInterceptor<Number>.self
}

/// One interceptor's work, by hand: a tick, and "continue".
@inline(never)
func interceptByHand(_ route: ChainRoute) async -> Bool {
    HookTally.tick()
    return true
}

/// The handler, by hand: what ``ChainServer``'s registration calls.
@inline(never)
func handleByHand(_ server: ChainServer, _ route: ChainRoute) async throws -> Int {
    server.answer(route.value)
}

/// The chain by hand: ten awaited calls, each checked, then the handler; -1 if a step refused or the
/// handler threw.
@inline(never)
func chainByHand(_ server: ChainServer, _ route: ChainRoute) async -> Int {
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    guard await interceptByHand(route) else { return -1 }
    do {
        return try await handleByHand(server, route)
    } catch {
        return -1
    }
}

/// `iterations` openings of ``ChainRoute`` through `router`; returns how many failed or answered wrong.
@inline(never)
func openChain(_ router: LifecycleRouting.Router, _ iterations: Int) async -> Int {
    var wrong = 0
    for iteration in 0..<iterations {
        do {
            if try await router.open(ChainRoute(value: iteration)) != iteration &+ 1 { wrong += 1 }
        } catch {
            wrong += 1
        }
    }
    return wrong
}

/// The chain rows: one repetition is one opening. The hosts have no time limits and no journal for their
/// lifecycle hooks; only the router's interceptor budget differs.
func routeChainCases(only: [String]) -> [BenchCase] {
    func selected(_ system: System) -> Bool { only.isEmpty || only.contains { system.id.hasPrefix($0) } }
    /// A host serving ``ChainRoute`` with `interceptors`; with the default interceptor budget, or none.
    func host(_ system: System, interceptors: [any RouteInterceptor.Type], defaultBudget: Bool) -> ApplicationHost {
        let manifest = ModuleManifest(name: system.id, [ChainServer.self])
        do {
            return try ApplicationHost(
                manifest: defaultBudget
                    ? manifest.withRouting(interceptors: interceptors)
                    : manifest.withRouting(interceptors: interceptors, interceptorBudget: nil),
                launchOptions: LaunchOptions(),
                configuration: ApplicationHost.Configuration(
                    hookBudget: nil,
                    terminateDeadline: nil,
                    journalCapacity: 0
                )
            )
        } catch {
            fatalError("\(system.id): the host did not build: \(error)")
        }
    }
    func opening(_ system: System, _ host: ApplicationHost, ticks: Int) -> BenchCase {
        guard let router = host.router else { fatalError("\(system.id): the host has no router") }
        return BenchCase(system: system, modules: chainInterceptors.count, expectedTicks: ticks) {
            meter,
            iterations in
            meter.begin()
            let wrong = await openChain(router, iterations)
            meter.end()
            // The host lives as long as its case: a router whose host is gone refuses to open.
            withExtendedLifetime(host) {}
            if wrong != 0 { fatalError("\(system.id): \(wrong) of \(iterations) openings failed") }
        }
    }
    let ticks = chainInterceptors.count + 1
    var cases: [BenchCase] = []
    if selected(.chainInline) {
        cases.append(
            opening(
                .chainInline,
                host(.chainInline, interceptors: chainInterceptors, defaultBudget: false),
                ticks: ticks
            )
        )
    }
    if selected(.chainBudget) {
        let budgeted = host(.chainBudget, interceptors: chainInterceptors, defaultBudget: true)
        cases.append(opening(.chainBudget, budgeted, ticks: ticks))
    }
    if selected(.chainNone) {
        cases.append(opening(.chainNone, host(.chainNone, interceptors: [], defaultBudget: false), ticks: 1))
    }
    if selected(.chainHand) {
        let server = ChainServer(context: LifecycleContext())
        cases.append(
            BenchCase(system: .chainHand, modules: chainInterceptors.count, expectedTicks: ticks) {
                meter,
                iterations in
                var wrong = 0
                meter.begin()
                for iteration in 0..<iterations {
                    if await chainByHand(server, ChainRoute(value: iteration)) != iteration &+ 1 { wrong += 1 }
                }
                meter.end()
                if wrong != 0 { fatalError("\(System.chainHand.id): \(wrong) of \(iterations) chains failed") }
            }
        )
    }
    return cases
}

// MARK: - The overlapping table

/// N routes that overlap as much as routes can: nine segments, each `a`, a parameter or `*`, so every path of
/// nine segments made of `a` and other words matches many of them. The 3⁹ = 19,683 patterns are shuffled
/// once, with a fixed seed, and the first N kept: a subset, the same at every run.
///
/// The misses are paths of eight and ten segments, of `a` alone or `a` and `b` in turn: every branch of the
/// trie agrees with their first eight segments, so a search that backtracks through whatever matches so far
/// visits the whole table before it gives up. The hits are sixteen paths of nine segments, of `a` and `b`,
/// whose expected route is the most specific matching pattern, found by comparing every pattern (a literal
/// before a parameter before `*`, segment by segment from the left). Checked before anything is measured.
struct OverlappingRouteTable {
    static let segmentCount = 9
    static let misses = [
        "/a/a/a/a/a/a/a/a/a/a", "/a/a/a/a/a/a/a/a", "/a/b/a/b/a/b/a/b/a/b", "/b/a/b/a/b/a/b/a",
    ]

    /// The patterns; a pattern's value is its index.
    let patterns: [String]
    /// Each pattern's segments as kinds: 0 for `a`, 1 for a parameter, 2 for `*`.
    let kinds: [[UInt8]]
    /// The hits, paths of nine segments that some pattern matches.
    let hits: [String]
    /// For each hit, the index of the pattern it must match.
    let expectedHits: [Int]

    init(count: Int) {
        precondition(count <= 19_683, "the overlapping table has 3⁹ = 19,683 routes at most")
        var order = Array(0..<19_683)
        var state: UInt64 = 0x5DEE_CE66_D1CE_4E5B
        func next() -> UInt64 {
            // SplitMix64: a fixed shuffle, whatever the platform.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for index in stride(from: order.count - 1, to: 0, by: -1) {
            order.swapAt(index, Int(next() % UInt64(index + 1)))
        }
        var patterns: [String] = []
        var kinds: [[UInt8]] = []
        for number in order.prefix(count) {
            var digits: [UInt8] = []
            var rest = number
            for _ in 0..<Self.segmentCount {
                digits.append(UInt8(rest % 3))
                rest /= 3
            }
            kinds.append(digits)
            patterns.append(
                digits.enumerated().map { position, kind in
                    switch kind {
                    case 0: "/a"
                    case 1: "/:p\(position)"
                    default: "/*"
                    }
                }.joined()
            )
        }
        self.patterns = patterns
        self.kinds = kinds
        var hits: [String] = []
        var expectedHits: [Int] = []
        var candidate = 0
        // Paths of `a` and `b` by the bits of 0, 37, 74, …: the first sixteen some pattern matches.
        while hits.count < 16, candidate < 512 {
            let letters = (0..<Self.segmentCount).map { ((candidate * 37) >> $0) & 1 == 0 ? "a" : "b" }
            candidate += 1
            guard let best = Self.mostSpecific(kinds, letters) else { continue }
            hits.append("/" + letters.joined(separator: "/"))
            expectedHits.append(best)
        }
        self.hits = hits
        self.expectedHits = expectedHits
    }

    /// The index of the most specific pattern among `kinds` that matches the nine segments `letters`.
    static func mostSpecific(_ kinds: [[UInt8]], _ letters: [String]) -> Int? {
        var best: Int?
        for (index, pattern) in kinds.enumerated()
        where zip(pattern, letters).allSatisfy({ $0.0 != 0 || $0.1 == "a" }) {
            if let current = best, !pattern.lexicographicallyPrecedes(kinds[current]) { continue }
            best = index
        }
        return best
    }

    /// The `RouteTrie` of the patterns.
    func routeTrie() -> RouteTrie<Int> {
        var trie = RouteTrie<Int>()
        for (index, pattern) in patterns.enumerated() {
            do {
                if let existing = try trie.insert(RoutePattern(pattern), index) {
                    fatalError("overlapping routes: \(pattern) has the shape of \(existing.pattern)")
                }
            } catch {
                fatalError("overlapping routes: \(pattern) does not insert: \(error)")
            }
        }
        return trie
    }
}

/// The overlapping rows for a table of `count` routes: one repetition is `matches` matches, the inputs in
/// turn, so the report's division by the ordinary table's inputs gives one match.
func overlappingRouteCases(_ count: Int, matches: Int, only: [String]) -> [BenchCase] {
    func selected(_ system: System) -> Bool { only.isEmpty || only.contains { system.id.hasPrefix($0) } }
    let wanted = [System.routeOverlapMiss, .routeOverlapHit].filter(selected)
    guard !wanted.isEmpty else { return [] }
    let table = OverlappingRouteTable(count: count)
    let trie = table.routeTrie()
    for miss in OverlappingRouteTable.misses {
        if let found = trie.match(path: miss) {
            fatalError("overlapping routes, N=\(grouped(count)): \(miss) matched \(table.patterns[found.value])")
        }
    }
    for (hit, expected) in zip(table.hits, table.expectedHits) {
        let found = trie.match(path: hit)?.value
        guard found == expected else {
            fatalError(
                "overlapping routes, N=\(grouped(count)): \(hit) matched \(found.map { table.patterns[$0] } ?? "nothing"), "
                    + "expected \(table.patterns[expected])"
            )
        }
    }
    let ninesMissed = (0..<512).filter { bits in
        trie.match(path: "/" + (0..<9).map { (bits >> $0) & 1 == 0 ? "a" : "b" }.joined(separator: "/")) == nil
    }.count
    log(
        "N=\(grouped(count)) overlapping routes: \(table.hits.count) hits; "
            + "\(ninesMissed) of the 512 nine-segment paths of a and b miss"
    )
    var cases: [BenchCase] = []
    for system in wanted {
        let inputs = system == .routeOverlapMiss ? OverlappingRouteTable.misses : table.hits
        let expected = system == .routeOverlapMiss ? inputs.map { _ in -1 } : table.expectedHits
        let cycled = (0..<matches).map { inputs[$0 % inputs.count] }
        let expectedCycled = (0..<matches).map { expected[$0 % expected.count] }
        cases.append(
            BenchCase(system: system, modules: count, expectedTicks: nil) { meter, iterations in
                meter.begin()
                let wrong = matchPaths(trie, cycled, expectedCycled, iterations)
                meter.end()
                if wrong != 0 { fatalError("\(system.id) at N=\(grouped(count)): \(wrong) wrong matches") }
            }
        )
    }
    return cases
}
