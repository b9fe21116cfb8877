public import Foundation

/// Everything needed to generate one manifest: what the plugins hand the tool, and what a checked-in
/// manifest records in its header so the staleness check can regenerate it.
///
/// Source entries are files or directories (every `.swift` file below, recursively), absolute or relative
/// to a root directory.
public struct ManifestSpec: Codable, Sendable, Hashable {
    public struct DependencySpec: Codable, Sendable, Hashable {
        public var module: String
        public var sources: [String]
        /// For a dependency recorded rather than scanned (another package, in a checked-in manifest): the
        /// names it declares that imply conformance (refined protocols, typealiases, base classes).
        public var implies: [String]?
        /// For a recorded dependency: whether it declares modules (an aggregate includes its manifest).
        public var hasModules: Bool?
        /// For a dependency that applies the discovery plugin too: the summary its build command writes
        /// (`DiscoverySummary`), read instead of `sources`. When it cannot be read, `sources` are scanned.
        public var summary: String?
        /// For a dependency the plugin could not tell applies it (its plugin had not run yet in this build):
        /// where its interface would be. Read instead of `sources` only when it is newer than every one of
        /// them, which an interface (the declarations of those files alone) then describes exactly.
        public var possibleInterface: String?

        public init(
            module: String,
            sources: [String],
            implies: [String]? = nil,
            hasModules: Bool? = nil,
            summary: String? = nil,
            possibleInterface: String? = nil
        ) {
            self.module = module
            self.sources = sources
            self.implies = implies
            self.hasModules = hasModules
            self.summary = summary
            self.possibleInterface = possibleInterface
        }

        /// The summary to read instead of the sources below `root`; `nil` to scan them.
        func readableSummary(root: URL, files: (URL) throws -> [String]) -> DiscoverySummary? {
            if let summary, let read = DiscoverySummary.read(summary, module: module) { return read }
            guard let possibleInterface, let written = Self.modificationDate(possibleInterface) else { return nil }
            for entry in sources {
                let url = entry.hasPrefix("/") ? URL(fileURLWithPath: entry) : root.appendingPathComponent(entry)
                guard let paths = try? files(url) else { return nil }
                for path in paths {
                    guard let modified = Self.modificationDate(path), modified <= written else { return nil }
                }
            }
            return DiscoverySummary.read(possibleInterface, module: module)
        }

        private static func modificationDate(_ path: String) -> Date? {
            (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
    }

    public var module: String
    public var mode: String
    public var sources: [String]
    public var dependencies: [DependencySpec]
    /// For a checked-in manifest: the target name the regenerate command names.
    public var checkedInTarget: String?
    /// Files under `sources` the target excludes (relative to the root), left out of the scan.
    public var excludes: [String]?

    public init(
        module: String,
        mode: ManifestGenerator.Mode,
        sources: [String],
        dependencies: [DependencySpec],
        checkedInTarget: String? = nil
    ) {
        self.module = module
        self.mode = mode.rawValue
        self.sources = sources
        self.dependencies = dependencies
        self.checkedInTarget = checkedInTarget
    }

    /// The marker that introduces the spec in a checked-in manifest's header.
    public static let headerMarker = "lifecycle-manifest-spec: "

    /// The command that regenerates a checked-in manifest for `target`.
    public static func regenerateCommand(target: String) -> String {
        let plain = target.allSatisfy { $0.isLetter || $0.isNumber || "_-.".contains($0) }
        let quoted = plain ? target : "'" + target.replacingAll("'", with: "'\\''") + "'"
        return "swift package --allow-writing-to-package-directory write-module-manifest --target \(quoted)"
    }

    /// The spec as one line of JSON with sorted keys, so equal specs print equally.
    public func encodedLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Reads the spec back from a checked-in manifest's text.
    public static func fromCheckedInManifest(_ text: String) -> ManifestSpec? {
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: headerMarker) else { continue }
            return try? JSONDecoder().decode(ManifestSpec.self, from: Data(line[range.upperBound...].utf8))
        }
        return nil
    }

