import Foundation
public import LifecycleCore
import ModuleScanner

/// Thrown by ``verifyModuleManifestCompleteness(_:modules:)``: module types the manifest misses, or lists
/// without the runtime knowing them as modules.
public struct ManifestCompletenessError: Error, Sendable, CustomStringConvertible {
    /// The manifest checked.
    public let manifest: String
    /// The Swift modules whose types were compared.
    public let modules: [String]
    /// Types that conform to `LifecycleModule` in those modules but are not in the manifest.
    public let missing: [String]
    /// Manifest entries the runtime does not list as `LifecycleModule` conformers.
    public let notConforming: [String]

    public var description: String {
        let named = manifest == ModuleManifest.defaultName ? "The manifest" : "Manifest `\(manifest)`"
        var lines = ["\(named) does not match the module types in \(modules.joined(separator: ", ")):"]
        for name in missing {
            lines.append(
                "  missing: \(name) conforms to LifecycleModule but is not in the manifest. The scanner cannot see "
                    + "how it conforms (for example through a macro or a conformance it cannot parse): list it in "
                    + "a hand-written manifest combined with the generated one, or declare the conformance plainly. "
                    + "If it is a fixture kept out on purpose (`// module-discovery: ignore`), leave its Swift "
                    + "module out of the check: `verifyModuleManifestCompleteness(manifest, modules: [...])`."
            )
        }
        for name in notConforming {
            lines.append(
                "  not a module: \(name) is in the manifest, but the runtime has no conformance record for it."
            )
        }
        return lines.joined(separator: "\n")
    }
}

/// Checks that `manifest` lists every module type the test binary contains, and nothing else.
///
/// Call it from one test, with the manifest your program uses:
///
/// ```swift
/// @Test func everyModuleIsInTheManifest() throws {
///     try verifyModuleManifestCompleteness(.discovered)
/// }
/// ```
///
/// The check reads the Swift runtime's conformance records (every non-generic type that conforms to
/// `LifecycleModule`, directly, through a refined protocol or through a superclass) and compares them
/// with the manifest, for the Swift modules in `modules` — by default the modules a generated manifest was
/// built from (`ModuleManifest.sourceModules`), or, for a hand-written one, the modules of
/// its entries. Private and local types are skipped: no manifest can name them, and the build plugin
/// already warns about each. A type kept out of discovery with `// module-discovery: ignore` is not: the
/// runtime cannot read comments, so check only the modules that hold no such fixture (a test target's
/// `.discovered` includes the test target's own Swift module; pass `modules:` without it).
///
/// It uses private runtime ABI, so it belongs in tests only; nothing on the production path depends on it.
public func verifyModuleManifestCompleteness(
    _ manifest: ModuleManifest,
    modules: [String]? = nil
) throws(ManifestCompletenessError) {
    let listed = Set(manifest.entries.map(\.moduleName).filter(isNameable))
    let scope = Set(
        modules ?? (manifest.sourceModules.isEmpty ? manifest.entries.map(moduleOf) : manifest.sourceModules)
    )
    let runtime = Set(
        runtimeModuleTypes().map { String(reflecting: $0) }.filter { scope.contains(moduleOf($0)) && isNameable($0) }
    )
    let missing = runtime.subtracting(listed).sorted()
    let notConforming = listed.filter { scope.contains(moduleOf($0)) }.subtracting(runtime).sorted()
    guard missing.isEmpty, notConforming.isEmpty else {
        throw ManifestCompletenessError(
            manifest: manifest.name,
            modules: scope.sorted(),
            missing: missing,
            notConforming: notConforming
        )
    }
}

private func moduleOf(_ entry: ModuleManifest.Entry) -> String { moduleOf(entry.moduleName) }

private func moduleOf(_ qualifiedName: String) -> String {
    String(qualifiedName.prefix { $0 != "." })
}

/// Whether generated code could name the type and the runtime scan can see it: not private
/// (`(unknown context at …)`), not local, not a generic specialization (`Box<Int>`).
private func isNameable(_ qualifiedName: String) -> Bool {
    !qualifiedName.contains("(") && !qualifiedName.contains("<")
}

/// Thrown by ``checkModuleManifestIsFresh(at:packageRoot:filePath:)`` when a checked-in manifest no longer
/// matches the sources.
public struct StaleManifestError: Error, Sendable, CustomStringConvertible {
    /// The checked-in manifest.
    public let path: String
    /// The command that rewrites it.
    public let command: String
    /// Lines the regenerated manifest has and the checked-in one lacks.
    public let added: [String]
    /// Lines the checked-in manifest has and the regenerated one lacks.
    public let removed: [String]
    /// Why the check could not run, when it could not.
    public let problem: String?

    public var description: String {
        if let problem { return "\(path): \(problem)" }
        var lines = ["\(path) is stale: the sources have changed since it was written."]
        lines += added.map { "  + \($0.trimmingCharacters(in: .whitespaces))" }
        lines += removed.map { "  - \($0.trimmingCharacters(in: .whitespaces))" }
        lines.append("Run: \(command)")
        return lines.joined(separator: "\n")
    }
}

/// Checks that a checked-in manifest (written by `swift package … write-module-manifest`) still matches
/// the sources: it regenerates the manifest in-process, exactly as the command would, and compares.
///
/// ```swift
/// @Test func checkedInManifestIsFresh() throws {
///     try checkModuleManifestIsFresh(at: "Sources/Feature/ModuleManifest+Feature.swift")
/// }
/// ```
///
/// - Parameters:
///   - path: The manifest, relative to the package root (or absolute).
///   - packageRoot: The package root. By default, the nearest directory above `filePath` with a
///     `Package.swift`.
///   - filePath: The calling test file, used to find the package root. Leave the default.
/// - Throws: ``StaleManifestError``, naming the exact command to run.
public func checkModuleManifestIsFresh(
    at path: String,
    packageRoot: String? = nil,
    filePath: String = #filePath
) throws(StaleManifestError) {
    let root = packageRoot.map { URL(fileURLWithPath: $0) } ?? findPackageRoot(from: URL(fileURLWithPath: filePath))
    let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
    func problem(_ text: String) -> StaleManifestError {
        StaleManifestError(path: path, command: "", added: [], removed: [], problem: text)
    }
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        throw problem("cannot read it (package root: \(root.path))")
    }
    guard let spec = ManifestSpec.fromCheckedInManifest(text), let target = spec.checkedInTarget else {
        throw problem("it has no `\(ManifestSpec.headerMarker)` line: write it with the write-module-manifest command")
    }
    let command = ManifestSpec.regenerateCommand(target: target)
    let regenerated: String
    do {
        regenerated = try spec.generate(root: root, excluding: [url.standardizedFileURL.path]).text
    } catch {
        throw problem("cannot regenerate it: \(error). Run: \(command)")
    }
    guard regenerated != text else { return }
    let old = text.split(separator: "\n").map(String.init)
    let new = regenerated.split(separator: "\n").map(String.init)
    throw StaleManifestError(
        path: path,
        command: command,
        added: new.filter { !old.contains($0) },
        removed: old.filter { !new.contains($0) },
        problem: nil
    )
}

private func findPackageRoot(from file: URL) -> URL {
    var directory = file.deletingLastPathComponent()
    while directory.path != "/" {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            return directory
        }
        directory.deleteLastPathComponent()
    }
    return file.deletingLastPathComponent()
}
