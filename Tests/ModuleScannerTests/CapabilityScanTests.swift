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

/// The role protocols, as LifecycleServices and LifecycleMessaging declare them.
private let serviceRoleFile = SourceFile(
    path: "/p/S/S.swift",
    text: "public protocol ServiceProvidingModule: LifecycleModule {}\n"
        + "public protocol ServiceRequiringModule: LifecycleModule {}"
)
private let messagingRoleFile = SourceFile(
    path: "/p/Messaging/MessageReceiving.swift",
    text: "public protocol MessageReceiving: LifecycleModule {\n"
        + "    static func receiveMessages(_ handlers: inout MessageHandlers<Self>)\n}"
)

private let workRoleFile = SourceFile(
    path: "/p/Work/WorkingModule.swift",
    text: "public protocol WorkingModule: LifecycleModule {\n"
        + "    static func declareWork(_ work: inout WorkList<Self>)\n}"
)

/// Generates the manifest of target `module`, whose one file `/p/<module>/A.swift` holds `text`, with
/// `dependencies`, each a module and its one file.
private func generated(
    _ text: String,
    module: String = "M",
    mode: ManifestGenerator.Mode = .library,
    dependencies: [(module: String, file: SourceFile)]
) -> ManifestGenerator.Output {
    let own = "/p/\(module)/A.swift"
    return ManifestGenerator(
        module: module,
        mode: mode,
        paths: [own],
        dependencies: dependencies.map { .init(module: $0.module, paths: [$0.file.path]) },
        locationComments: false
    ).generate(ParsedSources([SourceFile(path: own, text: text)] + dependencies.map(\.file)))
}

