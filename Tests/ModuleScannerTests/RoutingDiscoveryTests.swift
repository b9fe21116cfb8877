import Foundation
import Testing

@testable import ModuleScanner

/// LifecycleRouting's protocols, as the library declares them.
private let routingFile = SourceFile(
    path: "/p/LifecycleRouting/Routing.swift",
    text: """
        public protocol Route: Sendable {
            static var pattern: RoutePattern? { get }
        }
        public struct RoutePattern: Sendable, ExpressibleByStringLiteral {
            public init(_ text: String) {}
        }
        public protocol RouteServing: LifecycleModule {
            static func serveRoutes(_ routes: inout RouteHandlers<Self>)
        }
        public protocol RouteInterceptor: Sendable {
            init(context: LifecycleContext)
        }
        """
)

/// Generates the manifest of target `M` from `files` (name → text, under `/p/M/`), with LifecycleRouting
/// as a dependency unless `routing` is false, and `dependencies`, each a module and its one file.
private func generate(
    _ files: [String: String],
    mode: ManifestGenerator.Mode = .library,
    routing: Bool = true,
    dependencies: [(module: String, file: SourceFile)] = []
) -> ManifestGenerator.Output {
    let own = files.map { SourceFile(path: "/p/M/\($0.key)", text: $0.value) }
    let all = (routing ? [("LifecycleRouting", routingFile)] : []) + dependencies
    return ManifestGenerator(
        module: "M",
        mode: mode,
        paths: own.map(\.path),
        dependencies: all.map { .init(module: $0.module, paths: [$0.file.path]) },
        locationComments: false
    ).generate(ParsedSources(own + all.map(\.file)))
}

/// The text of the generated function `name`, from its `private func` line to its closing brace.
private func function(_ name: String, in text: String) -> String? {
    guard let start = text.range(of: "private func \(name)() ") else { return nil }
    guard let end = text[start.lowerBound...].range(of: "\n}\n") else { return nil }
    return String(text[start.lowerBound..<end.upperBound])
}

/// The diagnostics of target `M` as `file:line: severity: message`.
private func diagnostics(_ files: [String: String]) -> [String] {
    generate(files).diagnostics.map(\.description)
}

