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
        guard let target = target as? SwiftSourceModuleTarget, target.kind != .macro else { return [] }
        let own = target.sourceFiles(withSuffix: "swift").map(\.url)
        if own.contains(where: { $0.lastPathComponent == manifestFileName(target) }) { return [] }

        let spec = ManifestSpec(for: target, checkedIn: false) { $0.sourceFiles(withSuffix: "swift").map(\.url.path) }
        let specURL = context.pluginWorkDirectoryURL.appendingPathComponent("\(target.moduleName).manifest-spec.json")
        let data = try spec.encoded()
        if (try? Data(contentsOf: specURL)) != data { try data.write(to: specURL) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent(manifestFileName(target))
        let scanned = (spec.sources + spec.dependencies.flatMap(\.sources)).map { URL(fileURLWithPath: $0) }
        return [
            .buildCommand(
                displayName: "Discovering lifecycle modules in \(target.name)",
                executable: try context.tool(named: "lifecycle-manifest-tool").url,
                arguments: ["--spec", specURL.path, "--output", output.path],
                inputFiles: [specURL] + scanned,
                outputFiles: [output]
            )
        ]
    }
}
