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

        package init(type: any LifecycleModule.Type, source: String, capabilities: ModuleCapabilities? = nil) {
            self.type = type
            self.source = source
            self.capabilities = capabilities
        }

        /// The module's module-qualified type name.
        public var moduleName: String { type.moduleName }
        /// The module's declared priority.
        public var priority: ModulePriority { type.priority }
    }

    /// The manifest's name, used in error messages (typically the target that declares the modules).
    public let name: String
    /// The entries, in manifest order.
    public let entries: [Entry]
    /// The Swift modules whose sources a generated manifest was built from. The completeness check in
    /// `LifecycleTesting` compares the manifest with the module types these modules really contain.
    /// Empty for a manifest written by hand.
    public let sourceModules: [String]

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
        var seen: Set<String> = []
        self.sourceModules = manifests.flatMap(\.sourceModules).filter { seen.insert($0).inserted }
    }

    /// The module types, in manifest order.
    public var modules: [any LifecycleModule.Type] { entries.map(\.type) }
}