@Suite("Scanner: routing in the manifest")
struct RoutingDiscoveryTests {
    @Test("Servers: modules adopting RouteServing, directly, in an extension, or through a refinement or typealias")
    func servers() {
        let output = generate([
            "A.swift": """
            protocol ReportServing: RouteServing {}
            typealias Serving = RouteServing & Sendable
            struct Reports: RouteServing, WillTerminate {}
            struct Plain: LifecycleModule {}
            struct Audit: LifecycleModule {}
            extension Audit: RouteServing {}
            struct Refined: ReportServing {}
            struct Aliased: LifecycleModule, Serving {}
            #if os(Linux)
            struct Metrics: LifecycleModule, RouteServing {}
            #endif
            """
        ])
        #expect(output.text.contains("public import LifecycleCore\nimport LifecycleRouting\n\n"))
        #expect(
            output.text.contains(
                "    ).withRouting(servers: _lifecycleRouteServers_M(), interceptors: _lifecycleRouteInterceptors_M())\n}\n"
            )
        )
        // Manifest order (an extension's conformance counts where it is declared), each under its conditions;
        // a module that serves nothing is not listed.
        #expect(
            function("_lifecycleRouteServers_M", in: output.text) == """
                private func _lifecycleRouteServers_M() -> [any RouteServing.Type] {
                    var servers: [any RouteServing.Type] = []
                    servers.append(Reports.self)
                    servers.append(Audit.self)
                    servers.append(Refined.self)
                    servers.append(Aliased.self)
                #if os(Linux)
                    servers.append(Metrics.self)
                #endif
                    return servers
                }

                """
        )
        // No interceptor: the list is a literal, so the user's build has no unused `var`.
        #expect(
            function("_lifecycleRouteInterceptors_M", in: output.text)
                == "private func _lifecycleRouteInterceptors_M() -> [any RouteInterceptor.Type] {\n    []\n}\n"
        )
        // Servers are modules, with their capability tables.
        #expect(output.text.contains("modules.append(DeclaredModule(Reports.self) { module, hooks in"))
        #expect(output.text.contains("modules.append(DeclaredModule(Audit.self) { _, _ in })"))
        #expect(output.diagnostics.isEmpty)
    }

    @Test("Interceptors: every nameable type adopting RouteInterceptor, also in an extension; none is a module")
    func interceptors() {
        let output = generate([
            "A.swift": """
            struct Maintenance: RouteInterceptor {}
            final class Audit: RouteInterceptor {}
            enum Gate {
                actor Limiter: RouteInterceptor {}
            }
            typealias Intercepting = RouteInterceptor & Sendable
            enum Aliased: Intercepting {}
            #if DEBUG
            struct Tracing: RouteInterceptor {}
            #endif
            struct NotAnInterceptor: Sendable {}
            """,
            "B.swift": """
            extension NotAnInterceptor {}
            struct Later {}
            extension Later: RouteInterceptor {}
            """,
        ])
        #expect(
            output.interceptors.map(\.description) == [
                "Maintenance", "Audit", "Gate.Limiter", "Aliased", "Tracing [#if DEBUG]", "Later",
            ]
        )
        #expect(output.interceptors.last?.file == "/p/M/B.swift")
        #expect(output.interceptors.last?.line == 3)
        #expect(
            function("_lifecycleRouteInterceptors_M", in: output.text) == """
                private func _lifecycleRouteInterceptors_M() -> [any RouteInterceptor.Type] {
                    var interceptors: [any RouteInterceptor.Type] = []
                    interceptors.append(Maintenance.self)
                    interceptors.append(Audit.self)
                    interceptors.append(Gate.Limiter.self)
                    interceptors.append(Aliased.self)
                #if DEBUG
                    interceptors.append(Tracing.self)
                #endif
                    interceptors.append(Later.self)
                    return interceptors
                }

                """
        )
        // Not modules: the module list is empty, and without servers the servers list is a literal.
        #expect(output.modules.isEmpty)
        #expect(output.text.contains("private func _lifecycleModules_M() -> [DeclaredModule] {\n    []\n}"))
        #expect(
            function("_lifecycleRouteServers_M", in: output.text)
                == "private func _lifecycleRouteServers_M() -> [any RouteServing.Type] {\n    []\n}\n"
        )
        #expect(output.text.contains(").withRouting(servers: _lifecycleRouteServers_M(), interceptors:"))
        #expect(output.diagnostics.isEmpty)
    }

    @Test("Interceptors the manifest cannot name are warnings, as for modules: generic, private, local")
    func unnameableInterceptors() {
        let output = generate([
            "A.swift": """
            struct Wrapper<Value: Sendable>: RouteInterceptor {}
            private struct Hidden: RouteInterceptor {}
            func make() {
                struct Local: RouteInterceptor {}
            }
            struct Fine: RouteInterceptor {}
            """
        ])
        #expect(output.interceptors.map(\.name) == ["Fine"])
        #expect(output.diagnostics.map(\.line) == [1, 2, 4])
        #expect(output.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(
            output.diagnostics.first?.description
                == "/p/M/A.swift:1: warning: `Wrapper` conforms to RouteInterceptor but cannot be registered: it is "
                + "generic, and a static manifest lists concrete types only; conform a non-generic type (for "
                + "example a subclass or a wrapper) instead"
        )
        #expect(output.diagnostics.dropFirst().first?.message.contains("private or fileprivate") == true)
        #expect(output.diagnostics.last?.message.contains("inside a function or closure") == true)
    }

    @Test("No .withRouting without servers or interceptors, without LifecycleRouting, or with a shadowing name")
    func noRouting() {
        let plain = generate(["A.swift": "struct P: LifecycleModule, WillTerminate {}"]).text
        #expect(!plain.contains("withRouting"))
        #expect(!plain.contains("LifecycleRouting"))
        #expect(!plain.contains("_lifecycleRoute"))
        // A target that does not link LifecycleRouting: its `RouteInterceptor` is someone else's.
        let unlinked = generate(["A.swift": "struct I: RouteInterceptor {}"], routing: false)
        #expect(unlinked.interceptors.isEmpty)
        #expect(!unlinked.text.contains("withRouting"))
        // A protocol of the target named like LifecycleRouting's: neither listed nor a server.
        let shadowed = generate([
            "A.swift": """
            protocol RouteInterceptor {}
            protocol RouteServing: LifecycleModule {}
            struct I: RouteInterceptor {}
            struct S: RouteServing {}
            """
        ])
        #expect(shadowed.interceptors.isEmpty)
        #expect(!shadowed.text.contains("withRouting"))
        #expect(shadowed.text.contains("modules.append(DeclaredModule(S.self))  // conformances read at run time"))
    }

    @Test("Routing follows the other roles: call order, imports, aggregates, conditional adoption")
    func conventions() {
        let servicesFile = SourceFile(
            path: "/p/LifecycleServices/S.swift",
            text: "public protocol ServiceProvidingModule: LifecycleModule {}"
        )
        let messagingFile = SourceFile(
            path: "/p/LifecycleMessaging/M.swift",
            text: "public protocol MessageReceiving: LifecycleModule {}"
        )
        let all = generate(
            ["A.swift": "struct Hub: ServiceProvidingModule, MessageReceiving, RouteServing {}"],
            dependencies: [("LifecycleServices", servicesFile), ("LifecycleMessaging", messagingFile)]
        )
        .text
        #expect(
            all.contains(
                "public import LifecycleCore\nimport LifecycleMessaging\nimport LifecycleRouting\nimport LifecycleServices\n"
            )
        )
        #expect(all.contains(".withMessages(receivers: _lifecycleMessageReceivers_M()).withRouting(servers: "))
        #expect(all.contains("    servers.append(Hub.self)\n"))
        // RouteServing adopted only under a condition the entry does not carry leaves the module to the
        // runtime; the extension's entry is listed under its condition.
        let conditional = generate([
            "A.swift": "struct S: LifecycleModule {}\n#if DEBUG\nextension S: RouteServing {}\n#endif"
        ])
        .text
        #expect(conditional.contains("    modules.append(DeclaredModule(S.self))  // conformances read at run time\n"))
        #expect(conditional.contains("#if DEBUG\n    servers.append(S.self)\n#endif\n"))
        // An aggregate lists its own; a dependency of interceptors only is included for its routing; a
        // dependency with neither modules nor interceptors is not; LifecycleRouting itself never is.
        let aggregate = generate(
            ["main.swift": "struct Host: RouteServing {}"],
            mode: .aggregate,
            dependencies: [
                ("Guards", SourceFile(path: "/p/Guards/G.swift", text: "struct Guard: RouteInterceptor {}")),
                ("Helpers", SourceFile(path: "/p/Helpers/H.swift", text: "struct Helper {}")),
            ]
        )
        .text
        #expect(aggregate.contains("import LifecycleCore\nimport LifecycleRouting\nimport Guards\n\n"))
        #expect(aggregate.contains("            .Guards,"))
        #expect(!aggregate.contains(".Helpers,"))
        #expect(!aggregate.contains(".LifecycleRouting"))
        #expect(aggregate.contains(#"sourceModules: ["M", "Guards", "Helpers"],"#))
        #expect(aggregate.contains("            ).withRouting(servers: _lifecycleRouteServers_M(), interceptors: "))
        #expect(aggregate.contains("    servers.append(Host.self)\n"))
        #expect(!aggregate.contains("interceptors.append(Guard.self)"))
    }
}

