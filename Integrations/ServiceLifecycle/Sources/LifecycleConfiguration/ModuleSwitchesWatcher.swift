public import Configuration
public import LifecycleCore
public import Logging
public import ServiceLifecycle

/// A `Service` that turns a host's modules on and off whenever their switches in swift-configuration change.
///
/// It watches `reader` (`watchSnapshot`) and, for the first snapshot and every one after it whose switches
/// differ from the last applied, calls
/// ``LifecycleCore/ApplicationHost/reloadModules(from:prefix:file:line:)-(ConfigSnapshotReader,_,_,_)``.
/// Providers that change, such as `MutableInMemoryProvider` or `ReloadingFileProvider` (swift-configuration's
/// `Reloading` trait), drive it; a provider that never changes applies its switches once.
///
/// A value that is not a Boolean is logged at error and changes nothing; the watcher keeps watching, so
/// fixing the value applies it. A failed reload is logged too. The watcher ends at graceful shutdown: put it
/// after the host's service in the group, so that it stops first.
///
/// ```swift
/// let watcher = ModuleSwitchesWatcher(host: host, reader: config, logger: logger)
/// let group = ServiceGroup(services: [hostService, watcher], logger: logger)
/// ```
public struct ModuleSwitchesWatcher: Service {
    /// The host whose modules follow the switches.
    public let host: ApplicationHost
    /// The configuration watched.
    public let reader: ConfigReader
    /// The key under which the switches live (`modules.CacheModule`).
    public let prefix: String
    /// Where reloads and rejected switches are reported.
    public let logger: Logger

    /// A watcher of `reader` for `host`.
    ///
    /// - Parameters:
    ///   - host: The host whose modules follow the switches.
    ///   - reader: The configuration to watch.
    ///   - prefix: The key under which the switches live.
    ///   - logger: Where reloads (info) and rejected switches and failed reloads (error) are reported.
    public init(host: ApplicationHost, reader: ConfigReader, prefix: String = "modules", logger: Logger) {
        self.host = host
        self.reader = reader
        self.prefix = prefix
        self.logger = logger
    }

    /// Applies the switches of every snapshot until graceful shutdown or cancellation.
    public func run() async throws {
        try await reader.watchSnapshot { updates in
            var applied: ModuleSwitches?
            for await snapshot in updates.cancelOnGracefulShutdown() {
                let switches: ModuleSwitches
                do throws(ModuleSwitchesError) {
                    switches = try ModuleSwitches.reading(snapshot, modules: host.knownModuleNames, prefix: prefix)
                } catch {
                    logger.error("module switches rejected, nothing changed", metadata: ["error": "\(error)"])
                    continue
                }
                guard switches != applied else { continue }
                do throws(LifecycleError) {
                    let changes = try await host.reloadModules(switches)
                    applied = switches
                    logger.info("modules reloaded from configuration", metadata: ["changes": "\(changes)"])
                } catch {
                    // Hook failures do not undo the changes: the switches are applied all the same.
                    if error.code == .hookFailed { applied = switches }
                    logger.error("module reload failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
