public import Configuration
public import LifecycleCore

extension ApplicationHost {
    /// The module-qualified names of every module the host knows: the modules taking part and the modules
    /// that are off (``disabledModules``), in that order.
    public nonisolated var knownModuleNames: [String] {
        var seen: Set<String> = []
        let names = participants.filter { !$0.isDelegate }.map(\.name) + disabledModules.map(\.name)
        return names.filter { seen.insert($0).inserted }
    }

    /// Turns modules on and off to match the switches in `reader`: reads the switch of every module the
    /// host knows (``knownModuleNames``) with ``ModuleSwitches/reading(_:modules:prefix:)-(ConfigReader,_,_)``,
    /// then calls ``reloadModules(_:file:line:)`` with them.
    ///
    /// The switches read replace the host's switches: a module without a key is on (unless its own
    /// `EnvironmentGatedModule` rule disables it), whatever the launch options said.
    ///
    /// - Parameters:
    ///   - reader: The configuration to read the switches from.
    ///   - prefix: The key under which the switches live (`modules.CacheModule`).
    /// - Returns: What changed.
    /// - Throws: ``ConfiguredReloadError/invalidSwitches(_:)`` when a value is not a Boolean, and nothing
    ///   changes; ``ConfiguredReloadError/host(_:)`` with the errors of ``reloadModules(_:file:line:)``.
    @discardableResult
    public nonisolated func reloadModules(
        from reader: ConfigReader,
        prefix: String = "modules",
        file: String = #fileID,
        line: Int = #line
    ) async throws(ConfiguredReloadError) -> ModuleChanges {
        try await reloadModules(from: reader.snapshot(), prefix: prefix, file: file, line: line)
    }

    /// Turns modules on and off to match the switches in one configuration snapshot, as
    /// ``reloadModules(from:prefix:file:line:)-(ConfigReader,_,_,_)`` does.
    ///
    /// - Parameters:
    ///   - snapshot: The configuration snapshot to read the switches from.
    ///   - prefix: The key under which the switches live (`modules.CacheModule`).
    /// - Returns: What changed.
    /// - Throws: ``ConfiguredReloadError/invalidSwitches(_:)`` when a value is not a Boolean, and nothing
    ///   changes; ``ConfiguredReloadError/host(_:)`` with the errors of ``reloadModules(_:file:line:)``.
    @discardableResult
    public nonisolated func reloadModules(
        from snapshot: ConfigSnapshotReader,
        prefix: String = "modules",
        file: String = #fileID,
        line: Int = #line
    ) async throws(ConfiguredReloadError) -> ModuleChanges {
        let switches: ModuleSwitches
        do {
            switches = try ModuleSwitches.reading(snapshot, modules: knownModuleNames, prefix: prefix)
        } catch {
            throw .invalidSwitches(error)
        }
        do {
            return try await reloadModules(switches, file: file, line: line)
        } catch {
            throw .host(error)
        }
    }
}
