public import Configuration
public import LifecycleCore

extension ModuleSwitches {
    /// Reads the switches of `modules` from swift-configuration: one Boolean key per module, named after the
    /// module's type, under `prefix`.
    ///
    /// ```json
    /// { "modules": { "CacheModule": false, "ReportExporterModule": true } }
    /// ```
    ///
    /// For each module-qualified name of `modules` (`App.CacheModule`), the key is `prefix` and the type
    /// name without its module (`modules.CacheModule`):
    /// - a Boolean value is a switch whose source is the key: `Switch(isOn: false, source: "config key
    ///   modules.CacheModule")`, so ``ApplicationHost/disabledModules`` says "switched off by config key
    ///   modules.CacheModule";
    /// - no value is no switch: the module keeps its default, on;
    /// - a value of another type (`"off"` where the provider does not convert it, `[true]`) throws.
    ///
    /// The values come from one snapshot of `reader`, so they are consistent with each other.
    ///
    /// - Parameters:
    ///   - reader: The configuration to read.
    ///   - modules: The module-qualified names of the modules (``LifecycleModule/moduleName``).
    ///   - prefix: The key under which the switches live; dots separate its components.
    /// - Returns: The switches of the modules that have a value, by module-qualified name.
    /// - Throws: ``ModuleSwitchesError`` naming the key when a value is not a Boolean, or when two modules
    ///   of `modules` have the same type name and their key has a value.
    public static func reading(
        _ reader: ConfigReader,
        modules: some Sequence<String>,
        prefix: String = "modules"
    ) throws(ModuleSwitchesError) -> ModuleSwitches {
        try reading(reader.snapshot(), modules: modules, prefix: prefix)
    }

    /// Reads the switches of `modules` from one snapshot of swift-configuration, as
    /// ``reading(_:modules:prefix:)-(ConfigReader,_,_)`` does.
    ///
    /// - Parameters:
    ///   - snapshot: The configuration snapshot to read.
    ///   - modules: The module-qualified names of the modules (``LifecycleModule/moduleName``).
    ///   - prefix: The key under which the switches live; dots separate its components.
    /// - Returns: The switches of the modules that have a value, by module-qualified name.
    /// - Throws: ``ModuleSwitchesError`` naming the key when a value is not a Boolean, or when two modules
    ///   of `modules` have the same type name and their key has a value.
    public static func reading(
        _ snapshot: ConfigSnapshotReader,
        modules: some Sequence<String>,
        prefix: String = "modules"
    ) throws(ModuleSwitchesError) -> ModuleSwitches {
        var byKey: [String: [String]] = [:]
        for module in Set(modules) {
            byKey[configKey(forModule: module, prefix: prefix), default: []].append(module)
        }
        var result: [String: Switch] = [:]
        for (key, names) in byKey.sorted(by: { $0.key < $1.key }) {
            guard let isOn = try value(of: key, in: snapshot) else { continue }
            guard names.count == 1 else {
                throw ModuleSwitchesError(
                    source: "config key \(key)",
                    problem: "the key names \(names.sorted().joined(separator: " and ")), which share a type name",
                    fix: "rename one of the types, or switch them with a ModuleSwitches value in code"
                )
            }
            result[names[0]] = Switch(isOn: isOn, source: "config key \(key)")
        }
        return ModuleSwitches(switches: result)
    }

    /// The key of a module's switch: `prefix`, a dot, and the type name without its module
    /// (`modules.CacheModule` for `App.CacheModule`).
    public static func configKey(forModule qualifiedName: String, prefix: String = "modules") -> String {
        let typeName = qualifiedName.lastIndex(of: ".").map { qualifiedName[qualifiedName.index(after: $0)...] }
        let name = typeName.map(String.init) ?? qualifiedName
        return prefix.isEmpty ? name : "\(prefix).\(name)"
    }

    /// The Boolean at `key`; `nil` when the key has no value; throws when it has a value of another type.
    private static func value(of key: String, in snapshot: ConfigSnapshotReader) throws(ModuleSwitchesError) -> Bool? {
        let configKey = ConfigKey(key)
        let failure: any Error
        do {
            return try snapshot.requiredBool(forKey: configKey)
        } catch {
            failure = error
        }
        // `requiredBool` throws both for a missing value and for a mistyped one, with errors the library
        // does not make public; a value of any other type tells them apart.
        let present =
            snapshot.string(forKey: configKey) != nil || snapshot.int(forKey: configKey) != nil
            || snapshot.double(forKey: configKey) != nil || snapshot.bytes(forKey: configKey) != nil
            || snapshot.stringArray(forKey: configKey) != nil || snapshot.intArray(forKey: configKey) != nil
            || snapshot.doubleArray(forKey: configKey) != nil || snapshot.boolArray(forKey: configKey) != nil
            || snapshot.byteChunkArray(forKey: configKey) != nil
        guard present else { return nil }
        throw ModuleSwitchesError(
            source: "config key \(key)",
            problem: "the value is not a Boolean (\(failure))",
            fix: "set `\(key)` to true (on) or false (off), or remove it"
        )
    }
}
