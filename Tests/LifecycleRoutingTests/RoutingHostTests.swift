#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import LifecycleTesting
import Testing

@Suite("Routing in a host: URLs, the open-URL event, commands, validation, concurrency")
struct RoutingHostTests {
    @Test("By URL: the route is resolved, its typed parameters parsed, its handler's result returned")
    func openURL() async throws {
        let (host, _) = try routingHost()
        let router = try #require(host.router)
        #expect(try await router.open(url: URL(string: "/users/42")!) as? String == "user 42")
        #expect(try await router.open(url: URL(string: "/users/me")!) as? String == "me")
        #expect(
            try await router.open(url: URL(string: "app://reports/3?format=json")!) as? String == "report 3 as json"
        )
        #expect(try await router.open(url: URL(string: "/files/a/b.txt")!) as? String == "file a/b.txt")
        #expect(router.match(URL(string: "/users/42")!)?.route.type == ShowUser.self)
        // The parameters are named after the route, so its errors name it too.
        let matched = try #require(router.match(URL(string: "/users/x")!))
        #expect(throws: RouteError.self) { try ShowUser(parameters: matched.parameters) }
        do {
            _ = try ShowUser(parameters: matched.parameters)
        } catch {
            #expect(
                (error as? RouteError)?.description.hasPrefix("LifecycleRoutingTests.ShowUser: the parameter") == true
            )
        }
        #expect(router.match(URL(string: "/nowhere")!) == nil)
    }

    @Test("By URL, bad input: no route (no interceptor runs), a parameter that does not parse (after them)")
    func badURLs() async throws {
        let (host, script) = try routingHost()
        let router = try #require(host.router)
        let none = await #expect(throws: RouteError.self) { try await router.open(url: URL(string: "/nowhere")!) }
        #expect(none?.code == .noRoute)
        #expect(none?.description.contains("/users/:id") == true)
        #expect(script.entries.isEmpty)
        let bad = await #expect(throws: RouteError.self) { try await router.open(url: URL(string: "/users/abc")!) }
        #expect(bad?.code == .invalidParameter)
        #expect(bad?.description.contains("ShowUser") == true)
        #expect(bad?.description.contains("`id`") == true)
        // The guards judge the request before its input: a refusal hides whether the input was valid.
        #expect(script.entries == ["First ShowUser", "Second ShowUser", "TieA ShowUser", "TieB ShowUser"])
        script.when("First") { intent, _, decision in
            #expect(intent.is(ShowUser.self) && intent.route == nil && intent.parameters?["id"] == "abc")
            decision.reject(Refused())
        }
        let refused = await #expect(throws: RouteError.self) { try await router.open(url: URL(string: "/users/abc")!) }
        #expect(refused?.code == .rejected)
    }

    @Test("By value, a route no module serves; and a host without routing")
    func notServedAndNoRouter() async throws {
        let (host, _) = try routingHost([LegacyLinks.self])
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 1)) }
        #expect(error?.code == .notServed)
        let plain = try ApplicationHost(manifest: ModuleManifest([LegacyLinks.self]))
        #expect(plain.router == nil)
    }

    @Test("The open-URL event: a module's own handling OR a route that matched and succeeded")
    func openURLEvent() async throws {
        let (host, script) = try routingHost([LegacyLinks.self, UserServer.self])
        try await host.launch()
        #expect(try await host.open(URL(string: "/users/5")!))
        #expect(script.entries.last == "handler ShowUser 5")
        #expect(try await host.open(URL(string: "/legacy")!))
        // Unmatched: today's behaviour, nobody handled it.
        #expect(try await host.open(URL(string: "/unknown")!) == false)
        // Matched but refused: the router's failure, reported like a module's.
        script.when("First") { _, _, decision in decision.reject(Refused()) }
        let error = await #expect(throws: LifecycleError.self) { try await host.open(URL(string: "/users/5")!) }
        #expect(error?.code == .hookFailed)
        #expect(error?.failures.first?.participant.name == "LifecycleRouting.RouterModule")
        #expect((error?.failures.first?.error as? RouteError)?.code == .rejected)
        #expect(host.participants.last?.name == "LifecycleRouting.RouterModule")
        try await host.terminate()
    }

    @Test("Commands: arguments and options parsed into typed parameters; the default command")
    func commands() async throws {
        let (host, _) = try routingHost()
        let router = try #require(host.router)
        #expect(try await router.run(arguments: ["greet", "ada"]) as? String == "hello ada")
        #expect(
            try await router.run(arguments: ["greet", "--times", "2", "ada", "dr", "--shout"]) as? String
                == "HELLO DR ADA, HELLO DR ADA"
        )
        #expect(try await router.run(arguments: ["greet", "--times=1", "--", "--ada"]) as? String == "hello --ada")
        #expect(try await router.run(arguments: []) as? String == "fine")
    }

    @Test(
        "Commands, bad input: each a typed error with the usage",
        arguments: [
            (["greet"], RouteError.Code.missingArgument, "needs the argument <name>"),
            (["greet", "a", "b", "c"], .unexpectedArgument, "takes no argument \"c\""),
            (["greet", "a", "--loud"], .unknownOption, "has no option --loud"),
            (["greet", "a", "--times"], .unknownOption, "--times needs a value"),
            (["greet", "a", "--shout=yes"], .unknownOption, "is a flag"),
            (["greet", "a", "--times", "many"], .invalidParameter, "does not parse as `Int`"),
            (["grete"], .noRoute, "Unknown command `grete`"),
        ]
    )
    func badCommands(arguments: [String], code: RouteError.Code, text: String) async throws {
        let (host, _) = try routingHost()
        let error = await #expect(throws: RouteError.self) { try await host.router!.run(arguments: arguments) }
        #expect(error?.code == code)
        #expect(error?.description.contains(text) == true, "\(error?.description ?? "")")
    }

    @Test("Help lists the commands from the routes themselves, and each command's arguments and options")
    func help() throws {
        let (host, _) = try routingHost()
        let router = try #require(host.router)
        let list = try #require(router.help(for: ["--help"], program: "tool"))
        #expect(list.contains("usage: tool <command> [options]"))
        #expect(list.contains("  greet   Greets someone"))
        #expect(list.contains("  status  Says how things are (default)"))
        let greet = try #require(router.help(for: ["greet", "--help"], program: "tool"))
        #expect(greet.contains("usage: tool greet [--times N] [--shout] <name> [title]"))
        #expect(greet.contains("--times N"))
        #expect(router.help(for: ["greet", "ada"], program: "tool") == nil)
        #expect(router.help(for: ["nope", "--help"], program: "tool")?.hasPrefix("Unknown command `nope`") == true)
    }

    @Test("Sixteen tasks open intents at once: every result is right, every interceptor ran once per intent")
    func concurrency() async throws {
        // On a virtual clock: the budget passes only if the test moves it, however loaded the machine.
        let (host, script) = try routingHost(budget: .seconds(5), clock: VirtualClock())
        let router = try #require(host.router)
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for task in 0..<16 {
                group.addTask {
                    var last = ""
                    for round in 0..<25 {
                        let id = task * 100 + round
                        last =
                            round.isMultiple(of: 2)
                            ? try await router.open(ShowUser(id: id))
                            : try await router.open(url: URL(string: "/users/\(id)")!) as! String
                        guard last == "user \(id)" else { return (task, "wrong: \(last)") }
                    }
                    return (task, last)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(results.count == 16)
        #expect(results.values.allSatisfy { $0.hasPrefix("user ") })
        let entries = script.entries
        #expect(entries.filter { $0.hasPrefix("handler ShowUser") }.count == 400)
        for name in ["First", "Second", "TieA", "TieB"] {
            #expect(entries.filter { $0 == "\(name) ShowUser" }.count == 400)
        }
    }

    @Test("Routes that compete for one input, or cannot match, refuse the manifest before anything is created")
    func validation() throws {
        let duplicate = #expect(throws: ManifestError.self) {
            _ = try ApplicationHost(manifest: ModuleManifest([UserServer.self, ShadowServer.self]).withRouting())
        }
        #expect(duplicate?.code == .duplicateRoute)
        #expect(duplicate?.description.contains("\"/users/:id\"") == true)
        #expect(duplicate?.description.contains("\"/users/:userID\"") == true)
        #expect(duplicate?.description.contains("`LifecycleRoutingTests.UserServer`") == true)
        #expect(duplicate?.description.contains("command `greet`") == true)

        let invalid = #expect(throws: ManifestError.self) {
            _ = try ApplicationHost(manifest: ModuleManifest([BrokenServer.self]).withRouting())
        }
        #expect(invalid?.code == .invalidRoute)
        #expect(invalid?.description.contains("put `**` last") == true)
        #expect(invalid?.description.contains("`bad name` is not a word") == true)
    }

    @Test("A server registered at run time is checked against the routes already served")
    func lateRegistration() async throws {
        let (host, _) = try routingHost()
        try await host.launch()
        let error = await #expect(throws: LifecycleError.self) { try await host.register(ShadowServer.self) }
        #expect(error?.description.contains("match the same inputs") == true)
        #expect(error?.description.contains("The host is unchanged") == true)
        try await host.register(ExtraServer.self)
        #expect(try await host.router!.open(url: URL(string: "/extra")!) as? String == "extra")
        try await host.terminate()
    }

    @Test("Fuzzed URLs through the whole router: each opens its route or fails with a typed error")
    func fuzzedURLs() async throws {
        let (host, _) = try routingHost(interceptors: [First.self])
        let router = try #require(host.router)
        var generator = SplitMix(seed: 0xF022)
        let pieces = [
            "/", "users", "me", "42", "-1", "%", "%2F", "%zz", "app:", "//", "reports", "7", "?", "=", "&",
            "#", "files", "**", ":", "é", " ", "guarded", "no", "9999999999999999999999", "..", "%2E",
        ]
        var opened = 0
        var refused: [RouteError.Code: Int] = [:]
        for _ in 0..<3_000 {
            let text = (0..<generator.next(upTo: 8)).map { _ in pieces[generator.next(upTo: pieces.count)] }.joined()
            guard let url = URL(string: text) else { continue }
            do {
                _ = try await router.open(url: url)
                opened += 1
            } catch {
                refused[error.code, default: 0] += 1
            }
        }
        #expect(opened > 0)
        #expect(refused[.noRoute, default: 0] > 0)
        #expect(refused[.invalidPath, default: 0] > 0)
        #expect(
            Set(refused.keys).isSubset(of: [.noRoute, .invalidPath, .invalidParameter, .missingParameter, .rejected])
        )
    }

    @Test("Route and intent names are module-qualified type names; unresolved intents are named by their input")
    func names() async throws {
        let (host, _) = try routingHost(interceptors: [])
        let router = try #require(host.router)
        let served = try #require(router.routes.first { $0.type == ShowUser.self })
        #expect(served.name == "LifecycleRoutingTests.ShowUser")
        #expect(served.server == "LifecycleRoutingTests.UserServer")
        #expect(served.description.hasPrefix("LifecycleRoutingTests.ShowUser /users/:id served by"))
        #expect(RouteIntent(ShowUser(id: 1)).name == "LifecycleRoutingTests.ShowUser")
        #expect(RouteIntent(named: "flush") { _ in }.name == "flush")
        #expect(RouteIntent(url: URL(string: "app://reports/3")!).name == "app://reports/3")
        #expect(RouteIntent(command: ["greet", "ada"]).name == "greet ada")
        #expect(RouteIntent(command: []).name == "(default command)")
        // Resolved, a URL's intent takes its route's name, whether or not its parameters made a route.
        let error = await #expect(throws: RouteError.self) { try await router.open(url: URL(string: "/users/x")!) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.intent == "LifecycleRoutingTests.ShowUser")
    }

    @Test("The router fails typed once its host is gone; nothing crashes")
    func hostGone() async throws {
        var host: ApplicationHost? = try routingHost().0
        let router = try #require(host?.router)
        #expect(router.hasHost)
        #expect(router.interceptors.count == 4)
        #expect(!router.routes.isEmpty)
        #expect(router.match(URL(string: "/users/7")!) != nil)
        host = nil
        let error = await #expect(throws: RouteError.self) { try await router.open(ShowUser(id: 1)) }
        #expect(error?.code == .noRouter)
        #expect(error?.description.contains("keep the host alive") == true)
    }

    @Test("A router whose host is released says so, serves nothing, and every opening throws noRouter")
    func everyMemberOnceTheHostIsGone() async throws {
        var host: ApplicationHost? = try routingHost().0
        let router = try #require(host?.router)
        host = nil
        // What Router's documentation ("When the host is gone") promises, member by member.
        #expect(!router.hasHost)
        #expect(router.interceptors.isEmpty)
        #expect(router.routes.isEmpty)
        #expect(router.match(URL(string: "/users/7")!) == nil)
        #expect(router.help(program: "tool")?.contains("greet") == false)
        #expect(router.help(program: "tool", command: "greet") == nil)
        #expect(router.interceptorBudget == nil)  // unchanged: a setting, not state
        let openings: [@Sendable () async throws -> Void] = [
            { _ = try await router.open(ShowUser(id: 1)) },
            { _ = try await router.open(url: URL(string: "/users/7")!) },
            { _ = try await router.run(arguments: ["greet", "ada"]) },
            { _ = try await router.open(named: "factory") { _ in 1 } },
            { _ = try await router.open(RouteIntent(url: URL(string: "/users/7")!)) },
        ]
        for opening in openings {
            let error = await #expect(throws: RouteError.self) { try await opening() }
            #expect(error?.code == .noRouter)
        }
    }
}

// MARK: - More servers

struct ShadowUser: Route {
    static let pattern: RoutePattern? = "/users/:userID"
    static let command: RouteCommand? = RouteCommand("greet", summary: "Greets again")
    init(parameters: RouteParameters) {}
}

/// Serves a route of the same shape as ``ShowUser``, and a command of the same name as ``Greet``.
struct ShadowServer: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ShadowUser.self) { _, _, _ in }
    }
}

struct BrokenPattern: Route {
    static let pattern: RoutePattern? = "/a/**/b"
    init(parameters: RouteParameters) {}
}

struct BrokenCommand: Route {
    static let command: RouteCommand? = RouteCommand("bad name", summary: "")
    init(parameters: RouteParameters) {}
}

struct BrokenServer: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(BrokenPattern.self) { _, _, _ in }
        routes.on(BrokenCommand.self) { _, _, _ in }
    }
}

struct Extra: Route {
    static let pattern: RoutePattern? = "/extra"
    typealias Result = String
    init(parameters: RouteParameters) {}
}

struct ExtraServer: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(Extra.self) { _, _, _ in "extra" }
    }
}
