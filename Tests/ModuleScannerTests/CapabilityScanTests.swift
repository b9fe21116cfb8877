import Foundation
import Testing

@testable import ModuleScanner

/// The capabilities of each module, as "Name: Cap1, Cap2 [#if C]", or "Name: runtime" when the scanner
/// leaves them to the runtime.
private func capabilities(_ files: [String: String], context: [String: String] = [:]) -> [String] {
    scan(files, context: context).modules.map { module in
        guard let capabilities = module.capabilities else { return "\(module.name): runtime" }
        return "\(module.name): " + capabilities.map(\.description).joined(separator: ", ")
    }
}

/// Generates a library manifest for one file and returns the statement that lists its first module.
private func generated(_ text: String, context: [String: String] = [:]) -> String {
    var files = [SourceFile(path: "/p/M/A.swift", text: text)]
    files += context.map { SourceFile(path: $0.key, text: $0.value) }
    let output = ManifestGenerator(
        module: "M",
        mode: .library,
        paths: ["/p/M/A.swift"],
        dependencies: context.isEmpty ? [] : [.init(module: "LifecycleCore", paths: Array(context.keys))],
        locationComments: false
    ).generate(ParsedSources(files))
    let body = output.text.components(separatedBy: "var modules: [DeclaredModule] = []\n").last ?? ""
    return body.components(separatedBy: "    return modules").first ?? ""
}

