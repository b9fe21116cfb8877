import Foundation
import PackagePlugin

/// Generates the module manifest of the target it is applied to.
///
/// - A library target gets `ModuleManifest.<Module>`: its own module types.
/// - An executable or test target gets `ModuleManifest.discovered`: the manifests of every dependency that
///   declares modules (sorted by module name, including targets from other packages), then its own.
///
/// A target whose sources already contain a checked-in `ModuleManifest+<Module>.swift` (written by the
/// `write-module-manifest` command) is left alone.
@main
struct ModuleDiscoveryPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let module = target.moduleName
        let own = target.sourceFiles(withSuffix: "swift").map(\.url)
        if own.contains(where: { $0.lastPathComponent == "ModuleManifest+\(module).swift" }) { return [] }

        let dependencies = target.recursiveTargetDependencies
            .compactMap { $0 as? SwiftSourceModuleTarget }
            .filter { $0.kind == .generic }
        let spec = ManifestSpec(
            module: module,
            mode: target.kind == .generic ? "library" : "aggregate",
            sources: own.map(\.path),
            dependencies: dependencies.map {
                .init(module: $0.moduleName, sources: $0.sourceFiles(withSuffix: "swift").map(\.url.path))
            }
        )
        let specURL = context.pluginWorkDirectoryURL.appendingPathComponent("\(module).manifest-spec.json")
        try writeIfChanged(try spec.encoded(), to: specURL)
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("ModuleManifest+\(module).swift")
        return [
            .buildCommand(
                displayName: "Discovering lifecycle modules in \(target.name)",
                executable: try context.tool(named: "lifecycle-manifest-tool").url,
                arguments: ["--spec", specURL.path, "--output", output.path],
                inputFiles: [specURL] + own + dependencies.flatMap { $0.sourceFiles(withSuffix: "swift").map(\.url) },
                outputFiles: [output]
            )
        ]
    }
}

/// The tool's input. Mirrors `ModuleScanner.ManifestSpec` (a plugin cannot depend on a library target).
struct ManifestSpec: Codable {
    struct DependencySpec: Codable {
        var module: String
        var sources: [String]
    }

    var module: String
    var mode: String
    var sources: [String]
    var dependencies: [DependencySpec]
    var checkedInTarget: String?

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

func writeIfChanged(_ data: Data, to url: URL) throws {
    if (try? Data(contentsOf: url)) != data { try data.write(to: url) }
}
