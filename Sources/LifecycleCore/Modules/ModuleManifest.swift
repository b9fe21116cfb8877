/// A static list of module types: what a host instantiates and delivers events to.
///
/// The order of the list is the tie-break between modules of equal priority.
///
/// Nobody needs to write one by hand: `ModuleDiscoveryPlugin` generates `ModuleManifest.<Module>` for each
/// library target that applies it, and `ModuleManifest.discovered` — every linked module — for an
/// executable or test target (see `Docs/Discovery.md`). A hand-written manifest works the same way, for
/// tests that want a chosen set: `ModuleManifest([ConfigurationModule.self, DatabaseModule.self])`.
///
/// Manifests combine: a program's manifest is the concatenation of its libraries' manifests.
public struct ModuleManifest: Sendable {
    /// One module type and the manifest that listed it.
    public struct Entry: Sendable {
        /// The module type.
        public let type: any LifecycleModule.Type
        /// The name of the manifest that listed it, for error messages.
        public let source: String
        /// What the type implements, when a generated manifest declared it (see ``DeclaredModule``); `nil`
        /// when the host asks the runtime.
        package let capabilities: ModuleCapabilities?
        /// Dependencies beyond the type's own ``DependentModule/dependencies``, each with the reason it was
        /// added (for example a service the module requires). Ordered exactly like declared ones.
        package private(set) var addedDependencies: [ModuleDependency.Added] = []

        package init(type: any LifecycleModule.Type, source: String, capabilities: ModuleCapabilities? = nil) {
            self.type = type
            self.source = source
            self.capabilities = capabilities
        }

        /// This entry with `dependency` added, unless it is already there (declared or added).
        package func adding(_ dependency: ModuleDependency.Added) -> Self {
            let key = ObjectIdentifier(dependency.type)
            if dependent?.dependencies.contains(where: { ObjectIdentifier($0) == key }) == true { return self }
            if addedDependencies.contains(where: { ObjectIdentifier($0.type) == key }) { return self }
            var copy = self
            copy.addedDependencies.append(dependency)
            return copy
        }

        /// The type's declared dependencies, then the added ones: what the order is computed from.
        package var allDependencies: [any LifecycleModule.Type] {
            let declared = dependent?.dependencies ?? []
            return addedDependencies.isEmpty ? declared : declared + addedDependencies.map(\.type)
        }

        /// The module's module-qualified type name.
        public var moduleName: String { type.moduleName }
        /// The module's declared priority.
        public var priority: ModulePriority { type.priority }
    }

    /// The manifest's name, used in error messages (typically the target that declares the modules). A manifest
    /// written by hand without a name has the name `manifest`, which error messages leave out.
    public let name: String

    /// The name of a manifest given none: error messages leave it out, rather than say "of manifest
    /// `manifest`".
    package static let defaultName = "manifest"

    /// How messages name the manifest called `name`: "manifest `Shop`", or "the manifest" when it has no name
    /// of its own.
    package static func called(_ name: String) -> String {
        name == defaultName ? "the manifest" : "manifest `\(name)`"
    }
    /// The entries, in manifest order.
    public let entries: [Entry]
    /// The Swift modules whose sources a generated manifest was built from. The completeness check in
    /// `LifecycleTesting` compares the manifest with the module types these modules really contain.
    /// Empty for a manifest written by hand.
    public let sourceModules: [String]
    /// What every host built from this manifest applies first (see `ManifestPreparation`).
    package private(set) var preparations: [any ManifestPreparation] = []

    /// Creates a manifest that lists `modules` in this order.
    public init(name: String = "manifest", sourceModules: [String] = [], _ modules: [any LifecycleModule.Type]) {
        self.name = name
        self.sourceModules = sourceModules
        self.entries = modules.map { Entry(type: $0, source: name) }
    }

    /// Creates a manifest that lists `modules` in this order, each with the capabilities declared for it:
    /// what `ModuleDiscoveryPlugin` generates.
    public init(name: String, sourceModules: [String] = [], declared modules: [DeclaredModule]) {
        self.name = name
        self.sourceModules = sourceModules
        self.entries = modules.map { Entry(type: $0.type, source: name, capabilities: $0.capabilities) }
    }

