import Foundation
import Testing

@testable import ModuleScanner

/// LifecycleScopes' protocol, as the library declares it.
private let scopesFile = SourceFile(
    path: "/p/LifecycleScopes/ScopeAction.swift",
    text: """
        @_alwaysEmitConformanceMetadata
        public protocol ScopeAction: Sendable {
            static var kinds: ScopeKinds { get }
            static var priority: ModulePriority { get }
            init(context: LifecycleContext)
        }
        """
)

/// LifecycleRouting's interceptor protocol, for the tests that combine routing and scopes.
private let routingFile = SourceFile(
    path: "/p/LifecycleRouting/Routing.swift",
    text: "public protocol RouteInterceptor: Sendable {}"
)

/// Generates the manifest of target `M` from `files` (name → text, under `/p/M/`), with LifecycleScopes as a
/// dependency unless `scopes` is false, and `dependencies`, each a module and its one file.
private func generateScopes(
    _ files: [String: String],
    mode: ManifestGenerator.Mode = .library,
    scopes: Bool = true,
    dependencies: [(module: String, file: SourceFile)] = []
) -> ManifestGenerator.Output {
    let own = files.map { SourceFile(path: "/p/M/\($0.key)", text: $0.value) }
    let all = (scopes ? [("LifecycleScopes", scopesFile)] : []) + dependencies
    return ManifestGenerator(
        module: "M",
        mode: mode,
        paths: own.map(\.path),
        dependencies: all.map { .init(module: $0.module, paths: [$0.file.path]) },
        locationComments: false
    ).generate(ParsedSources(own + all.map(\.file)))
}

/// The text of the generated function `name`, from its `private func` line to its closing brace.
private func generatedFunction(_ name: String, in text: String) -> String? {
    guard let start = text.range(of: "private func \(name)() ") else { return nil }
    guard let end = text[start.lowerBound...].range(of: "\n}\n") else { return nil }
    return String(text[start.lowerBound..<end.upperBound])
}

