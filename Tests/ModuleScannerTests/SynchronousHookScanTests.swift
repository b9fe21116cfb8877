import Testing

@testable import ModuleScanner

/// The `hooks.…` calls the generated capability table makes for the module of `text` (target `M`, one
/// file), in order, without their indentation; `context` are LifecycleCore-like dependency files.
private func hookCalls(_ text: String, context: [String: String] = [:]) -> [String] {
    var files = [SourceFile(path: "/p/M/A.swift", text: text)]
    files += context.map { SourceFile(path: $0.key, text: $0.value) }
    let output = ManifestGenerator(
        module: "M",
        mode: .library,
        paths: ["/p/M/A.swift"],
        dependencies: context.isEmpty ? [] : [.init(module: "Dep", paths: Array(context.keys))],
        locationComments: false
    ).generate(ParsedSources(files))
    return output.text.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { $0.hasPrefix("hooks.") }
        .map(String.init)
}

/// The synchronous hooks the scanner finds in `text`, per module: `["M: didBecomeActive (sync)"]`.
private func synchronousHooks(_ text: String) -> [String] {
    scan(["A.swift": text]).modules.map { module in
        "\(module.name): " + module.synchronousHooks.map(\.description).joined(separator: ", ")
    }
}

@Suite("Scanner: synchronous hooks")
struct SynchronousHookScanTests {
    @Test("A hook the module implements without async is registered with a closure that calls it, try'd if it throws")
    func registeredSynchronously() {
        let calls = hookCalls(
            """
            final class Cache: LifecycleModule, WillFinishLaunching, DidBecomeActive, WillTerminate, OpenURL,
                WarmUpStage
            {
                static let priority: ModulePriority = .normal
                init(context: LifecycleContext) {}
                func willFinishLaunching(_ context: LifecycleContext) -> Bool { true }
                public func didBecomeActive(_ context: LifecycleContext) throws {}
                func willTerminate(_ context: LifecycleCore.LifecycleContext) throws(CacheError) {}
                func open(_ url: Foundation.URL, context: LifecycleContext) -> Swift.Bool { false }
                func warmUp(_ context: LifecycleContext) {}
            }
            """
        )
        #expect(
            calls == [
                "hooks.willFinishLaunching(module, synchronously: { module.willFinishLaunching($0) })",
                "hooks.warmUp(module)",  // warm-up runs concurrently: it has no synchronous form
                "hooks.didBecomeActive(module, synchronously: { try module.didBecomeActive($0) })",
                "hooks.willTerminate(module, synchronously: { try module.willTerminate($0) })",
                "hooks.openURL(module, synchronously: { module.open($0, context: $1) })",
            ]
        )
    }

    @Test("The function may be in an extension of the module in its own target, and under the module's own #if")
    func extensionsAndConditions() {
        #expect(
            hookCalls(
                """
                struct M: LifecycleModule, DidBecomeActive {}
                extension M {
                    func didBecomeActive(_ context: LifecycleContext) {}
                }
                """
            ) == ["hooks.didBecomeActive(module, synchronously: { module.didBecomeActive($0) })"]
        )
        #expect(
            synchronousHooks(
                """
                #if os(Linux)
                struct M: LifecycleModule, WillTerminate {
                    func willTerminate(_ context: LifecycleContext) {}
                }
                #endif
                """
            ) == ["M: willTerminate (sync)"]
        )
        // Under a condition of its own, the function might not be the one that compiles: awaited.
        #expect(
            hookCalls(
                """
                struct M: LifecycleModule, DidBecomeActive {}
                #if DEBUG
                extension M {
                    func didBecomeActive(_ context: LifecycleContext) {}
                }
                #endif
                """
            ) == ["hooks.didBecomeActive(module)"]
        )
        // Nested types are matched by their qualified name, also when an extension names them.
        #expect(
            synchronousHooks(
                """
                enum Payments {
                    struct Gateway: LifecycleModule, DidBecomeActive {}
                }
                extension Payments.Gateway {
                    func didBecomeActive(_ context: LifecycleContext) {}
                }
                struct Other: LifecycleModule, DidBecomeActive {}
                """
            ) == ["Payments.Gateway: didBecomeActive (sync)", "Other: "]
        )
    }

    @Test("Awaited whenever a synchronous closure might not compile or might call another function")
    func awaitedWhenUnsure() {
        let cases = [
            "async": "func didBecomeActive(_ context: LifecycleContext) async {}",
            "overloaded": """
            func didBecomeActive(_ context: LifecycleContext) {}
            func didBecomeActive(_ context: LifecycleContext, extra: Int = 0) async {}
            """,
            "mutating": "mutating func didBecomeActive(_ context: LifecycleContext) {}",
            "static": "static func didBecomeActive(_ context: LifecycleContext) {}",
            "generic": "func didBecomeActive<C>(_ context: C) {}",
            "labels": "func didBecomeActive(context: LifecycleContext) {}",
            "type": "func didBecomeActive(_ context: Context) {}",
            "result": "func didBecomeActive(_ context: LifecycleContext) -> Bool { true }",
            "available": "@available(*, deprecated) func didBecomeActive(_ context: LifecycleContext) {}",
            "global actor": "@MainActor func didBecomeActive(_ context: LifecycleContext) {}",
            "own actor": "@DatabaseActor func didBecomeActive(_ context: LifecycleContext) {}",
            "none": "",
        ]
        for (name, body) in cases {
            let calls = hookCalls("struct M: LifecycleModule, DidBecomeActive {\n\(body)\n}")
            #expect(calls == ["hooks.didBecomeActive(module)"], "\(name)")
        }
        // The Bool events want a Bool: a Void function is not their hook.
        #expect(
            hookCalls(
                "struct M: LifecycleModule, DidFinishLaunching {\nfunc didFinishLaunching(_ c: LifecycleContext) {}\n}"
            )
                == ["hooks.didFinishLaunching(module)"]
        )
        // A capability adopted under a condition keeps its conditional, awaited call.
        #expect(
            hookCalls(
                """
                struct M: LifecycleModule {
                    func didBecomeActive(_ context: LifecycleContext) {}
                }
                #if DEBUG
                extension M: DidBecomeActive {}
                #endif
                """
            ) == ["hooks.didBecomeActive(module)"]
        )
    }

    @Test("Isolation: an actor's, a global actor's or a subclass's hook only when it is marked nonisolated")
    func isolation() {
        let isolated = [
            "actor M: LifecycleModule, DidBecomeActive {\n    func didBecomeActive(_ context: LifecycleContext) {}\n}",
            "@MainActor final class M: LifecycleModule, DidBecomeActive {\n"
                + "    func didBecomeActive(_ context: LifecycleContext) {}\n}",
            "struct M: LifecycleModule, DidBecomeActive {}\n@MainActor extension M {\n"
                + "    func didBecomeActive(_ context: LifecycleContext) {}\n}",
            "actor M: LifecycleModule, DidBecomeActive {}\nextension M {\n"
                + "    func didBecomeActive(_ context: LifecycleContext) {}\n}",
            "class Base {}\nfinal class M: Base, LifecycleModule, DidBecomeActive {\n"
                + "    func didBecomeActive(_ context: LifecycleContext) {}\n}",
        ]
        for source in isolated {
            #expect(hookCalls(source) == ["hooks.didBecomeActive(module)"], "\(source)")
            let marked = source.replacingAll("    func didBecomeActive", with: "    nonisolated func didBecomeActive")
            #expect(
                hookCalls(marked) == ["hooks.didBecomeActive(module, synchronously: { module.didBecomeActive($0) })"],
                "\(marked)"
            )
        }
    }

    @Test("A deprecated Sync… adopter gets the closure when its function is found, else the deprecated call")
    func deprecatedSyncProtocols() {
        #expect(
            hookCalls(
                """
                struct M: LifecycleModule, SyncDidBecomeActive {
                    func didBecomeActive(_ context: LifecycleContext) {}
                }
                """
            ) == ["hooks.didBecomeActive(module, synchronously: { module.didBecomeActive($0) })"]
        )
        // Its function inherited from a superclass: the scanner does not see it, and the deprecated call stays,
        // so the deprecation warning names what to change.
        #expect(
            hookCalls(
                "final class M: Base, SyncDidBecomeActive {}",
                context: [
                    "/p/Dep/Base.swift":
                        "open class Base: LifecycleModule {\n    public func didBecomeActive(_ c: LifecycleContext) {}\n}"
                ]
            ) == ["hooks.didBecomeActive(sync: module)"]
        )
    }

    @Test("Reading functions changes nothing else the parser finds, and it reads their signatures as written")
    func parserReadsFunctionsAlongside() {
        let text = """
            struct Outer: LifecycleModule {
                func make(_ values: [String: Int] = [:], _ build: (Int) -> Void) -> Result<Int, any Error> { .success(1) }
                func f(_ x: @escaping @Sendable () -> Void = {}) {}
                struct Inner: DidBecomeActive {}
                static func didBecomeActive(_ context: LifecycleContext) {}
            }
            protocol P {
                func requirement(_ context: LifecycleContext) async throws -> Bool
                var name: String { get }
            }
            func free(_ context: LifecycleContext) {}
            """
        let parsed = DeclarationParser.parseWithPatterns(tokens: Lexer.tokenize(text), file: "A.swift")
        #expect(parsed.declarations.map(\.qualifiedName) == ["Outer", "Outer.Inner", "P"])
        let functions = parsed.functions.map { function in
            "\(function.typeName).\(function.name)(\(zip(function.labels, function.parameterTypes).map { "\($0) \($1)" }.joined(separator: ", ")))"
                + (function.isAsync ? " async" : "") + (function.isThrowing ? " throws" : "")
                + (function.returnType.map { " -> \($0)" } ?? "") + (function.isStatic ? " static" : "")
        }
        #expect(
            functions == [
                "Outer.make(_ [String:Int], _ (Int)->Void) -> Result<Int,any Error>",
                // a closure as a default value is not a hook's: the signature is not read
                "Outer.didBecomeActive(_ LifecycleContext) static",
                "P.requirement(_ LifecycleContext) async throws -> Bool",
            ]
        )
    }
}
