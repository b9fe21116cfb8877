import Testing

@testable import ModuleScanner

/// A module declaration with the given dependencies, as a file's text.
private func module(_ name: String, dependsOn dependencies: [String] = [], extra: String = "") -> String {
    let list = dependencies.map { "\($0).self" }.joined(separator: ", ")
    return """
        struct \(name): LifecycleModule, DependentModule {
            static let priority: ModulePriority = .normal
            static let dependencies: [any LifecycleModule.Type] = [\(list)]
            \(extra)
        }

        """
}

/// The diagnostics of generating the manifest of `files` (path → text) as the Swift module `target`, with
/// `dependencies` (Swift module → its files) scanned too in aggregate mode.
private func check(
    _ files: [String: String],
    target: String = "App",
    mode: ManifestGenerator.Mode = .library,
    dependencies: [String: [String: String]] = [:]
) -> [ScanDiagnostic] {
    let all = files.merging(dependencies.values.reduce(into: [:]) { $0.merge($1) { a, _ in a } }) { a, _ in a }
    return ManifestGenerator(
        module: target,
        mode: mode,
        paths: Array(files.keys),
        dependencies: dependencies.map { .init(module: $0.key, paths: Array($0.value.keys)) },
        locationComments: false
    )
    .generate(ParsedSources(all.map { SourceFile(path: $0.key, text: $0.value) }))
    .diagnostics
}

@Suite("Scanner: the dependency graph, checked at build time")
struct DependencyCheckTests {
    @Test("A cycle among a target's modules is one build error at its first edge, naming every step")
    func cycleInTarget() throws {
        let diagnostics = check([
            "/p/App/A.swift": module("A", dependsOn: ["B"]),
            "/p/App/B.swift": module("B", dependsOn: ["C"]),
            "/p/App/C.swift": module("C", dependsOn: ["A"]),
            "/p/App/D.swift": module("D", dependsOn: ["A"]),  // behind the cycle, not on it
        ])
        #expect(diagnostics.count == 1)
        let error = try #require(diagnostics.first)
        #expect(error.severity == .error)
        #expect(error.file == "/p/App/A.swift")
        #expect(error.line == 3)
        #expect(error.message.hasPrefix("dependency cycle: A → B → C → A. `A` depends on `B` (/p/App/A.swift:3)"))
        #expect(error.message.contains("`C` depends on `A` (/p/App/C.swift:3)"))
        #expect(!error.message.contains("`D`"))
    }

    @Test("Dependencies of a cycle's modules that sort before it do not hide it")
    func cycleWithLeaves() {
        let diagnostics = check([
            "/p/App/C.swift": module("C", dependsOn: ["D"]),
            "/p/App/D.swift": module("D", dependsOn: ["A0", "C"]),
            "/p/App/A0.swift": module("A0"),
        ])
        #expect(diagnostics.map(\.severity) == [.error])
        #expect(diagnostics.first?.message.hasPrefix("dependency cycle: C → D → C.") == true)
    }

    @Test("A module that depends on itself is a cycle of one")
    func selfDependency() {
        let diagnostics = check(["/p/App/A.swift": module("A", dependsOn: ["A"])])
        #expect(diagnostics.map(\.severity) == [.error])
        #expect(diagnostics.first?.message.hasPrefix("dependency cycle: A → A.") == true)
    }

    @Test("An acyclic graph, diamond included, has no diagnostic")
    func acyclic() {
        let diagnostics = check([
            "/p/App/A.swift": module("A", dependsOn: ["B", "C"]),
            "/p/App/B.swift": module("B", dependsOn: ["D"]),
            "/p/App/C.swift": module("C", dependsOn: ["D"]),
            "/p/App/D.swift": module("D"),
        ])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test("A cycle across linked targets is found where they are linked together, with qualified names")
    func cycleAcrossTargets() {
        let diagnostics = check(
            ["/p/App/Main.swift": "struct Host {}\n"],
            mode: .aggregate,
            dependencies: [
                "Billing": ["/p/Billing/Invoices.swift": module("Invoices", dependsOn: ["Accounts.Ledger"])],
                "Accounts": ["/p/Accounts/Ledger.swift": module("Ledger", dependsOn: ["Billing.Invoices"])],
            ]
        )
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.file == "/p/Accounts/Ledger.swift")
        #expect(errors.first?.message.hasPrefix("dependency cycle: Ledger → Invoices → Ledger.") == true)
    }