    /// Collects the sources below `root`, scans them and renders the manifest. `excluding` lists files to
    /// leave out (the manifest being written, for a checked-in one).
    ///
    /// A checked-in manifest must regenerate identically in any clone and with any build folder, so for
    /// it, a dependency outside `root` (another package, often under the build folder's checkouts) is
    /// recorded in the header as the names it contributes instead of by path.
    ///
    /// A source that cannot be read is an error naming it (discovery would be incomplete without it), and
    /// one that is not valid UTF-8 is scanned with replacement characters, with a warning naming it.
    ///
    /// `frameworkCache` is a file where the declarations of ModuleLifecycle's own libraries are kept between
    /// runs, read back while their sources are unchanged (`FrameworkCache`); `sharedFrameworkCaches` are the
    /// same files of other targets, read (never written) for what this one does not hold yet.
    public func generate(
        root: URL,
        excluding: Set<String> = [],
        frameworkCache: URL? = nil,
        sharedFrameworkCaches: [URL] = []
    ) throws -> ManifestGenerator.Output {
        var files: [String: String] = [:]
        var unreadable: [ScanDiagnostic] = []
        let excluded = excluding.union(
            (excludes ?? []).map { root.appendingPathComponent($0).standardizedFileURL.path }
        )
        func expand(_ entries: [String]) throws -> [String] {
            var paths: [String] = []
            for entry in entries {
                let url = entry.hasPrefix("/") ? URL(fileURLWithPath: entry) : root.appendingPathComponent(entry)
                for path in try swiftFiles(at: url) where !excluded.contains(path) {
                    if files[path] == nil {
                        let (text, problem) = Self.read(path)
                        files[path] = text
                        if let problem { unreadable.append(problem) }
                    }
                    paths.append(path)
                }
            }
            return paths
        }
        let own = try expand(sources)
        // A dependency with a readable summary is not scanned again: its summary stands for its sources. A
        // checked-in manifest scans sources: it must regenerate the same anywhere, summaries or not.
        var summaries: [String: DiscoverySummary] = [:]
        let isFramework = { (dependency: DependencySpec) in
            ManifestGenerator.frameworkModules.contains(dependency.module)
        }
        // Each of ModuleLifecycle's own libraries linked, with the stamps of its files, when a cache is kept.
        var wanted: [String: [String]] = [:]
        var cached: [String: DiscoverySummary] = [:]
        var ownCacheComplete = true
        if let frameworkCache, checkedInTarget == nil {
            for dependency in dependencies where isFramework(dependency) {
                let urls = dependency.sources.map {
                    $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : root.appendingPathComponent($0)
                }
                if let stamps = FrameworkCache.stamps(of: try urls.flatMap { try swiftFiles(at: $0) }) {
                    wanted[dependency.module] = stamps
                }
            }
            cached = FrameworkCache.read([frameworkCache], wanted: wanted)
            ownCacheComplete = cached.count == wanted.count
            if !ownCacheComplete {
                let missing = wanted.filter { cached[$0.key] == nil }
                cached.merge(FrameworkCache.read(sharedFrameworkCaches, wanted: missing)) { own, _ in own }
            }
        }
        var expanded: [(spec: DependencySpec, paths: [String])] = []
        for dependency in dependencies {
            if checkedInTarget == nil,
                let summary = dependency.readableSummary(root: root, files: swiftFiles(at:))
            {
                summaries[dependency.module] = summary
                expanded.append((dependency, summary.files.sorted()))
            } else if let summary = cached[dependency.module] {
                summaries[dependency.module] = summary
                expanded.append((dependency, summary.files.sorted()))
            } else {
                expanded.append((dependency, try expand(dependency.sources)))
            }
        }
        // The aggregate never lists or checks ModuleLifecycle's own libraries: only their declarations count.
        let framework = expanded.filter { isFramework($0.spec) }
        var parsed = ParsedSources(
            files.map { SourceFile(path: $0.key, text: $0.value) },
            declarationsOnly: Set(framework.flatMap(\.paths)).subtracting(own)
        )
        for summary in summaries.values { parsed.insert(summary) }
        if let frameworkCache, !ownCacheComplete {
            let declarations = framework.filter { wanted[$0.spec.module] != nil }.map {
                DiscoverySummary(
                    module: $0.spec.module,
                    hasManifest: false,
                    modules: [],
                    declarations: parsed.declarations(in: $0.paths),
                    serviceMentions: [],
                    dependencyMentions: []
                )
            }
            FrameworkCache.write(declarations, wanted: wanted, to: frameworkCache)
        }
        var recorded = self
        if checkedInTarget != nil {
            let rootPath = root.standardizedFileURL.path + "/"
            let allPaths = expanded.flatMap(\.paths)
            // A target of route interceptors or scope actions only has a manifest to include too.
            let routing = expanded.contains { $0.spec.module == RoutingScan.module }
            let routingPaths = expanded.filter { $0.spec.module == RoutingScan.module }.flatMap(\.paths)
            let scanned = expanded.map { ManifestGenerator.Dependency(module: $0.spec.module, paths: $0.paths) }
            for index in expanded.indices where expanded[index].paths.contains(where: { !$0.hasPrefix(rootPath) }) {
                let paths = expanded[index].paths
                let scan = ModuleScan.scan(parsed, modulePaths: paths, contextPaths: allPaths)
                let interceptors =
                    !routing
                    ? []
                    : RoutingScan.interceptors(
                        parsed,
                        modulePaths: paths,
                        contextPaths: allPaths,
                        routingPaths: routingPaths
                    )
                    .interceptors
                let actions = ScopeScan.actions(parsed, modulePaths: paths, dependencies: scanned).actions
                expanded[index].spec = DependencySpec(
                    module: expanded[index].spec.module,
                    sources: [],
                    implies: ModuleScan.implyingNames(parsed, paths: paths, contextPaths: allPaths),
                    hasModules: !scan.modules.isEmpty || !interceptors.isEmpty || !actions.isEmpty
                )
                expanded[index].paths = []
            }
            recorded.dependencies = expanded.map(\.spec)
            parsed = ParsedSources(
                files.filter { path, _ in own.contains(path) || expanded.contains { $0.paths.contains(path) } }.map {
                    SourceFile(path: $0.key, text: $0.value)
                }
            )
        }
        var header: [String] = []
        if let checkedInTarget {
            header.append("Checked in. Regenerate with: \(Self.regenerateCommand(target: checkedInTarget))")
            header.append(Self.headerMarker + (try recorded.encodedLine()))
        }
        let generator = ManifestGenerator(
            module: module,
            mode: ManifestGenerator.Mode(rawValue: mode) ?? .library,
            paths: own,
            dependencies: expanded.map {
                ManifestGenerator.Dependency(
                    module: $0.spec.module,
                    paths: $0.paths,
                    implies: $0.spec.implies ?? [],
                    hasModules: $0.spec.hasModules,
                    summary: summaries[$0.spec.module]
                )
            },
            headerNote: header,
            locationComments: checkedInTarget == nil
        )
        var output = generator.generate(parsed)
        output.diagnostics = unreadable + output.diagnostics
        return output
    }

    /// The text of the source at `path`, and what went wrong reading it: `nil` when nothing did.
    static func read(_ path: String) -> (text: String, problem: ScanDiagnostic?) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedDescription
            return (
                "",
                ScanDiagnostic(
                    file: path,
                    line: 1,
                    message: "module discovery cannot read this file (\(reason)), so modules declared in it "
                        + "would be missing from the manifest. Make it readable, or remove it from the target.",
                    severity: .error
                )
            )
        }
        if let text = String(validating: data, as: UTF8.self) { return (text, nil) }
        return (
            String(decoding: data, as: UTF8.self),
            ScanDiagnostic(
                file: path,
                line: 1,
                message: "this file is not valid UTF-8; module discovery scanned it with replacement characters, "
                    + "and the compiler will refuse it. Save it as UTF-8."
            )
        )
    }

    private func swiftFiles(at url: URL) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SpecError(message: "no such file or directory: \(url.path)")
        }
        guard isDirectory.boolValue else { return [url.standardizedFileURL.path] }
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        var paths: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".swift") {
                paths.append(url.appendingPathComponent(relative).standardizedFileURL.path)
            }
        }
        return paths.sorted()
    }
}

/// A spec that cannot be read or whose sources are missing.
public struct SpecError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