@Suite("Scanner: route pattern errors")
struct RoutePatternCheckTests {
    @Test("A pattern that cannot match is an error at its literal, with the grammar's reason")
    func invalidPattern() {
        let found = diagnostics([
            "Routes.swift": """
            struct Fine: Route {
                static let pattern: RoutePattern? = "app://reports/:day"
            }

            struct ShowReport: Route {
                static let pattern: RoutePattern? = "/reports/**/latest"
            }
            enum Users {
                struct Show: Route {
                    static let pattern: RoutePattern? =
                        "/users/:"
                }
            }
            """
        ])
        #expect(
            found == [
                "/p/M/Routes.swift:6: error: `ShowReport`'s route pattern \"/reports/**/latest\" has `**` before its "
                    + "last segment: `**` takes every remaining segment, so nothing after it can match; put `**` "
                    + "last. A host that serves it refuses to start (invalidRoute).",
                "/p/M/Routes.swift:11: error: `Users.Show`'s route pattern \"/users/:\" has a parameter without a "
                    + "name (`:`): name it, as in `:id`. A host that serves it refuses to start (invalidRoute).",
            ]
        )
    }

    @Test("Two routes whose patterns differ only in parameter names are an error at each, naming both")
    func duplicatePatterns() {
        let output = generate([
            "A.swift": """
            struct UserByID: Route {
                static let pattern: RoutePattern? = "/users/:id"
            }
            """,
            "B.swift": """
            struct UserByName {}

            extension UserByName: Route {
                static let pattern: RoutePattern? = RoutePattern("/users/:name")
            }
            """,
        ])
        let message =
            "routes `UserByID` (\"/users/:id\") and `UserByName` (\"/users/:name\") match the same inputs: a host "
            + "that serves both refuses to start (duplicateRoute). Change one pattern (parameter names do not "
            + "count), or serve both through one route."
        #expect(
            output.diagnostics.map(\.description) == [
                "/p/M/A.swift:2: error: \(message)", "/p/M/B.swift:4: error: \(message)",
            ]
        )
        #expect(output.diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test("A pattern declared `RoutePattern`, not `RoutePattern?`, is an error: Swift would ignore it")
    func nonOptionalPattern() {
        let found = diagnostics([
            "Routes.swift": """
            struct Plain: Route {
                static let pattern: RoutePattern = "/plain"
            }
            struct Built: Route {
                static let pattern = RoutePattern("/built")
            }
            struct Fine: Route {
                static let pattern: Optional<RoutePattern> = "/fine"
            }
            """
        ])
        #expect(
            found == [
                "/p/M/Routes.swift:2: error: `Plain`'s pattern is declared `RoutePattern`, but `Route` requires "
                    + "`RoutePattern?`: Swift takes it for another property, and the route has no pattern. Write "
                    + "`static let pattern: RoutePattern? = \"/plain\"`.",
                "/p/M/Routes.swift:5: error: `Built`'s pattern is declared `RoutePattern`, but `Route` requires "
                    + "`RoutePattern?`: Swift takes it for another property, and the route has no pattern. Write "
                    + "`static let pattern: RoutePattern? = \"/built\"`.",
            ]
        )
    }

    @Test("No error for distinct valid patterns, whatever their form, or for what is not a literal route pattern")
    func noFalsePositives() {
        let found = diagnostics([
            "A.swift": #"""
            protocol AppRoute: Route {}
            typealias Routable = Route & Sendable
            struct Root: Route { static let pattern: RoutePattern? = "/" }
            struct UserList: AppRoute { static let pattern: RoutePattern? = "/users" }
            struct User: Routable { static let pattern: RoutePattern? = "/users/:id" }
            struct UserPosts: Route { static let pattern: RoutePattern? = "/users/:id/posts" }
            struct AnyFile: Route { static let pattern: RoutePattern? = "/files/**" }
            struct OneFile: Route { static let pattern: RoutePattern? = "/files/*" }
            struct AppUser: Route { static let pattern: RoutePattern? = "app://users/:id" }
            struct Escaped: Route { static var pattern: RoutePattern? = "/caf\u{E9}/menu" }
            struct Raw: Route { static let pattern: LifecycleRouting.RoutePattern? = #"/raw/:id"# }
            struct Plain: Route {}
            // Not literals: left to the host's checks.
            struct Built: Route { static let pattern: RoutePattern? = RoutePattern(prefix + "/users/:id") }
            struct Computed: Route { static var pattern: RoutePattern? { "/users/:id" } }
            struct Concatenated: Route { static let pattern: RoutePattern? = "/users/:id" + "" }
            struct Interpolated: Route { static let pattern: RoutePattern? = "/users/\(name)" }
            struct Unnamed: Route { static let pattern: RoutePattern? = nil }
            // Not route patterns: a string, an instance property, a type that is not a route.
            struct Text: Route { static let pattern = "/users/:id"; let other = "/users/:" }
            struct Instance: Route { let pattern: RoutePattern? = "/users/:id" }
            struct NotARoute { static let pattern: RoutePattern? = "/users/:id" }
            struct NotARouteEither { static let pattern: RoutePattern? = "/a/**/b" }
            """#
        ])
        #expect(found == [])
    }

    @Test("Patterns under different #if conditions are not compared; under the same ones they are")
    func conditions() {
        let found = diagnostics([
            "A.swift": """
            #if os(Linux)
            struct LinuxStatus: Route { static let pattern: RoutePattern? = "/status" }
            #else
            struct OtherStatus: Route { static let pattern: RoutePattern? = "/status" }
            #endif
            #if DEBUG
            struct DebugA: Route { static let pattern: RoutePattern? = "/debug/:a" }
            struct DebugB: Route { static let pattern: RoutePattern? = "/debug/:b" }
            struct Broken: Route { static let pattern: RoutePattern? = "debug" }
            #endif
            """
        ])
        #expect(
            found.map { $0.components(separatedBy: " error: ").first ?? "" } == [
                "/p/M/A.swift:7:", "/p/M/A.swift:8:", "/p/M/A.swift:9:",
            ]
        )
        #expect(found.first?.contains("routes `DebugA` (\"/debug/:a\") and `DebugB` (\"/debug/:b\")") == true)
        #expect(found.last?.contains("`Broken`'s route pattern \"debug\" does not start with `/` or a scheme") == true)
    }

    @Test("Three routes of one shape are named together; a target without LifecycleRouting is not checked")
    func threeAndUnlinked() {
        let files = [
            "A.swift": """
            struct A: Route { static let pattern: RoutePattern? = "/items/:a" }
            struct B: Route { static let pattern: RoutePattern? = "/items/:b" }
            struct C: Route { static let pattern: RoutePattern? = "/items/:c" }
            """
        ]
        let found = diagnostics(files)
        #expect(found.count == 3)
        #expect(
            found.allSatisfy {
                $0.contains("routes `A` (\"/items/:a\"), `B` (\"/items/:b\") and `C` (\"/items/:c\") match")
            }
        )
        #expect(generate(files, routing: false).diagnostics.isEmpty)
        // A target's own `Route` is not LifecycleRouting's.
        let shadowed = files.merging(["B.swift": "protocol Route {}"]) { first, _ in first }
        #expect(diagnostics(shadowed).isEmpty)
    }
}

@Suite("Scanner: string literal values")
struct LiteralValueTests {
    @Test("Single-line literals keep their value, escapes decoded; other literals have none")
    func values() {
        let tokens = Lexer.tokenize(
            #"""
            a = "/plain/:id"
            b = "caf\u{E9} \"q\" \\ \t"
            c = #"raw \n "quoted""#
            d = "x\(y)"
            e = """
                multi
                """
            f = "\q"
            """#
        )
        var values: [String?] = []
        for token in tokens {
            if case .literal(let value) = token.kind { values.append(value) }
        }
        #expect(values == ["/plain/:id", "café \"q\" \\ \t", #"raw \n "quoted""#, nil, nil, nil])
    }
}