    @Test("A dependency on a type declared here that discovery does not list is a warning at the dependency")
    func notAModule() throws {
        let diagnostics = check([
            "/p/App/A.swift": module("A", dependsOn: ["Helper", "Generic<Int>", "Elsewhere"]),
            "/p/App/Helper.swift": "struct Helper {}\n",
        ])
        // `Generic<Int>.self` is no plain metatype the scan reads; `Elsewhere` is declared nowhere it scanned.
        #expect(diagnostics.count == 1)
        let warning = try #require(diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.file == "/p/App/A.swift")
        #expect(
            warning.message.hasPrefix(
                "`A` depends on `Helper`, declared at /p/App/Helper.swift:1, which module discovery does not list"
            )
        )
        #expect(warning.message.contains("missingDependency"))
    }

    @Test("A dependency on a module discovery cannot name (private) is a warning too")
    func dependencyOnUnnameableModule() {
        let diagnostics = check([
            "/p/App/A.swift": module("A", dependsOn: ["Hidden"]),
            "/p/App/Hidden.swift":
                "private struct Hidden: LifecycleModule { static let priority: ModulePriority = .low }\n",
        ])
        let ours = diagnostics.filter { $0.file == "/p/App/A.swift" }
        #expect(ours.count == 1)
        #expect(ours.first?.message.contains("`A` depends on `Hidden`") == true)
    }

    @Test("Two linked modules with one name are a warning at each, only where they are linked together")
    func duplicateNames() {
        let dependencies = [
            "Search": ["/p/Search/Cache.swift": module("CacheModule")],
            "Images": ["/p/Images/Cache.swift": module("CacheModule")],
        ]
        let linked = check(["/p/App/Main.swift": "struct Host {}\n"], mode: .aggregate, dependencies: dependencies)
        #expect(linked.map(\.file).sorted() == ["/p/Images/Cache.swift", "/p/Search/Cache.swift"])
        #expect(linked.allSatisfy { $0.severity == .warning && $0.message.contains("both named `CacheModule`") })
        #expect(
            linked.first?.message.contains("`Images.CacheModule` and `Search.CacheModule`") == true
                || linked.first?.message.contains("`Search.CacheModule` and `Images.CacheModule`") == true
        )
        // A library sees only its own modules.
        #expect(check(["/p/Search/Cache.swift": module("CacheModule")], target: "Search").isEmpty)
    }

    @Test("A computed or variable `dependencies` is not read: no diagnostic, the proxy still checks it")
    func computedDependencies() {
        let computed = """
            struct A: LifecycleModule, DependentModule {
                static let priority: ModulePriority = .normal
                static var dependencies: [any LifecycleModule.Type] { [A.self] }
            }
            struct B: LifecycleModule, DependentModule {
                static let priority: ModulePriority = .normal
                static let dependencies: [any LifecycleModule.Type] = shared
            }

            """
        #expect(check(["/p/App/A.swift": computed]).isEmpty)
    }

    @Test("Dependencies in an extension, on several lines, qualified: read like the one-line form")
    func extensionAndLayout() {
        let text = """
            struct A: LifecycleModule { static let priority: ModulePriority = .normal }
            struct B: LifecycleModule { static let priority: ModulePriority = .normal }
            extension A: DependentModule {
                static let dependencies: [any LifecycleModule.Type] = [
                    App.B.self,
                ]
            }
            extension B: DependentModule {
                static let dependencies: [any LifecycleModule.Type] = [(A).self]
            }

            """
        let diagnostics = check(["/p/App/A.swift": text])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.hasPrefix("dependency cycle: A → B → A.") == true)
        #expect(diagnostics.first?.line == 5)
    }
}
