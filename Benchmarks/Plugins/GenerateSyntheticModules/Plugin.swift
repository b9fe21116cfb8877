import Foundation
import PackagePlugin

/// Generates the source of the `GeneratedModules` and `GeneratedServices` targets: non-generic module
/// types, written into the plugin's work directory (never into the package, and never checked in).
@main
struct GenerateSyntheticModules: BuildToolPlugin {
    /// What each target gets: the generator's mode, and how many types. 10,000 modules is the largest N
    /// the build rows measure; 1,000 providers of ten services each is the registry-build goal's size.
    static let outputs: [String: (mode: String, count: Int, file: String)] = [
        "GeneratedModules": ("modules", 10_000, "GeneratedModuleTypes.swift"),
        "GeneratedServices": ("services", 1_000, "GeneratedServiceTypes.swift"),
    ]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let (mode, count, file) = Self.outputs[target.name] else {
            throw GenerationError(target: target.name)
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent(file)
        return [
            .buildCommand(
                displayName: "Generating \(count) synthetic \(mode) types for \(target.name)",
                executable: try context.tool(named: "synthetic-module-generator").url,
                arguments: [mode, output.path, String(count)],
                inputFiles: [],
                outputFiles: [output]
            )
        ]
    }
}

/// The plugin was applied to a target it has nothing for.
struct GenerationError: Error, CustomStringConvertible {
    let target: String
    var description: String {
        "GenerateSyntheticModules generates only for \(GenerateSyntheticModules.outputs.keys.sorted()), not '\(target)'"
    }
}
