// Shared by both plugins through a symbolic link in each plugin's folder: a plugin cannot depend on a
// library target, so this mirrors `ModuleScanner.ManifestSpec` (same JSON keys) instead of importing it.

import Foundation
import PackagePlugin

/// The generator tool's input. Mirrors `ModuleScanner.ManifestSpec`.
struct ManifestSpec: Codable {
    struct DependencySpec: Codable {
        var module: String
        var sources: [String]
        var summary: String?
        var possibleInterface: String?
    }

    var module: String
    var mode: String
    var sources: [String]
    var dependencies: [DependencySpec]
    var checkedInTarget: String?
    var excludes: [String]?

    /// The spec for `target`: a library manifest for a library, an aggregate for an executable or test.
    /// `sources` turns a target into the source entries to record (files, or its directory); `summary` gives
    /// the summary to read instead, for a dependency whose own build command writes one, and where its
    /// interface would be when that is not known (`ModuleScanner.ManifestSpec.DependencySpec`).
    init(
        for target: SwiftSourceModuleTarget,
        checkedIn: Bool,
        sources: (SwiftSourceModuleTarget) -> [String],
        summary: (SwiftSourceModuleTarget) -> (confirmed: String?, possibleInterface: String?) = { _ in (nil, nil) }
    ) {
        let dependencies = target.recursiveTargetDependencies
            .compactMap { $0 as? SwiftSourceModuleTarget }
            .filter { $0.kind == .generic }
        self.module = target.moduleName
        self.mode = target.kind == .generic ? "library" : "aggregate"
        self.sources = sources(target)
        self.dependencies = dependencies.map {
            let (confirmed, possibleInterface) = summary($0)
            return DependencySpec(
                module: $0.moduleName,
                sources: sources($0),
                summary: confirmed,
                possibleInterface: possibleInterface
            )
        }
        self.checkedInTarget = checkedIn ? target.name : nil
    }

    /// One line of JSON with sorted keys, byte for byte what `ModuleScanner.ManifestSpec` writes.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// The name of a target's manifest file, generated or checked in.
func manifestFileName(_ target: SwiftSourceModuleTarget) -> String {
    "ModuleManifest+\(target.moduleName).swift"
}
