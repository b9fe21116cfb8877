public import LifecycleCore

/// A static list of module types: what a host instantiates and delivers events to.
///
/// The order of the list is the tie-break between modules of equal priority. A later version of this
/// package generates manifests at build time; until then a program lists its modules by hand:
///
/// ```swift
/// extension ModuleManifest {
///     static let app = ModuleManifest(name: "App", [ConfigurationModule.self, DatabaseModule.self])
/// }
/// ```
///
/// Manifests combine: a program's manifest can be the concatenation of its libraries' manifests.
public struct ModuleManifest: Sendable {
    /// One module type and the manifest that listed it.
    public struct Entry: Sendable {
        /// The module type.
        public let type: any LifecycleModule.Type
        /// The name of the manifest that listed it, for error messages.
        public let source: String

        /// The module's module-qualified type name.
        public var moduleName: String { type.moduleName }
        /// The module's declared priority.
        public var priority: ModulePriority { type.priority }
    }

    /// The manifest's name, used in error messages (typically the target that declares the modules).
    public let name: String
    /// The entries, in manifest order.
    public let entries: [Entry]

    /// Creates a manifest that lists `modules` in this order.
    public init(name: String = "manifest", _ modules: [any LifecycleModule.Type]) {
        self.name = name
        self.entries = modules.map { Entry(type: $0, source: name) }
    }

    /// Creates a manifest that lists the entries of `manifests`, one manifest after another.
    public init(name: String = "manifest", combining manifests: [ModuleManifest]) {
        self.name = name
        self.entries = manifests.flatMap(\.entries)
    }

    /// The module types, in manifest order.
    public var modules: [any LifecycleModule.Type] { entries.map(\.type) }
}
