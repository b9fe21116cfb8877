import Foundation
import PackagePlugin

/// Generates the module manifest of the target it is applied to.
///
/// - A library target gets `ModuleManifest.<Module>`: its own module types. Its command also writes a
///   summary (`<Module>.discovery-summary.json`, which executables and tests depending on it read instead
///   of its sources) and an interface (`<Module>.discovery-interface.json`, which libraries read). Editing
///   a file reruns discovery in its own target, and in a dependent only when what that dependent reads
///   changed.
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

        let work = context.pluginWorkDirectoryURL
        let summaries = SummaryLocator(context: context, target: target)
        let spec = ManifestSpec(
            for: target,
            checkedIn: false,
            sources: { $0.sourceFiles(withSuffix: "swift").map(\.url.path) },
            summary: { summaries.summary(of: $0, interface: target.kind == .generic) }
        )
        let specURL = work.appendingPathComponent("\(target.moduleName).manifest-spec.json")
        let data = try spec.encoded()
        if (try? Data(contentsOf: specURL)) != data { try data.write(to: specURL) }
        let output = work.appendingPathComponent(manifestFileName(target))
        // Not an output: a cache the tool checks against the sources it came from, and reads from the targets
        // it depends on too (`FrameworkCache`).
        var arguments = [
            "--spec", specURL.path, "--output", output.path,
            "--framework-cache", work.appendingPathComponent(frameworkCacheName(target.moduleName)).path,
        ]
        for dependency in target.recursiveTargetDependencies.compactMap({ $0 as? SwiftSourceModuleTarget })
        where dependency.kind == .generic {
            guard let directory = summaries.workDirectory(of: dependency) else { continue }
            let cache = directory.appendingPathComponent(frameworkCacheName(dependency.moduleName))
            arguments += ["--shared-framework-cache", cache.path]
        }
        var outputs = [output]
        if target.kind == .generic {
            let summary = work.appendingPathComponent(summaryFileName(target.moduleName, interface: false))
            let interface = work.appendingPathComponent(summaryFileName(target.moduleName, interface: true))
            arguments += ["--summary", summary.path, "--interface", interface.path]
            outputs += [summary, interface]
            // Tells dependents' plugins that this target's command writes the summary (`SummaryLocator`).
            try Data().write(to: work.appendingPathComponent(appliedMarkerName(target.moduleName)))
        }
        var inputs = [specURL] + spec.sources.map { URL(fileURLWithPath: $0) }
        for dependency in spec.dependencies {
            inputs +=
                dependency.summary.map { [URL(fileURLWithPath: $0)] }
                ?? dependency.sources.map {
                    URL(fileURLWithPath: $0)
                }
        }
        return [
            .buildCommand(
                displayName: "Discovering lifecycle modules in \(target.name)",
                executable: try context.tool(named: "lifecycle-manifest-tool").url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: outputs
            )
        ]
    }
}

/// The summary a dependency's own discovery command writes, when the dependency applies this plugin.
///
/// A plugin cannot ask whether another target applies it, so the answer comes from that target's work
/// directory, beside this target's (`<outputs>/<package>/<target>/…/ModuleDiscoveryPlugin`): its plugin
/// rewrites a marker there each time it runs. The summary is a build input only when the marker is newer
/// than the dependency's package manifest, so a target that stopped applying the plugin is scanned from
/// its sources again.
///
/// When that is not known (the dependency's plugin has not run yet in this build: SwiftPM runs plugins in no
/// set order, so this happens in a clean build), its sources are the inputs, and a library is told where
/// the dependency's interface would be: the tool reads it if it is newer than all of those sources, as it
/// is when the dependency's command ran first, and scans the sources otherwise.
struct SummaryLocator {
    private let workDirectory: [String]
    private let index: Int?
    private let packages: [Target.ID: Package]

    init(context: PluginContext, target: Target) {
        let workDirectory = context.pluginWorkDirectoryURL.standardizedFileURL.pathComponents
        self.workDirectory = workDirectory
        var packages: [Target.ID: Package] = [:]
        var seen = Set<Package.ID>()
        var pending = [context.package]
        while let package = pending.popLast() {
            guard seen.insert(package.id).inserted else { continue }
            for other in package.targets where packages[other.id] == nil { packages[other.id] = package }
            pending += package.dependencies.map(\.package)
        }
        self.packages = packages
        // The components naming this target's package and the target itself.
        let candidate = workDirectory.lastIndex(of: target.name)
        index = candidate.flatMap { $0 > 0 && workDirectory[$0 - 1] == context.package.id ? $0 : nil }
    }

    /// The summary file of `dependency` (its interface, for a library) when it is a build input, or else
    /// where its interface would be (for a library); `nil` when its sources must be scanned.
    func summary(
        of dependency: SwiftSourceModuleTarget,
        interface: Bool
    ) -> (confirmed: String?, possibleInterface: String?) {
        guard let directory = workDirectory(of: dependency), let package = packages[dependency.id] else {
            return (nil, nil)
        }
        let path = directory.appendingPathComponent(summaryFileName(dependency.moduleName, interface: interface)).path
        let unknown = (confirmed: String?.none, possibleInterface: interface ? path : nil)
        let marker = directory.appendingPathComponent(appliedMarkerName(dependency.moduleName))
        guard let applied = modificationDate(marker),
            let manifests = try? FileManager.default.contentsOfDirectory(atPath: package.directoryURL.path)
        else { return unknown }
        let manifestDates = manifests.filter { $0.hasPrefix("Package") && $0.hasSuffix(".swift") }.compactMap {
            modificationDate(package.directoryURL.appendingPathComponent($0))
        }
        guard let newestManifest = manifestDates.max(), applied >= newestManifest else { return unknown }
        return (path, nil)
    }

    /// The work directory this plugin has, or would have, for `target`.
    func workDirectory(of target: SwiftSourceModuleTarget) -> URL? {
        guard let index, let package = packages[target.id] else { return nil }
        var components = workDirectory
        components[index - 1] = package.id
        components[index] = target.name
        return components.dropFirst().reduce(URL(fileURLWithPath: "/")) {
            $0.appendingPathComponent($1, isDirectory: true)
        }
    }

    private func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}

/// The summary (for executables and tests) or the interface (for libraries) a library target's discovery
/// command writes for its dependents.
func summaryFileName(_ module: String, interface: Bool) -> String {
    "\(module).discovery-\(interface ? "interface" : "summary").json"
}

/// The cache of ModuleLifecycle's own declarations a target's discovery command keeps.
func frameworkCacheName(_ module: String) -> String { "\(module).framework-declarations.json" }

/// The marker a library target's plugin rewrites each time it runs.
func appliedMarkerName(_ module: String) -> String { "\(module).plugin-applied" }
