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
    /// A throwaway package with one target, `Feature`, and a checked-in manifest written as the command would.
    static func makePackage() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("staleness-\(UUID().uuidString)")
        let sources = root.appendingPathComponent("Sources/Feature")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try "// swift-tools-version:6.2\n".write(
            to: root.appendingPathComponent("Package.swift"),
            atomically: true,
            encoding: .utf8
        )
        try "struct Search: LifecycleModule {}\n".write(
            to: sources.appendingPathComponent("Search.swift"),
            atomically: true,
            encoding: .utf8
        )
        let spec = ManifestSpec(
            module: "Feature",
            mode: .library,
            sources: ["Sources/Feature"],
            dependencies: [],
            checkedInTarget: "Feature"
        )
        let manifest = sources.appendingPathComponent("ModuleManifest+Feature.swift")
        let output = try spec.generate(root: root, excluding: [manifest.standardizedFileURL.path])
        try output.text.write(to: manifest, atomically: true, encoding: .utf8)
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
        try "struct Billing: LifecycleModule {}\n".write(
            to: root.appendingPathComponent("Sources/Feature/Billing.swift"),
            atomically: true,
            encoding: .utf8
        )
        let error = #expect(throws: StaleManifestError.self) {
            try checkModuleManifestIsFresh(at: "Sources/Feature/ModuleManifest+Feature.swift", packageRoot: root.path)
        }
        #expect(
            error?.command
                == "swift package --allow-writing-to-package-directory write-module-manifest --target Feature"
        )
        #expect(error?.added.contains { $0.contains("modules.append(Billing.self)") } == true)
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
        let external = base.appendingPathComponent("Checkouts/Dep/Sources/Dep")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources/Feature"),
            withIntermediateDirectories: true
        )
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try "// swift-tools-version:6.2\n".write(
            to: root.appendingPathComponent("Package.swift"),
            atomically: true,
            encoding: .utf8
        )
        try "public protocol FeatureModule: LifecycleModule {}\n".write(
            to: external.appendingPathComponent("Dep.swift"),
            atomically: true,
            encoding: .utf8
        )
        try "struct Search: FeatureModule {}\n".write(
            to: root.appendingPathComponent("Sources/Feature/Search.swift"),
            atomically: true,
            encoding: .utf8
        )
        let spec = ManifestSpec(
            module: "Feature",
            mode: .library,
            sources: ["Sources/Feature"],
            dependencies: [.init(module: "Dep", sources: ["../Checkouts/Dep/Sources/Dep"])],
            checkedInTarget: "Feature"
        )
        let manifest = root.appendingPathComponent("Sources/Feature/ModuleManifest+Feature.swift")
        let output = try spec.generate(root: root, excluding: [manifest.standardizedFileURL.path])
        try output.text.write(to: manifest, atomically: true, encoding: .utf8)
        #expect(output.text.contains("modules.append(Search.self)"))
        #expect(output.text.contains(#""implies":["FeatureModule"]"#))
        #expect(!output.text.contains("Checkouts"))

        // The build folder moves (another scratch path, a fresh clone): the check still regenerates.
        try FileManager.default.removeItem(at: base.appendingPathComponent("Checkouts"))
        try checkModuleManifestIsFresh(at: "Sources/Feature/ModuleManifest+Feature.swift", packageRoot: root.path)
    }
}
