import Foundation
import Testing

@testable import ModuleScanner

/// The package's own LifecycleCore sources, which every target's scan reads as its core dependency.
private let coreSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/LifecycleCore").path

/// Three targets on disk: `Shared` declares a refined protocol, a base class and a module that provides a
/// service; `Feature` depends on `Shared` and declares modules that conform through them; the executable
/// `App` links both. Each target is generated from its sources, and again with its dependencies read from
/// the summaries their own generation wrote.
private struct Workspace {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString)")

    init() throws {
        try write(
            """
            public import LifecycleCore

            public protocol AppModule: LifecycleModule, SyncDidBecomeActive {}
            open class BaseModule: LifecycleModule {
                public required init(context: LifecycleContext) {}
            }
            public struct Clock: Sendable {}
            public struct Metrics: AppModule, DependentModule {
                public static let dependencies: [any LifecycleModule.Type] = []
                public init(context: LifecycleContext) {}
                public func didBecomeActive(_ context: LifecycleContext) throws {}
            }
            """,
            "Shared/Shared.swift"
        )
        try write(
            """
            public import LifecycleCore
            import Shared

            public struct Search: AppModule, DependentModule {
                public static let dependencies: [any LifecycleModule.Type] = [Metrics.self, Clock.self]
                public init(context: LifecycleContext) {}
                public func didBecomeActive(_ context: LifecycleContext) throws {}
            }
            public final class Index: BaseModule {}
            public struct Metrics: LifecycleModule {
                public init(context: LifecycleContext) {}
            }
            """,
            "Feature/Feature.swift"
        )
        try write("import Feature\n", "App/main.swift")
    }

    func write(_ text: String, _ path: String) throws {
        let url = base.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func summaryPath(_ module: String, interface: Bool = false) -> String {
        base.appendingPathComponent("\(module).\(interface ? "interface" : "summary").json").path
    }

    /// Generates `module` from its sources, or with `summaries` read for the dependencies named (their
    /// interfaces, for a library), as the plugin asks for it; writes its own summary and interface.
    func generate(
        _ module: String,
        mode: ManifestGenerator.Mode,
        dependencies: [String],
        summaries: Set<String> = [],
        frameworkCache: URL? = nil,
        sharedFrameworkCaches: [URL] = []
    ) throws -> ManifestGenerator.Output {
        let spec = ManifestSpec(
            module: module,
            mode: mode,
            sources: [module],
            dependencies: [.init(module: "LifecycleCore", sources: [coreSources])]
                + dependencies.map {
                    .init(
                        module: $0,
                        sources: [$0],
                        summary: summaries.contains($0) ? summaryPath($0, interface: mode == .library) : nil
                    )
                }
        )
        let output = try spec.generate(
            root: base,
            frameworkCache: frameworkCache,
            sharedFrameworkCaches: sharedFrameworkCaches
        )
        try output.summary.encoded().write(to: URL(fileURLWithPath: summaryPath(module)))
        try output.summary.interface.encoded().write(to: URL(fileURLWithPath: summaryPath(module, interface: true)))
        return output
    }
}