    /// Creates a manifest from entries that keep the manifest they came from.
    public init(name: String, entries: [Entry], sourceModules: [String] = []) {
        self.name = name
        self.entries = entries
        self.sourceModules = sourceModules
    }

    /// Creates a manifest that lists the entries of `manifests`, one manifest after another.
    public init(name: String = "manifest", combining manifests: [ModuleManifest]) {
        self.name = name
        self.entries = manifests.flatMap(\.entries)
        self.preparations = Self.merge(manifests.flatMap(\.preparations))
        var seen: Set<String> = []
        self.sourceModules = manifests.flatMap(\.sourceModules).filter { seen.insert($0).inserted }
    }

    /// The module types, in manifest order.
    public var modules: [any LifecycleModule.Type] { entries.map(\.type) }
}

// MARK: - Preparation

/// Something a manifest brings to every host built from it, applied once per host before any module is
/// created: how a target built on the core (LifecycleServices) adds participants, ordering edges and
/// launch options without the core knowing about it. Not API: the package's own seam.
package protocol ManifestPreparation: Sendable {
    /// Preparations with the same key are one: combining manifests merges them (``merged(with:)``).
    var key: String { get }
    /// This preparation and `other`, which has the same key, as one.
    func merged(with other: any ManifestPreparation) -> any ManifestPreparation
    /// The manifest a host builds from, given the whole `manifest`, and what to add to `launchOptions`.
    /// Throws when the manifest cannot work; the host then creates nothing.
    func prepare(_ manifest: ModuleManifest, launchOptions: inout LaunchOptions) throws -> ModuleManifest
    /// Called whenever a host installs its participants: once when it is built, and again after every
    /// registration or removal, with the modules it has from then on, in delivery order. The default does
    /// nothing. LifecycleMessaging binds its receivers here.
    func install(_ modules: [InstalledModule], context: LifecycleContext)
    /// Checks a module about to be registered at run time on the host of `context`, as `prepare` checks the
    /// manifest's; throws a `ManifestError` to refuse it. The default accepts every module.
    func validate(adding type: any LifecycleModule.Type, context: LifecycleContext) throws
    /// Called once when the host is deallocated: release what `install` bound, since what it built may
    /// hold the host's context, whose launch options hold it in turn. The default does nothing.
    func uninstall(context: LifecycleContext)
}

extension ManifestPreparation {
    package func install(_ modules: [InstalledModule], context: LifecycleContext) {}
    package func uninstall(context: LifecycleContext) {}
    package func validate(adding type: any LifecycleModule.Type, context: LifecycleContext) throws {}
}

/// A module as a host installed it: its participant, its instance and its type, for
/// ``ManifestPreparation/install(_:context:)``.
package struct InstalledModule: Sendable {
    package let participant: Participant
    package let instance: any LifecycleModule
    package let type: any LifecycleModule.Type

    package init(participant: Participant, instance: any LifecycleModule, type: any LifecycleModule.Type) {
        self.participant = participant
        self.instance = instance
        self.type = type
    }
}

extension ModuleManifest {
    /// This manifest with `preparation`, merged into one already there with its key.
    package func adding(_ preparation: any ManifestPreparation) -> ModuleManifest {
        var copy = self
        copy.preparations = Self.merge(preparations + [preparation])
        return copy
    }

    /// The same manifest with `entries` instead, keeping its name, sources and preparations.
    package func replacingEntries(_ entries: [Entry]) -> ModuleManifest {
        var copy = ModuleManifest(name: name, entries: entries, sourceModules: sourceModules)
        copy.preparations = preparations
        return copy
    }

    static func merge(_ preparations: [any ManifestPreparation]) -> [any ManifestPreparation] {
        var merged: [any ManifestPreparation] = []
        for preparation in preparations {
            if let index = merged.firstIndex(where: { $0.key == preparation.key }) {
                merged[index] = merged[index].merged(with: preparation)
            } else {
                merged.append(preparation)
            }
        }
        return merged
    }
}
