import Foundation
import PackagePlugin

/// Generates the source of the `GeneratedModules` target: 10,000 non-generic module types, written
/// once into the plugin's work directory (never into the package, and never checked in).
@main
struct GenerateSyntheticModules: BuildToolPlugin {
    /// How many types to generate: the largest N the benchmark measures.
    static let count = 10_000

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedModuleTypes.swift")
        return [
            .buildCommand(
                displayName: "Generating \(Self.count) synthetic module types for \(target.name)",
                executable: try context.tool(named: "synthetic-module-generator").url,
                arguments: [output.path, String(Self.count)],
                inputFiles: [],
                outputFiles: [output]
            )
        ]
    }
}
