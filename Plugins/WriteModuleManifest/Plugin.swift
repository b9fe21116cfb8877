import Foundation
import PackagePlugin

/// Writes `ModuleManifest+<Module>.swift` into each named target's directory, for teams that want the
/// manifest in code review:
///
///     swift package --allow-writing-to-package-directory write-module-manifest --target MyFeature
///
/// The file records how it was made; `LifecycleTesting.checkModuleManifestIsFresh(at:)` regenerates it in
/// a test and fails with this command when it is stale. `ModuleDiscoveryPlugin` skips a target that has
/// a checked-in manifest.
@main
struct WriteModuleManifest: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        guard !names.isEmpty else {
            Diagnostics.error("Name the targets to write: write-module-manifest --target <name> [--target <name> …]")
            return
        }
        let root = context.package.directoryURL
        let tool = try context.tool(named: "lifecycle-manifest-tool").url
        for target in try context.package.targets(named: names) {
            guard let target = target as? SwiftSourceModuleTarget else {
                Diagnostics.error("\(target.name) is not a Swift target")
                continue
            }
            var spec = ManifestSpec(for: target, checkedIn: true) { [relativePath(of: $0.directoryURL, from: root)] }
            spec.excludes = excludedFiles(of: target, root: root)
            let specURL = context.pluginWorkDirectoryURL.appendingPathComponent(
                "\(target.moduleName).checked-in-spec.json"
            )
            try spec.encoded().write(to: specURL)
            let output = target.directoryURL.appendingPathComponent(manifestFileName(target))

            let process = Process()
            process.executableURL = tool
            process.arguments = ["--spec", specURL.path, "--output", output.path, "--root", root.path]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                Diagnostics.error("lifecycle-manifest-tool failed for \(target.name)")
                continue
            }
            print("Wrote \(relativePath(of: output, from: root))")
        }
    }
}

/// The Swift files under the target's folder that are not among its sources (`exclude:` in
/// Package.swift), relative to `root`, so the staleness check leaves them out as the build does.
func excludedFiles(of target: SwiftSourceModuleTarget, root: URL) -> [String]? {
    let sources = Set(target.sourceFiles(withSuffix: "swift").map { $0.url.standardizedFileURL.path })
    var excluded: [String] = []
    let enumerator = FileManager.default.enumerator(at: target.directoryURL, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
        let path = url.standardizedFileURL.path
        guard path.hasSuffix(".swift"), !sources.contains(path), url.lastPathComponent != manifestFileName(target)
        else {
            continue
        }
        excluded.append(relativePath(of: url, from: root))
    }
    return excluded.isEmpty ? nil : excluded.sorted()
}

/// `path` relative to `root`, with `..` where it lies outside, so the file stays valid in any clone.
func relativePath(of url: URL, from root: URL) -> String {
    let target = url.standardizedFileURL.pathComponents
    let base = root.standardizedFileURL.pathComponents
    var common = 0
    while common < min(target.count, base.count), target[common] == base[common] { common += 1 }
    let up = Array(repeating: "..", count: base.count - common)
    let parts = up + target[common...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
}