@Suite("Scanner: scope actions in the manifest")
struct ScopeDiscoveryTests {
    @Test("Every nameable type adopting ScopeAction: direct, qualified, in an extension, nested, under #if")
    func actions() {
        let output = generateScopes([
            "A.swift": """
            struct RequestLog: ScopeAction {}
            final class Audit: @unchecked Sendable, LifecycleScopes.ScopeAction {}
            enum Sessions {
                actor Tracker: ScopeAction {}
            }
            extension Sessions {
                struct Expiry: ScopeAction {}
            }
            #if DEBUG
            struct Tracing: ScopeAction {}
            #else
            struct Quiet: ScopeAction {}
            #endif
            struct NotAnAction: Sendable {}
            """,
            "B.swift": """
            extension NotAnAction {}
            struct Later {}
            extension Later: ScopeAction {}
            protocol JobAction: ScopeAction {}
            typealias Acting = ScopeAction & Sendable
            struct Refined: JobAction {}
            struct Aliased: Acting {}
            class BaseAction: ScopeAction {}
            final class DerivedAction: BaseAction {}
            """,
        ])
        #expect(
            output.scopeActions.map(\.description) == [
                "RequestLog", "Audit", "Sessions.Tracker", "Sessions.Expiry", "Tracing [#if DEBUG]",
                "Quiet [#if !(DEBUG)]", "Later", "Refined", "Aliased", "BaseAction", "DerivedAction",
            ]
        )
        // An extension's conformance counts where it is declared.
        #expect(output.scopeActions[6].file == "/p/M/B.swift")
        #expect(output.scopeActions[6].line == 3)
        #expect(output.text.contains("public import LifecycleCore\nimport LifecycleScopes\n\n"))
        #expect(output.text.contains("    ).withScopes(discovered: _lifecycleScopeActions_M())\n}\n"))
        #expect(
            generatedFunction("_lifecycleScopeActions_M", in: output.text) == """
                private func _lifecycleScopeActions_M() -> [any ScopeAction.Type] {
                    var actions: [any ScopeAction.Type] = []
                    actions.append(RequestLog.self)
                    actions.append(Audit.self)
                    actions.append(Sessions.Tracker.self)
                    actions.append(Sessions.Expiry.self)
                #if DEBUG
                    actions.append(Tracing.self)
                #endif
                #if !(DEBUG)
                    actions.append(Quiet.self)
                #endif
                    actions.append(Later.self)
                    actions.append(Refined.self)
                    actions.append(Aliased.self)
                    actions.append(BaseAction.self)
                    actions.append(DerivedAction.self)
                    return actions
                }

                """
        )
        // Not modules: the module list is empty.
        #expect(output.modules.isEmpty)
        #expect(output.text.contains("private func _lifecycleModules_M() -> [DeclaredModule] {\n    []\n}"))
        #expect(output.diagnostics.isEmpty)
    }

    @Test("A conformance added to another module's type is listed as written; keyword names are backticked")
    func otherModulesTypes() {
        let output = generateScopes([
            "A.swift": """
            extension Legacy.Client: ScopeAction {}
            enum Outer { struct `default`: ScopeAction {} }
            """
        ])
        #expect(output.scopeActions.map(\.name) == ["Legacy.Client", "Outer.default"])
        #expect(output.text.contains("    actions.append(Legacy.Client.self)\n"))
        #expect(output.text.contains("    actions.append(Outer.`default`.self)\n"))
    }

    @Test("An action the manifest cannot name is a build error at its line: generic, private, local")
    func unnameableActions() {
        let output = generateScopes([
            "A.swift": """
            struct Timing<Clock: Sendable>: ScopeAction {}
            private struct Hidden: ScopeAction {}
            func make() {
                struct Local: ScopeAction {}
            }
            struct Holder<T> {
                struct Inner: ScopeAction {}
            }
            private enum Namespace {
                internal struct Inside: ScopeAction {}
            }
            fileprivate final class AlsoHidden: ScopeAction {}
            extension Array: ScopeAction where Element == Int {}
            struct Fine: ScopeAction {}
            """
        ])
        #expect(output.scopeActions.map(\.name) == ["Fine"])
        #expect(output.diagnostics.map(\.line) == [1, 2, 4, 7, 10, 12, 13])
        #expect(output.diagnostics.allSatisfy { $0.severity == .error && $0.file == "/p/M/A.swift" })
        #expect(
            output.diagnostics.first?.description
                == "/p/M/A.swift:1: error: `Timing` conforms to ScopeAction but cannot be registered: it is generic, "
                + "and a static manifest lists concrete types only; conform a non-generic type (for example a "
                + "subclass or a wrapper) instead. The host creates every global scope action from the manifest, "
                + "so one the manifest cannot list would never run."
        )
        #expect(output.diagnostics[1].message.contains("`Hidden` conforms to ScopeAction"))
        #expect(output.diagnostics[1].message.contains("is private or fileprivate"))
        #expect(output.diagnostics[2].message.contains("inside a function or closure"))
        #expect(output.diagnostics[3].message.contains("`Holder.Inner` conforms to ScopeAction"))
        #expect(output.diagnostics[3].message.contains("is generic"))
        #expect(output.diagnostics[4].message.contains("is private or fileprivate"))
        #expect(output.diagnostics[5].message.contains("is private or fileprivate"))
        #expect(output.diagnostics[6].message.contains("`Array` conforms to ScopeAction"))
        // Modules and interceptors the manifest cannot name stay warnings.
        let module = generateScopes(["A.swift": "private struct HiddenModule: LifecycleModule {}"])
        #expect(module.diagnostics.map(\.severity) == [.warning])
    }

    @Test("No .withScopes without actions, without LifecycleScopes, or with a shadowing ScopeAction")
    func noScopes() {
        let plain = generateScopes(["A.swift": "struct P: LifecycleModule, WillTerminate {}"])
        #expect(plain.scopeActions.isEmpty)
        #expect(!plain.text.contains("withScopes"))
        #expect(!plain.text.contains("LifecycleScopes"))
        #expect(!plain.text.contains("_lifecycleScopeActions"))
        // A target that does not link LifecycleScopes: its `ScopeAction` is someone else's, so even a
        // private one is no error.
        let unlinked = generateScopes(
            ["A.swift": "struct A: ScopeAction {}\nprivate struct B: ScopeAction {}"],
            scopes: false
        )
        #expect(unlinked.scopeActions.isEmpty)
        #expect(unlinked.diagnostics.isEmpty)
        #expect(!unlinked.text.contains("withScopes"))
        // A protocol of the target named like LifecycleScopes': not an action.
        let shadowed = generateScopes([
            "A.swift": """
            protocol ScopeAction {}
            struct A: ScopeAction {}
            private struct B: ScopeAction {}
            """
        ])
        #expect(shadowed.scopeActions.isEmpty)
        #expect(shadowed.diagnostics.isEmpty)
        #expect(!shadowed.text.contains("withScopes"))
    }

    @Test("Scopes follow the other roles: call and import order, a module that is also an action")
    func conventions() {
        let output = generateScopes(
            [
                "A.swift": """
                struct Guard: RouteInterceptor {}
                struct Metrics: LifecycleModule, ScopeAction {}
                """
            ],
            dependencies: [("LifecycleRouting", routingFile)]
        )
        #expect(
            output.text.contains("public import LifecycleCore\nimport LifecycleRouting\nimport LifecycleScopes\n\n")
        )
        #expect(
            output.text.contains(
                "    ).withRouting(servers: _lifecycleRouteServers_M(), interceptors: _lifecycleRouteInterceptors_M())"
                    + ".withScopes(discovered: _lifecycleScopeActions_M())\n}\n"
            )
        )
        // The routing functions come first, then the actions.
        let routing = output.text.range(of: "private func _lifecycleRouteInterceptors_M()")
        let scopes = output.text.range(of: "private func _lifecycleScopeActions_M()")
        #expect(routing != nil && scopes != nil && routing!.lowerBound < scopes!.lowerBound)
        // A module that is also an action is listed as both.
        #expect(output.modules.map(\.name) == ["Metrics"])
        #expect(output.scopeActions.map(\.name) == ["Metrics"])
        #expect(output.text.contains("    actions.append(Metrics.self)\n"))
        #expect(!output.text.contains("actions.append(Guard.self)"))
    }

    @Test("An aggregate lists its own actions and includes the manifest of a dependency with actions only")
    func aggregate() {
        let sessions = SourceFile(
            path: "/p/Sessions/S.swift",
            text: "struct SessionAction: ScopeAction {}\nprivate struct Ignored: ScopeAction {}"
        )
        let helpers = SourceFile(path: "/p/Helpers/H.swift", text: "struct Helper {}")
        let output = generateScopes(
            ["main.swift": "struct HostAction: ScopeAction {}"],
            mode: .aggregate,
            dependencies: [("Sessions", sessions), ("Helpers", helpers)]
        )
        #expect(output.includedDependencies == ["Sessions"])
        #expect(output.text.contains("import LifecycleCore\nimport LifecycleScopes\nimport Sessions\n\n"))
        #expect(output.text.contains("            .Sessions,"))
        #expect(!output.text.contains(".Helpers,"))
        #expect(!output.text.contains(".LifecycleScopes"))
        #expect(output.text.contains(#"sourceModules: ["M", "Helpers", "Sessions"],"#))
        #expect(output.text.contains("            ).withScopes(discovered: _lifecycleScopeActions_M()),\n"))
        // The dependency's actions come with its own manifest: they stay internal there, and its errors are
        // reported when it is built.
        #expect(output.text.contains("    actions.append(HostAction.self)\n"))
        #expect(!output.text.contains("SessionAction"))
        #expect(output.diagnostics.isEmpty)
        // Without actions of its own, the aggregate has no `.withScopes`, and still includes the dependency.
        let dependencyOnly = generateScopes(
            ["main.swift": "struct HostModule: LifecycleModule {}"],
            mode: .aggregate,
            dependencies: [("Sessions", sessions)]
        )
        #expect(dependencyOnly.includedDependencies == ["Sessions"])
        #expect(!dependencyOnly.text.contains("withScopes"))
        #expect(!dependencyOnly.text.contains("import LifecycleScopes"))
    }

    @Test("A checked-in manifest records a dependency from another package with actions only as one to include")
    func checkedInExternalDependency() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("scopes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        func write(_ text: String, _ path: String) throws {
            let url = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("// swift-tools-version:6.2\n", "App/Package.swift")
        try write(scopesFile.text, "Checkouts/LifecycleScopes/ScopeAction.swift")
        try write("struct SessionAction: ScopeAction {}\n", "Checkouts/Sessions/Sessions.swift")
        try write("struct HostAction: ScopeAction {}\n", "App/Tests/AppTests/HostAction.swift")
        let spec = ManifestSpec(
            module: "AppTests",
            mode: .aggregate,
            sources: ["Tests/AppTests"],
            dependencies: [
                .init(module: "LifecycleScopes", sources: ["../Checkouts/LifecycleScopes"]),
                .init(module: "Sessions", sources: ["../Checkouts/Sessions"]),
            ],
            checkedInTarget: "AppTests"
        )
        let text = try spec.generate(root: base.appendingPathComponent("App")).text
        #expect(text.contains(#"{"hasModules":true,"implies":[],"module":"Sessions","sources":[]}"#))
        #expect(text.contains("            .Sessions,"))
        #expect(!text.contains(".LifecycleScopes,"))
        #expect(text.contains("            ).withScopes(discovered: _lifecycleScopeActions_AppTests()),\n"))
        #expect(text.contains("    actions.append(HostAction.self)\n"))
        #expect(!text.contains("Checkouts"))
    }
}
