import Testing

@testable import ModuleScanner

/// Scans `files` as one module, with `context` files as its dependencies.
func scan(
    _ files: [String: String],
    context: [String: String] = [:]
) -> (names: [String], modules: [DiscoveredModule], warnings: [ScanDiagnostic]) {
    let all = (files.merging(context) { own, _ in own }).map { SourceFile(path: $0.key, text: $0.value) }
    let result = ModuleScan.scan(ParsedSources(all), modulePaths: Array(files.keys), contextPaths: Array(context.keys))
    return (result.modules.map(\.name), result.modules, result.diagnostics)
}

@Suite("Scanner: what it finds")
struct ScannerFindsTests {
    @Test("A conformance declared in an extension in another file")
    func extensionInAnotherFile() {
        let result = scan([
            "A.swift": "struct Cache { let size = 1 }",
            "B.swift": "extension Cache: LifecycleModule {\n  static let priority: ModulePriority = .normal\n}",
        ])
        #expect(result.names == ["Cache"])
        #expect(result.modules.first?.file == "B.swift")
    }

    @Test("Conformance through a refined protocol, declared in this module or a dependency")
    func refinedProtocols() {
        let result = scan(
            [
                "Own.swift":
                    "protocol LocalFeature: FeatureModule {}\nstruct A: FeatureModule {}\nstruct B: LocalFeature {}"
            ],
            context: ["Dep.swift": "public protocol FeatureModule: Sendable, LifecycleCore.LifecycleModule {}"]
        )
        #expect(result.names == ["A", "B"])
    }

    @Test("Subclasses of a conforming class, also when the base class lives in a dependency")
    func subclasses() {
        let result = scan(
            ["Own.swift": "final class Leaf: Middle {}\nclass Middle: BaseModule {}\nclass Unrelated: NSObject {}"],
            context: [
                "Dep.swift":
                    "open class BaseModule: LifecycleModule { public required init(context: LifecycleContext) {} }"
            ]
        )
        #expect(result.names == ["Leaf", "Middle"])
    }

    @Test("Conformance through a typealias of the protocol, or of a composition that includes it")
    func typealiases() {
        let result = scan([
            "A.swift": """
            typealias Module = LifecycleModule & Sendable
            typealias Plain = LifecycleModule
            struct A: Module {}
            struct B: Plain {}
            typealias Unrelated = Hashable & Sendable
            struct C: Unrelated {}
            """
        ])
        #expect(result.names == ["A", "B"])
    }

    @Test("Nested types, in a type body and in an extension of the outer type")
    func nestedTypes() {
        let result = scan([
            "A.swift": """
            enum Features {
                struct Search: LifecycleModule {}
                enum Deeper { actor Index: LifecycleModule {} }
            }
            extension Features {
                final class Billing: LifecycleModule {}
            }
            extension Features.Search {
                struct Inner: LifecycleModule {}
            }
            """
        ])
        #expect(
            result.names == ["Features.Search", "Features.Deeper.Index", "Features.Billing", "Features.Search.Inner"]
        )
    }

    @Test("Conformances inside #if, #elseif and #else carry their conditions, nested ones combined")
    func conditionalCompilation() {
        let result = scan([
            "A.swift": """
            #if DEBUG
            struct DebugTools: LifecycleModule {}
            #if os(Linux)
            struct LinuxDebug: LifecycleModule {}
            #endif
            #elseif canImport(Metrics) // a comment after the condition
            struct Metrics: LifecycleModule {}
            #else
            struct Fallback: LifecycleModule {}
            #endif
            struct Always: LifecycleModule {}
            """
        ])
        let conditions = Dictionary(uniqueKeysWithValues: result.modules.map { ($0.name, $0.conditions) })
        #expect(conditions["DebugTools"] == ["DEBUG"])
        #expect(conditions["LinuxDebug"] == ["DEBUG", "os(Linux)"])
        #expect(conditions["Metrics"] == ["!(DEBUG) && canImport(Metrics)"])
        #expect(conditions["Fallback"] == ["!(DEBUG) && !(canImport(Metrics))"])
        #expect(conditions["Always"] == [])
    }

    @Test("Module-qualified names, attributes and suppressions in the inheritance list")
    func inheritanceListSyntax() {
        let result = scan([
            "A.swift": """
            struct A: @unchecked Sendable, LifecycleCore.LifecycleModule {}
            struct B: ~Copyable, @retroactive LifecycleModule where Self: Sendable {}
            public final class C: LifecycleModule, @unchecked Sendable {}
            """
        ])
        #expect(result.names == ["A", "B", "C"])
    }

    @Test("A conformance added to another module's type is registered as written")
    func retroactiveConformance() {
        let result = scan(["A.swift": "extension OtherModule.Legacy: LifecycleModule {}"])
        #expect(result.names == ["OtherModule.Legacy"])
    }
}