/// Generates the manifest of target `M` (one file), with LifecycleServices and LifecycleMessaging, which
/// declare the role protocols, as dependencies.
private func receiverManifest(_ text: String, mode: ManifestGenerator.Mode = .library) -> String {
    generated(
        text,
        mode: mode,
        dependencies: [("LifecycleServices", serviceRoleFile), ("LifecycleMessaging", messagingRoleFile)]
    ).text
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
            generated(text, dependencies: [("LifecycleServices", serviceRoleFile)]).text
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

    @Test("Working modules: the manifest lists them for withWork, and imports LifecycleWork")
    func workingModules() {
        let text = generated(
            """
            struct Consumer: WorkingModule, WillTerminate {}
            struct Plain: LifecycleModule {}
            struct Listener: LifecycleModule {}
            extension Listener: WorkingModule {}
            """,
            dependencies: [("LifecycleWork", workRoleFile)]
        ).text
        #expect(text.contains("public import LifecycleCore\nimport LifecycleWork\n\n"))
        #expect(text.contains("    ).withWork(workers: _lifecycleWorkWorkers_M())\n}\n"))
        #expect(
            text.hasSuffix(
                """

                private func _lifecycleWorkWorkers_M() -> [any WorkingModule.Type] {
                    var workers: [any WorkingModule.Type] = []
                    workers.append(Consumer.self)
                    workers.append(Listener.self)
                    return workers
                }

                """
            )
        )
        // A protocol named WorkingModule declared elsewhere is someone else's: nothing is listed for it.
        let shadowed = generated(
            "protocol WorkingModule: LifecycleModule {}\nstruct C: WorkingModule {}",
            dependencies: []
        )
        #expect(!shadowed.text.contains("withWork"))
    }

    @Test("Message receivers: the manifest lists them for withMessages, and imports LifecycleMessaging")
    func messageReceivers() {
        let text = receiverManifest(
            """
            struct Pricing: MessageReceiving, WillTerminate {}
            struct Plain: LifecycleModule {}
            struct Audit: LifecycleModule {}
            extension Audit: MessageReceiving {}
            #if os(Linux)
            struct Metrics: LifecycleModule, MessageReceiving {}
            #endif
            """
        )
        #expect(text.contains("public import LifecycleCore\nimport LifecycleMessaging\n\n"))
        #expect(text.contains("    ).withMessages(receivers: _lifecycleMessageReceivers_M())\n}\n"))
        // In manifest order (file, then line: an extension's conformance counts where it is declared),
        // under each module's own condition; a module that receives nothing is not listed.
        #expect(
            text.hasSuffix(
                """

                private func _lifecycleMessageReceivers_M() -> [any MessageReceiving.Type] {
                    var receivers: [any MessageReceiving.Type] = []
                    receivers.append(Pricing.self)
                    receivers.append(Audit.self)
                #if os(Linux)
                    receivers.append(Metrics.self)
                #endif
                    return receivers
                }

                """
            )
        )
        #expect(!text.contains("receivers.append(Plain.self)"))
        // The role is part of the capability table's reading: the module keeps its table.
        #expect(text.contains("modules.append(DeclaredModule(Pricing.self) { module, hooks in"))
        #expect(text.contains("modules.append(DeclaredModule(Audit.self) { _, _ in })"))
    }

    @Test("Without receivers the manifest has no withMessages and no LifecycleMessaging import")
    func noMessageReceivers() {
        let text = receiverManifest("struct P: LifecycleModule, WillTerminate {}\nextension P: DidBecomeActive {}")
        #expect(!text.contains("withMessages"))
        #expect(!text.contains("LifecycleMessaging"))
        #expect(!text.contains("_lifecycleMessage"))
        // Also without services: the header is the plain one.
        #expect(text.contains("public import LifecycleCore\n\nextension ModuleManifest {"))
    }

    @Test("Message roles follow the service roles: #if, both roles, aggregates, shadows")
    func messageReceiverConventions() {
        // An extension under #if that adds the role is a conformance of its own, as for a service role:
        // the unconditional entry goes to the runtime, and the extension's entry is listed under its condition.
        let conditional = receiverManifest(
            "struct M: LifecycleModule {}\n#if DEBUG\nextension M: MessageReceiving {}\n#endif"
        )
        #expect(conditional.contains("    modules.append(DeclaredModule(M.self))  // conformances read at run time\n"))
        #expect(conditional.contains("#if DEBUG\n    receivers.append(M.self)\n#endif\n"))
        #expect(conditional.contains("    ).withMessages(receivers: _lifecycleMessageReceivers_M())\n"))
        let conditionalService = receiverManifest(
            "struct M: LifecycleModule {}\n#if DEBUG\nextension M: ServiceProvidingModule {}\n#endif"
        )
        #expect(
            conditionalService.contains(
                "    modules.append(DeclaredModule(M.self))  // conformances read at run time\n"
            )
        )
        #expect(conditionalService.contains("#if DEBUG\n    providers.append(M.self)\n#endif\n"))
        // A role adopted under a condition the entry does not carry (here through a superclass's extension)
        // leaves the module to the runtime, and it is not listed.
        let inherited = receiverManifest(
            "class Base: LifecycleModule {}\n#if DEBUG\nextension Base: MessageReceiving {}\n#endif\n"
                + "final class Child: Base {}"
        )
        #expect(
            inherited.contains("    modules.append(DeclaredModule(Child.self))  // conformances read at run time\n")
        )
        #expect(!inherited.contains("receivers.append(Child.self)"))
        // Services and messages together: both lists, both imports, services first.
        let both = receiverManifest("struct Cache: LifecycleModule, ServiceProvidingModule, MessageReceiving {}")
        #expect(both.contains("public import LifecycleCore\nimport LifecycleMessaging\nimport LifecycleServices\n"))
        #expect(
            both.contains(
                "    ).withServices(providers: _lifecycleServiceProviders_M(), requirers: _lifecycleServiceRequirers_M())"
                    + ".withMessages(receivers: _lifecycleMessageReceivers_M())\n"
            )
        )
        #expect(both.contains("    providers.append(Cache.self)\n"))
        #expect(both.contains("    receivers.append(Cache.self)\n"))
        // An aggregate lists its own receivers; LifecycleMessaging itself is never discovered or checked.
        let aggregate = receiverManifest("struct Host: MessageReceiving {}", mode: .aggregate)
        #expect(aggregate.contains("import LifecycleCore\nimport LifecycleMessaging\n\n"))
        #expect(aggregate.contains(#"sourceModules: ["M"],"#))
        #expect(aggregate.contains("            ).withMessages(receivers: _lifecycleMessageReceivers_M()),\n"))
        #expect(aggregate.contains("    receivers.append(Host.self)\n"))
        #expect(!aggregate.contains(".LifecycleMessaging"))
        // A protocol of the target named like the role is not LifecycleMessaging's: the runtime decides.
        let shadowed = receiverManifest(
            "protocol MessageReceiving: LifecycleModule {}\nstruct R: LifecycleModule, MessageReceiving {}"
        )
        #expect(shadowed.contains("modules.append(DeclaredModule(R.self))  // conformances read at run time"))
        #expect(!shadowed.contains("withMessages"))
    }

    @Test("An executable's or a test's plugin warns at the declaration about a missing or a duplicate provider")
    func serviceWarnings() {
        func warnings(_ own: String, dependency: String) -> [String] {
            generated(
                own,
                module: "App",
                mode: .aggregate,
                dependencies: [
                    ("LifecycleServices", serviceRoleFile),
                    ("Feature", SourceFile(path: "/p/Feature/F.swift", text: dependency)),
                ]
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
        // The fix as the code must spell it: a protocol with `any` (ExistentialAny), a concrete type without.
        #expect(missing.first?.contains("$0.replace((any Database).self) { … }") == true)
        #expect(missing.last?.contains("$0.replace(Clock.self) { … }") == true)
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
