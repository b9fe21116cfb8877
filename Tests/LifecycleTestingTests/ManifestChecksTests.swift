import Foundation
import LifecycleCore
import LifecycleTesting
import ModuleScanner
import Testing

@Suite("Completeness check")
struct CompletenessCheckTests {
    /// Every conforming fixture of this test target (see RuntimeConformancesTests).
    static let all: [any LifecycleModule.Type] = [
        ActorModule.self, BaseClassModule.self, ConcreteSubclassModule.self, EnumModule.self, ExtensionModule.self,
        FinalClassModule.self, GrandchildModule.self, Namespace.NestedModule.self, RefinedModule.self,
        StructModule.self, SubclassModule.self,
    ]

    @Test("A manifest listing every module type of its source modules passes")
    func completeManifestPasses() throws {
        try verifyModuleManifestCompleteness(
            ModuleManifest(name: "Fixtures", sourceModules: ["LifecycleTestingTests"], Self.all)
        )
    }

    @Test("A manifest missing types fails, naming each missing type")
    func missingTypesAreNamed() {
        let partial = Self.all.filter { $0 != EnumModule.self && $0 != GrandchildModule.self }
        let error = #expect(throws: ManifestCompletenessError.self) {
            try verifyModuleManifestCompleteness(
                ModuleManifest(name: "Fixtures", sourceModules: ["LifecycleTestingTests"], partial)
            )
        }
        #expect(error?.missing == ["LifecycleTestingTests.EnumModule", "LifecycleTestingTests.GrandchildModule"])
        #expect(error?.notConforming == [])
        #expect(
            error?.description.contains("missing: LifecycleTestingTests.EnumModule conforms to LifecycleModule") == true
        )
    }

    @Test("A hand-written manifest is compared within the modules of its entries")
    func handWrittenManifestScope() {
        let error = #expect(throws: ManifestCompletenessError.self) {
            try verifyModuleManifestCompleteness(ModuleManifest([StructModule.self]))
        }
        #expect(error?.modules == ["LifecycleTestingTests"])
        #expect(error?.missing.count == Self.all.count - 1)
    }

    @Test("Modules outside the compared scope are not reported")
    func scopeLimitsTheCheck() throws {
        try verifyModuleManifestCompleteness(ModuleManifest(name: "Other", sourceModules: ["SomeOtherModule"], []))
    }
}

@Suite("Staleness check")
struct StalenessCheckTests {
    /// Writes `text` at `path` under `root`, creating folders as needed.
    static func write(_ text: String, _ path: String, under root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Writes the checked-in manifest of target `Feature` under `root`, as the command would, and returns it.
    @discardableResult
    static func writeCheckedIn(_ spec: ManifestSpec, under root: URL) throws -> String {
        let manifest = root.appendingPathComponent("Sources/Feature/ModuleManifest+Feature.swift")
        let text = try spec.generate(root: root, excluding: [manifest.standardizedFileURL.path]).text
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return text
    }

    /// A throwaway package with one target, `Feature`, and a checked-in manifest written as the command would.
    static func makePackage() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("staleness-\(UUID().uuidString)")
        try write("// swift-tools-version:6.2\n", "Package.swift", under: root)
        try write("struct Search: LifecycleModule {}\n", "Sources/Feature/Search.swift", under: root)
        let spec = ManifestSpec(
            module: "Feature",
            mode: .library,
            sources: ["Sources/Feature"],
            dependencies: [],
            checkedInTarget: "Feature"
        )
        try writeCheckedIn(spec, under: root)
        return root
    }

    @Test("A checked-in manifest that matches its sources passes")
    func freshManifestPasses() throws {
        let root = try Self.makePackage()
        defer { try? FileManager.default.removeItem(at: root) }
        try checkModuleManifestIsFresh(at: "Sources/Feature/ModuleManifest+Feature.swift", packageRoot: root.path)
    }

    @Test("A module added since the manifest was written makes it stale, with the exact command to run")
    func staleManifestFails() throws {
        let root = try Self.makePackage()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write("struct Billing: LifecycleModule {}\n", "Sources/Feature/Billing.swift", under: root)
        let error = #expect(throws: StaleManifestError.self) {
            try checkModuleManifestIsFresh(at: "Sources/Feature/ModuleManifest+Feature.swift", packageRoot: root.path)
        }
        #expect(
            error?.command
                == "swift package --allow-writing-to-package-directory write-module-manifest --target Feature"
        )
        #expect(error?.added.contains { $0.contains("modules.append(DeclaredModule(Billing.self)") } == true)
        #expect(
            error?.description.contains(
                "Run: swift package --allow-writing-to-package-directory write-module-manifest --target Feature"
            ) == true
        )
    }

    @Test("A file that is not a checked-in manifest is reported as such")
    func notAManifest() throws {
        let root = try Self.makePackage()
        defer { try? FileManager.default.removeItem(at: root) }
        let error = #expect(throws: StaleManifestError.self) {
            try checkModuleManifestIsFresh(at: "Sources/Feature/Search.swift", packageRoot: root.path)
        }
        #expect(error?.description.contains("write-module-manifest") == true)
    }

    @Test("A dependency outside the package is recorded by the names it contributes, not by its path")
    func externalDependencyIsRecorded() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("external-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("App")
        try Self.write("// swift-tools-version:6.2\n", "Package.swift", under: root)
        try Self.write(
            "public protocol FeatureModule: LifecycleModule {}\n",
            "Checkouts/Dep/Sources/Dep/Dep.swift",
            under: base
        )
        try Self.write("struct Search: FeatureModule {}\n", "Sources/Feature/Search.swift", under: root)
        let spec = ManifestSpec(
            module: "Feature",
            mode: .library,
            sources: ["Sources/Feature"],
            dependencies: [.init(module: "Dep", sources: ["../Checkouts/Dep/Sources/Dep"])],
            checkedInTarget: "Feature"
        )
        let text = try Self.writeCheckedIn(spec, under: root)
        #expect(text.contains("modules.append(DeclaredModule(Search.self))  // conformances read at run time"))
        #expect(text.contains(#""implies":["FeatureModule"]"#))
        #expect(!text.contains("Checkouts"))

        // The build folder moves (another scratch path, a fresh clone): the check still regenerates.
        try FileManager.default.removeItem(at: base.appendingPathComponent("Checkouts"))
        try checkModuleManifestIsFresh(at: "Sources/Feature/ModuleManifest+Feature.swift", packageRoot: root.path)
    }
}