@Suite("Scanner: what it ignores and warns about")
struct ScannerIgnoresTests {
    @Test("Comments are ignored, including nested block comments")
    func comments() {
        let result = scan([
            "A.swift": """
            // struct LineComment: LifecycleModule {}
            /* struct Block: LifecycleModule {}
               /* nested */ struct StillComment: LifecycleModule {}
            */
            /// struct DocComment: LifecycleModule {}
            struct Real: LifecycleModule {}
            """
        ])
        #expect(result.names == ["Real"])
    }

    @Test("Strings are ignored: plain, multi-line, raw, and interpolations holding quotes and braces")
    func strings() {
        let result = scan([
            "A.swift": #"""
            let a = "struct InString: LifecycleModule {}"
            let b = """
                struct InMultiline: LifecycleModule {
                """
            let c = #"struct InRaw: LifecycleModule { "quoted" }"#
            let d = "\(["}", "struct InInterpolation: LifecycleModule {"].count) }"
            let e = ##"a "# struct StillRaw: LifecycleModule {"##
            struct Real: LifecycleModule {}
            """#
        ])
        #expect(result.names == ["Real"])
    }

    @Test("Function-local types are not registered, and are reported with file:line and the reason")
    func localTypes() {
        let result = scan([
            "A.swift": """
            struct Outer: LifecycleModule {
                func make() {
                    struct Local: LifecycleModule {}
                }
                var computed: Int {
                    enum AlsoLocal: LifecycleModule {}
                    return 1
                }
            }
            let closure = { final class InClosure: LifecycleModule {} }
            """
        ])
        #expect(result.names == ["Outer"])
        #expect(result.warnings.map(\.line) == [3, 6, 10])
        #expect(result.warnings.allSatisfy { $0.message.contains("inside a function or closure") })
        #expect(
            result.warnings.first?.description.hasPrefix("A.swift:3: warning: `Local` conforms to LifecycleModule")
                == true
        )
    }

    @Test("Generic conformers, and types nested in generic types, are reported, not registered")
    func genericTypes() {
        let result = scan([
            "G.swift": """
            struct Box<Value: Sendable>: LifecycleModule {}
            struct Holder<T> {
                struct Inner: LifecycleModule {}
            }
            struct Concrete: LifecycleModule {}
            """
        ])
        #expect(result.names == ["Concrete"])
        #expect(result.warnings.map(\.line) == [1, 3])
        #expect(result.warnings.allSatisfy { $0.message.contains("is generic") })
    }

    @Test("Private and fileprivate conformers, and types inside private types, are reported, not registered")
    func privateTypes() {
        let result = scan([
            "P.swift": """
            private struct Hidden: LifecycleModule {}
            fileprivate final class AlsoHidden: LifecycleModule {}
            private enum Namespace {
                struct Inside: LifecycleModule {}
            }
            struct Visible: LifecycleModule {
                private(set) var count = 0
            }
            public struct Open: LifecycleModule {}
            """
        ])
        #expect(result.names == ["Visible", "Open"])
        #expect(result.warnings.map(\.line) == [1, 2, 4])
        #expect(result.warnings.allSatisfy { $0.message.contains("private or fileprivate") })
    }

    @Test("Keywords used as modifiers or names do not start declarations")
    func keywordLookalikes() {
        let result = scan([
            "K.swift": """
            class Base: LifecycleModule {
                class func make() -> Base { Base() }
                class var shared: Int { 1 }
            }
            let actor = 1
            let value = Kind.enum
            protocol Legacy: class {}
            struct NotAModule: Hashable {}
            """
        ])
        #expect(result.names == ["Base"])
        #expect(result.warnings.isEmpty)
    }
}

@Suite("Generator")
struct GeneratorTests {
    static let sources = ParsedSources([
        SourceFile(
            path: "/p/Feature/A.swift",
            text: "struct Search: LifecycleModule {}\n#if DEBUG\nstruct Debug: LifecycleModule {}\n#endif"
        ),
        SourceFile(path: "/p/Zeta/Z.swift", text: "struct Z: LifecycleModule {}"),
        SourceFile(path: "/p/Alpha/Y.swift", text: "struct Y: LifecycleModule {}"),
        SourceFile(path: "/p/Empty/E.swift", text: "struct NotAModule {}"),
        SourceFile(path: "/p/App/main.swift", text: "struct AppModule: LifecycleModule {}"),
    ])

    @Test("A library manifest is public, lists own modules in source order and keeps #if conditions")
    func libraryManifest() {
        let output = ManifestGenerator(
            module: "Feature",
            mode: .library,
            paths: ["/p/Feature/A.swift"],
            dependencies: []
        ).generate(Self.sources)
        #expect(
            output.text == """
                // Generated by ModuleDiscoveryPlugin from the sources of `Feature`. Do not edit.

                public import LifecycleCore

                extension ModuleManifest {
                    /// The modules declared in `Feature`, in source order (file path, then line).
                    public static let Feature = ModuleManifest(
                        name: "Feature",
                        sourceModules: ["Feature"],
                        declared: _lifecycleModules_Feature()
                    )
                }

                private func _lifecycleModules_Feature() -> [DeclaredModule] {
                    var modules: [DeclaredModule] = []
                    modules.append(DeclaredModule(Search.self) { _, _ in })  // A.swift:1
                #if DEBUG
                    modules.append(DeclaredModule(Debug.self) { _, _ in })  // A.swift:3
                #endif
                    return modules
                }

                """
        )
    }

    @Test("An aggregate manifest combines dependencies with modules, sorted by module name, then its own")
    func aggregateManifest() {
        let output = ManifestGenerator(
            module: "App",
            mode: .aggregate,
            paths: ["/p/App/main.swift"],
            dependencies: [
                .init(module: "Zeta", paths: ["/p/Zeta/Z.swift"]),
                .init(module: "Empty", paths: ["/p/Empty/E.swift"]),
                .init(module: "Alpha", paths: ["/p/Alpha/Y.swift"]),
            ]
        ).generate(Self.sources)
        #expect(output.includedDependencies == ["Alpha", "Zeta"])
        #expect(output.text.contains("import Alpha\nimport Zeta\n"))
        #expect(!output.text.contains("import Empty") && !output.text.contains(".Empty,"))
        // The completeness check's scope covers every dependency, also those the scanner found empty.
        #expect(output.text.contains(#"sourceModules: ["App", "Alpha", "Empty", "Zeta"]"#))
        #expect(output.text.contains("            .Alpha,"))
        #expect(output.text.contains("modules.append(DeclaredModule(AppModule.self)"))
        #expect(output.text.contains("    static let discovered = ModuleManifest("))
    }

    @Test("Generation is deterministic: the same sources in any order give the same text")
    func deterministic() {
        let forward = ManifestGenerator(
            module: "App",
            mode: .aggregate,
            paths: ["/p/App/main.swift"],
            dependencies: [
                .init(module: "Zeta", paths: ["/p/Zeta/Z.swift"]), .init(module: "Alpha", paths: ["/p/Alpha/Y.swift"]),
            ]
        )
        var backward = forward
        backward.dependencies.reverse()
        #expect(forward.generate(Self.sources).text == backward.generate(Self.sources).text)
    }
}

@Suite("Scanner: regressions from review")
struct ScannerRegressionTests {
    @Test("The same type in #if and #else branches is two entries, one per condition")
    func sameTypeInBothBranches() {
        let result = scan([
            "A.swift": "#if os(Linux)\nstruct Impl: LifecycleModule {}\n#else\nstruct Impl: LifecycleModule {}\n#endif"
        ])
        #expect(result.modules.map(\.description) == ["Impl [#if os(Linux)]", "Impl [#if !(os(Linux))]"])
    }

    @Test("`private import` does not make the next type private")
    func privateImport() {
        let result = scan([
            "A.swift": "private import Foundation\nfileprivate import Dispatch\nstruct A: LifecycleModule {}"
        ])
        #expect(result.names == ["A"])
        #expect(result.warnings.isEmpty)
    }

    @Test("Keywords used as argument labels do not start declarations")
    func keywordArgumentLabels() {
        let result = scan([
            "A.swift": """
            struct Host: LifecycleModule {
                func register(class cls: AnyClass) { struct Local: LifecycleModule {} }
                init(extension ext: String) {}
                func f(protocol p: Any, struct s: Int) { struct L3: LifecycleModule {} }
            }
            """
        ])
        #expect(result.names == ["Host"])
        #expect(result.warnings.map(\.line) == [2, 4])
    }

    @Test("A dependency's class is hidden by a same-named class of this module")
    func ownNamesShadowDependencies() {
        let result = scan(
            ["Own.swift": "class Service {}\nfinal class Impl: Service {}"],
            context: ["Dep.swift": "open class Service: LifecycleModule {}"]
        )
        #expect(result.names.isEmpty)
    }

    @Test("A type named like its module is not shadowed by the manifest's static property")
    func typeNamedLikeModule() {
        let sources = ParsedSources([
            SourceFile(path: "/p/Feature.swift", text: "enum Feature { struct Module: LifecycleModule {} }")
        ])
        let text = ManifestGenerator(module: "Feature", mode: .library, paths: ["/p/Feature.swift"], dependencies: [])
            .generate(sources).text
        // The list is built in a file-scope function, outside `extension ModuleManifest`.
        #expect(
            text.contains("private func _lifecycleModules_Feature() -> [DeclaredModule] {\n    var modules")
        )
        #expect(text.contains("    modules.append(DeclaredModule(Feature.Module.self)"))
    }

    @Test("Keyword-named types are backticked in the generated code")
    func backtickedNames() {
        let sources = ParsedSources([SourceFile(path: "/p/A.swift", text: "enum `default`: LifecycleModule {}")])
        let text = ManifestGenerator(module: "M", mode: .library, paths: ["/p/A.swift"], dependencies: []).generate(
            sources
        ).text
        #expect(text.contains("modules.append(DeclaredModule(`default`.self)"))
    }

    @Test("The regenerate command quotes a target name with spaces")
    func quotedCommand() {
        #expect(ManifestSpec.regenerateCommand(target: "My Feature").hasSuffix("--target 'My Feature'"))
        #expect(ManifestSpec.regenerateCommand(target: "Feature-A").hasSuffix("--target Feature-A"))
    }

    @Test("An explicit access level inside a private type does not make the nested type nameable")
    func privateParentWins() {
        let result = scan([
            "A.swift":
                "private enum P { internal struct Q: LifecycleModule {} }\nprivate extension Outer { internal struct R: LifecycleModule {} }\nstruct Outer {}"
        ])
        #expect(result.names == ["Outer.R"])
        #expect(result.warnings.map(\.line) == [1])
    }

    @Test("`protocol P where Self: LifecycleModule` is a refinement")
    func whereSelfRefinement() {
        let result = scan([
            "A.swift": "protocol Feature where Self: LifecycleCore.LifecycleModule {}\nstruct A: Feature {}"
        ])
        #expect(result.names == ["A"])
    }

    @Test("Types nested in generic types from elsewhere, and constrained extensions, are reported as generic")
    func genericOutsideTypes() {
        let result = scan(
            [
                "A.swift": """
                extension Array { struct X: LifecycleModule {} }
                extension Box { struct Y: LifecycleModule {} }
                extension Array: LifecycleModule where Element == Int {}
                extension Logger { struct Fine: LifecycleModule {} }
                """
            ],
            context: ["Dep.swift": "public struct Box<T> {}\npublic struct Logger {}"]
        )
        #expect(result.names == ["Logger.Fine"])
        #expect(result.warnings.map(\.line) == [1, 2, 3])
        #expect(result.warnings.allSatisfy { $0.message.contains("is generic") })
    }

    @Test("Regex literals do not unbalance braces")
    func regexLiterals() {
        let result = scan([
            "A.swift": #"""
            struct Parser {
                let open = /\{/
                let close = #/[}]/#
                let ratio = 4 / 2
                struct Inner: LifecycleModule {}
            }
            struct After: LifecycleModule {}
            """#
        ])
        #expect(result.names == ["Parser.Inner", "After"])
        #expect(result.warnings.isEmpty)
    }

    @Test("A typealias whose right-hand side starts on the next line")
    func multilineTypealias() {
        let result = scan(["A.swift": "typealias M =\n    LifecycleModule\n    & Sendable\nstruct A: M {}"])
        #expect(result.names == ["A"])
    }
}