@Suite("Scanner: summaries stand for a dependency's sources")
struct DiscoverySummaryTests {
    @Test("A library reads a dependency's refined protocols and base classes from its summary")
    func libraryFromSummary() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.base) }
        _ = try workspace.generate("Shared", mode: .library, dependencies: [])
        let scanned = try workspace.generate("Feature", mode: .library, dependencies: ["Shared"])
        let summarised = try workspace.generate(
            "Feature",
            mode: .library,
            dependencies: ["Shared"],
            summaries: ["Shared"]
        )
        #expect(scanned.modules.map(\.name) == ["Search", "Index", "Metrics"])
        #expect(summarised.modules == scanned.modules)
        #expect(summarised.text == scanned.text)
        #expect(summarised.diagnostics == scanned.diagnostics)
    }

    @Test("An aggregate over summaries includes, checks and warns as one over sources")
    func aggregateFromSummaries() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.base) }
        _ = try workspace.generate("Shared", mode: .library, dependencies: [])
        _ = try workspace.generate("Feature", mode: .library, dependencies: ["Shared"], summaries: ["Shared"])
        let scanned = try workspace.generate("App", mode: .aggregate, dependencies: ["Shared", "Feature"])
        let summarised = try workspace.generate(
            "App",
            mode: .aggregate,
            dependencies: ["Shared", "Feature"],
            summaries: ["Shared", "Feature"]
        )
        #expect(scanned.includedDependencies == ["Feature", "Shared"])
        #expect(summarised.includedDependencies == scanned.includedDependencies)
        #expect(summarised.text == scanned.text)
        // Two modules named `Metrics` linked into App, and `Clock` listed as a dependency but no module.
        let messages = summarised.diagnostics.map(\.message)
        #expect(messages.filter { $0.contains("both named `Metrics`") }.count == 2)
        #expect(messages.contains { $0.contains("depends on `Clock`") && $0.contains("Shared.swift:7") })
        #expect(summarised.diagnostics == scanned.diagnostics)
    }

    @Test("A missing summary, one of another module and one of another format are not used: sources are scanned")
    func unusableSummaries() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.base) }
        _ = try workspace.generate("Shared", mode: .library, dependencies: [])
        let scanned = try workspace.generate("Feature", mode: .library, dependencies: ["Shared"])
        let path = workspace.summaryPath("Shared", interface: true)
        #expect(DiscoverySummary.read(path, module: "Shared") != nil)
        #expect(DiscoverySummary.read(path, module: "Feature") == nil)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let version = "\"version\":\(DiscoverySummary.currentVersion)"
        #expect(text.contains(version))
        try text.replacingOccurrences(of: version, with: "\"version\":999").write(
            toFile: path,
            atomically: true,
            encoding: .utf8
        )
        #expect(DiscoverySummary.read(path, module: "Shared") == nil)
        let fallback = try workspace.generate(
            "Feature",
            mode: .library,
            dependencies: ["Shared"],
            summaries: ["Shared"]
        )
        #expect(fallback.modules == scanned.modules)
        try "{".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(DiscoverySummary.read(path, module: "Shared") == nil)
        try FileManager.default.removeItem(atPath: path)
        let missing = try workspace.generate("Feature", mode: .library, dependencies: ["Shared"], summaries: ["Shared"])
        #expect(missing.modules == scanned.modules)
    }

    @Test("A summary is the same bytes for the same sources, and changes when what dependents read changes")
    func stableBytes() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.base) }
        let first = try workspace.generate("Shared", mode: .library, dependencies: []).summary.encoded()
        let again = try workspace.generate("Shared", mode: .library, dependencies: []).summary.encoded()
        #expect(first == again)
        try workspace.write("public protocol Extra: LifecycleModule {}\n", "Shared/Extra.swift")
        let changed = try workspace.generate("Shared", mode: .library, dependencies: []).summary
        #expect(try changed.encoded() != first)
        #expect(changed.declarations.contains { $0.name == "Extra" && $0.kind == .protocol })
        #expect(changed.hasManifest)
        #expect(changed.modules.map(\.name) == ["BaseModule", "Metrics"])
    }

    @Test("An edit that only moves lines changes the summary but not the interface libraries read")
    func interfaceIgnoresLines() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.base) }
        let before = try workspace.generate("Shared", mode: .library, dependencies: []).summary
        let text = try String(contentsOf: workspace.base.appendingPathComponent("Shared/Shared.swift"), encoding: .utf8)
        try workspace.write("// A comment that moves every declaration down a line.\n" + text, "Shared/Shared.swift")
        let after = try workspace.generate("Shared", mode: .library, dependencies: []).summary
        #expect(try after.encoded() != before.encoded())
        #expect(after.modules.map(\.line) == before.modules.map { $0.line + 1 })
        #expect(try after.interface.encoded() == before.interface.encoded())
        #expect(after.interface.modules.isEmpty && after.interface.dependencyMentions.isEmpty)
        #expect(after.interface.declarations.allSatisfy { $0.line == 0 })
        // Round trip: what is read back is what was written.
        try after.encoded().write(to: URL(fileURLWithPath: workspace.summaryPath("Shared")))
        #expect(DiscoverySummary.read(workspace.summaryPath("Shared"), module: "Shared") == after)
    }

    @Test("ModuleLifecycle's own declarations are kept between runs, and read back only for unchanged sources")
    func frameworkCache() throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.base) }
        let cache = workspace.base.appendingPathComponent("Feature.framework-declarations.json")
        _ = try workspace.generate("Shared", mode: .library, dependencies: [])
        let lexed = try workspace.generate("Feature", mode: .library, dependencies: ["Shared"])
        let first = try workspace.generate("Feature", mode: .library, dependencies: ["Shared"], frameworkCache: cache)
        let written = try Data(contentsOf: cache)
        let again = try workspace.generate("Feature", mode: .library, dependencies: ["Shared"], frameworkCache: cache)
        #expect(first.text == lexed.text && again.text == lexed.text)
        #expect(again.diagnostics == lexed.diagnostics)

        let files = try #require(FileManager.default.enumerator(atPath: coreSources)?.allObjects as? [String])
            .filter { $0.hasSuffix(".swift") }.map { coreSources + "/" + $0 }
        let stamps = try #require(FrameworkCache.stamps(of: files))
        let read = FrameworkCache.read([cache], wanted: ["LifecycleCore": stamps])
        #expect(read.keys.sorted() == ["LifecycleCore"])
        #expect(read["LifecycleCore"]?.declarations.contains { $0.name == "LifecycleModule" } == true)
        // A source that changed (here: its stamp) makes the cache unusable.
        let changed = Array(stamps.dropLast()) + ["\(files[0])\t1\t0"]
        #expect(FrameworkCache.read([cache], wanted: ["LifecycleCore": changed]).isEmpty)

        // A target without a cache of its own reads another target's, and keeps a copy.
        let shared = workspace.base.appendingPathComponent("Shared.framework-declarations.json")
        try FileManager.default.moveItem(at: cache, to: shared)
        let missing = workspace.base.appendingPathComponent("Nowhere/x.json")
        let fromShared = try workspace.generate(
            "Feature",
            mode: .library,
            dependencies: ["Shared"],
            frameworkCache: cache,
            sharedFrameworkCaches: [missing, shared]
        )
        #expect(fromShared.text == lexed.text)
        #expect(try Data(contentsOf: cache) == written)
        #expect(FrameworkCache.stamps(of: files + ["/no/such/file.swift"]) == nil)

        // What is read back is what the run uses: a protocol added to the cache (and to no source) makes
        // the type that conforms to it a module.
        try workspace.write(
            "public import LifecycleCore\nstruct Late: CachedOnly {\n    init(context: LifecycleContext) {}\n}\n",
            "Feature/Late.swift"
        )
        #expect(try workspace.generate("Feature", mode: .library, dependencies: ["Shared"]).modules.count == 3)
        var tampered = try JSONDecoder().decode(FrameworkCache.self, from: written)
        let added = Declaration(
            kind: .protocol,
            name: "CachedOnly",
            scope: [],
            inherits: ["LifecycleModule"],
            isGeneric: false,
            isInGenericScope: false,
            isPrivate: false,
            isLocal: false,
            conditions: [],
            file: files[0],
            line: 1
        )
        tampered.libraries["LifecycleCore"]?.summary.declarations.append(.init(added, file: 0))
        try JSONEncoder().encode(tampered).write(to: cache)
        let fromCache = try workspace.generate(
            "Feature",
            mode: .library,
            dependencies: ["Shared"],
            frameworkCache: cache
        )
        #expect(fromCache.modules.map(\.name) == ["Search", "Index", "Metrics", "Late"])
    }
}