@Suite("Scanner: capability tables")
struct CapabilityScanTests {
    @Test("Capabilities adopted directly, through refined protocols, typealiases and extensions")
    func routes() {
        let found = capabilities(
            [
                "A.swift": """
                protocol ServerModule: LifecycleModule, DidBecomeActive {}
                typealias Lifecycle = WillTerminate & SyncDidEnterBackground
                struct Direct: LifecycleModule, WarmUpStage {}
                struct Refined: ServerModule {}
                struct Aliased: LifecycleModule, Lifecycle {}
                struct Extended: LifecycleModule {}
                extension Extended: SyncOpenURL, DependentModule {}
                """
            ]
        )
        #expect(
            found == [
                "Direct: WarmUpStage", "Refined: DidBecomeActive", "Aliased: SyncDidEnterBackground, WillTerminate",
                "Extended: DependentModule, SyncOpenURL",
            ]
        )
    }

    @Test("A subclass has its superclass's capabilities, also those an extension adds in a dependency")
    func superclasses() {
        let found = capabilities(
            ["Own.swift": "final class Child: Base, WillResignActive {}"],
            context: ["Dep.swift": "open class Base: LifecycleModule {}\nextension Base: SyncWillTerminate {}"]
        )
        #expect(found == ["Child: SyncWillTerminate, WillResignActive"])
    }

    @Test("An extension under #if adopts its capability under that condition")
    func conditional() {
        let found = capabilities([
            "A.swift": "struct M: LifecycleModule {}\n#if DEBUG\nextension M: DidBecomeActive {}\n#endif"
        ])
        #expect(found == ["M: DidBecomeActive [#if DEBUG]"])
    }

    @Test("A protocol the scanner cannot see into, or a shadowed capability name, leaves a module to the runtime")
    func unknown() {
        #expect(capabilities(["A.swift": "struct M: LifecycleModule, Service {}"]) == ["M: runtime"])
        #expect(capabilities(["A.swift": "struct M: LifecycleModule, Hashable, Sendable {}"]) == ["M: "])
        #expect(
            capabilities(["A.swift": "protocol DidBecomeActive {}\nstruct M: LifecycleModule, DidBecomeActive {}"])
                == ["M: runtime"]
        )
        // LifecycleCore's own declarations of the protocols are not shadows.
        let core = generated(
            "struct M: LifecycleModule, DidBecomeActive {}",
            context: ["/core/Hooks.swift": "public protocol DidBecomeActive: Sendable {}"]
        )
        #expect(core.contains("hooks.didBecomeActive(module)"))
    }

    @Test("The generated table hands the module as its own type to each capability, sync where adopted")
    func generatedTable() {
        let text = generated(
            """
            struct Pool: LifecycleModule, DependentModule, WarmUpStage, SyncWillTerminate, CustomEventHandling {}
            """
        )
        #expect(
            text == """
                    modules.append(DeclaredModule(Pool.self, dependent: Pool.self) { module, hooks in
                        let module = module as! Pool
                        hooks.warmUp(module)
                        hooks.willTerminate(sync: module)
                        hooks.customEvents(module)
                    })

                """
        )
    }

    @Test(
        "Conditional forms: sync under #if falls back to async otherwise; a conditional type-level capability goes to the runtime"
    )
    func generatedConditions() {
        let text = generated(
            "struct M: LifecycleModule, DidBecomeActive {}\n#if FAST\nextension M: SyncDidBecomeActive {}\n#endif"
        )
        #expect(
            text.contains(
                "#if FAST\n        hooks.didBecomeActive(sync: module)\n#else\n        hooks.didBecomeActive(module)\n#endif"
            )
        )
        let typeLevel = generated("struct M: LifecycleModule {}\n#if DEBUG\nextension M: TimeBudgetedModule {}\n#endif")
        #expect(typeLevel == "    modules.append(DeclaredModule(M.self))  // conformances read at run time\n")
    }

    @Test("Service roles: the manifest lists providers and requirers for withServices, and imports LifecycleServices")
    func serviceRoles() {
        func manifest(_ text: String) -> String {
            ManifestGenerator(
                module: "M",
                mode: .library,
                paths: ["/p/M/A.swift"],
                dependencies: [.init(module: "LifecycleServices", paths: ["/p/S/S.swift"])],
                locationComments: false
            ).generate(
                ParsedSources([
                    SourceFile(path: "/p/M/A.swift", text: text),
                    SourceFile(
                        path: "/p/S/S.swift",
                        text: "public protocol ServiceProvidingModule: LifecycleModule {}\n"
                            + "public protocol ServiceRequiringModule: LifecycleModule {}"
                    ),
                ])
            ).text
        }
        let text = manifest(
            """
            struct Pool: LifecycleModule, ServiceProvidingModule, WillTerminate {}
            struct Cache: LifecycleModule, ServiceRequiringModule, ServiceProvidingModule {}
            #if os(Linux)
            struct Metrics: LifecycleModule, ServiceRequiringModule {}
            #endif
            struct Plain: LifecycleModule {}
            """
        )
        #expect(text.contains("public import LifecycleCore\nimport LifecycleServices\n"))
        #expect(
            text.contains(
                "    )"
                    + ".withServices(providers: _lifecycleServiceProviders_M(), requirers: _lifecycleServiceRequirers_M())\n"
            )
        )
        #expect(
            text.contains(
                """
                private func _lifecycleServiceProviders_M() -> [any ServiceProvidingModule.Type] {
                    var providers: [any ServiceProvidingModule.Type] = []
                    providers.append(Pool.self)
                    providers.append(Cache.self)
                    return providers
                }
                """
            )
        )
        #expect(
            text.contains(
                """
                    var requirers: [any ServiceRequiringModule.Type] = []
                    requirers.append(Cache.self)
                #if os(Linux)
                    requirers.append(Metrics.self)
                #endif
                    return requirers
                """
            )
        )
        // A list with no module is a literal: a `var` never appended to would warn in the user's build.
        #expect(
            manifest("struct OnlyProvider: LifecycleModule, ServiceProvidingModule {}")
                .contains("-> [any ServiceRequiringModule.Type] {\n    []\n}")
        )
        // Without service roles the manifest is unchanged.
        #expect(!manifest("struct P: LifecycleModule {}").contains("LifecycleServices"))
    }

    @Test("An executable's or a test's plugin warns at the declaration about a missing or a duplicate provider")
    func serviceWarnings() {
        let roles = SourceFile(
            path: "/p/S/S.swift",
            text: "public protocol ServiceProvidingModule: LifecycleModule {}\n"
                + "public protocol ServiceRequiringModule: LifecycleModule {}"
        )
        func warnings(_ own: String, dependency: String) -> [String] {
            ManifestGenerator(
                module: "App",
                mode: .aggregate,
                paths: ["/p/App/A.swift"],
                dependencies: [
                    .init(module: "LifecycleServices", paths: ["/p/S/S.swift"]),
                    .init(module: "Feature", paths: ["/p/Feature/F.swift"]),
                ],
                locationComments: false
            ).generate(
                ParsedSources([
                    SourceFile(path: "/p/App/A.swift", text: own),
                    SourceFile(path: "/p/Feature/F.swift", text: dependency),
                    roles,
                ])
            ).diagnostics.map(\.description)
        }
        let requirer = """
            struct Cache: LifecycleModule, ServiceRequiringModule {
                static let requiredServices = ServiceRequirements((any Database).self, Clock.self)
            }
            """
        let provider = """
            public struct Pool: LifecycleModule, ServiceProvidingModule {
                public static func provideServices(_ services: inout ServiceProvisions) {
                    services.singleton((any Database).self) { _ in Postgres() }
                }
                class func helper() {}
            }
            extension Pool {
                static func more(_ services: inout ServiceProvisions) { services.transient(Clock.self) { _ in Clock() } }
            }
            """
        // Provided by a linked target, one through an extension: nothing to say.
        #expect(warnings(requirer, dependency: provider) == [])
        // Missing: a warning at the requirement, naming the module, the service and the fix.
        let missing = warnings(requirer, dependency: "struct Other: LifecycleModule {}")
        #expect(missing.count == 2)
        #expect(
            missing.first?.hasPrefix(
                "/p/App/A.swift:2: warning: `Cache` requires service `Database`, which no module linked into `App` provides"
            ) == true
        )
        #expect(missing.first?.contains("replace(Database.self)") == true)
        // Duplicate: a warning at each provision.
        let duplicate = warnings(
            provider.replacingOccurrences(of: "public struct Pool", with: "struct Own"),
            dependency: provider
        )
        .filter { $0.contains("Database") }
        #expect(duplicate.count == 2)
        #expect(duplicate.allSatisfy { $0.contains("is provided by `") && $0.contains("duplicateServiceProvider") })
        // A type that is not a module says nothing, whatever it mentions.
        #expect(warnings("struct Helper { let r = ServiceRequirements(Missing.self) }", dependency: "") == [])
    }
}
