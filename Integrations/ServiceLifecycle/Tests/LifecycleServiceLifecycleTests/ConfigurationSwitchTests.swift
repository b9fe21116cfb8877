import Configuration
import Foundation
import LifecycleConfiguration
import LifecycleCore
import LifecycleProxy
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

/// `LifecycleConfiguration`: module switches read from swift-configuration, on demand and watched.
@Suite("Module switches from swift-configuration")
struct ConfigurationSwitchTests {
    static let cache = CacheModule.moduleName
    static let pool = PoolModule.moduleName

    func launchedHost() async throws -> ApplicationHost {
        let host = try ApplicationHost(manifest: ModuleManifest([PoolModule.self, CacheModule.self]))
        try await host.launch()
        return host
    }

    func moduleNames(_ host: ApplicationHost) -> [String] {
        host.participants.filter { !$0.isDelegate }.map(\.name)
    }

    @Test func aConfigKeySwitchesAModuleOffAndBackOn() async throws {
        let host = try await launchedHost()
        let provider = MutableInMemoryProvider(initialValues: ["modules.CacheModule": false])
        let config = ConfigReader(provider: provider)

        let off = try await host.reloadModules(from: config)
        #expect(off.turnedOff.map(\.module) == [Self.cache])
        #expect(moduleNames(host) == [Self.pool])
        #expect(host.disabledModules.map(\.name) == [Self.cache])
        #expect(host.disabledModules.allSatisfy { $0.reason.contains("config key modules.CacheModule") })
        #expect(host.moduleSwitches.switch(forModule: Self.cache)?.source == "config key modules.CacheModule")

        provider.setValue(true, forKey: "modules.CacheModule")
        let on = try await host.reloadModules(from: config)
        #expect(on.turnedOn == [Self.cache])
        #expect(Set(moduleNames(host)) == [Self.pool, Self.cache])
        #expect(host.disabledModules.isEmpty)

        // No key is no switch: the module stays on.
        provider.setValue(nil, forKey: "modules.CacheModule")
        let none = try await host.reloadModules(from: config)
        #expect(none.turnedOff.isEmpty && none.turnedOn.isEmpty)
        #expect(Set(moduleNames(host)) == [Self.pool, Self.cache])
        try await host.terminate()
    }

    @Test func aMistypedValueIsATypedErrorAndChangesNothing() async throws {
        let host = try await launchedHost()
        let provider = MutableInMemoryProvider(initialValues: [
            "modules.PoolModule": false, "modules.CacheModule": "off",
        ])
        let config = ConfigReader(provider: provider)

        do throws(ConfiguredReloadError) {
            try await host.reloadModules(from: config)
            Issue.record("a string where a Boolean belongs was accepted")
        } catch {
            guard case .invalidSwitches(let switchesError) = error else {
                Issue.record("not invalidSwitches: \(error)")
                return
            }
            #expect(switchesError.source == "config key modules.CacheModule")
            #expect(switchesError.fix.contains("modules.CacheModule"))
        }
        // PoolModule's valid `false` was not applied either.
        #expect(Set(moduleNames(host)) == [Self.pool, Self.cache])
        #expect(host.disabledModules.isEmpty)

        #expect(throws: ModuleSwitchesError.self) {
            try ModuleSwitches.reading(config, modules: [Self.pool, Self.cache])
        }
        try await host.terminate()
    }

    @Test func readsQualifiedNamesUnderAPrefixAndRejectsAmbiguousKeys() throws {
        let config = ConfigReader(
            provider: InMemoryProvider(values: ["app.modules.CacheModule": true, "modules.CacheModule": false])
        )
        let switches = try ModuleSwitches.reading(
            config,
            modules: ["A.CacheModule", "A.PoolModule"],
            prefix: "app.modules"
        )
        #expect(
            switches
                == ModuleSwitches(switches: [
                    "A.CacheModule": .init(isOn: true, source: "config key app.modules.CacheModule")
                ])
        )
        #expect(ModuleSwitches.configKey(forModule: "A.B.CacheModule") == "modules.CacheModule")

        do throws(ModuleSwitchesError) {
            _ = try ModuleSwitches.reading(config, modules: ["A.CacheModule", "B.CacheModule"])
            Issue.record("two modules named CacheModule shared one key")
        } catch {
            #expect(error.source == "config key modules.CacheModule")
            #expect(error.problem.contains("A.CacheModule and B.CacheModule"))
        }
    }

    @Test func aJSONFileSwitchesModules() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switches-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.json").path
        try Data(#"{"modules": {"CacheModule": false, "PoolModule": true}}"#.utf8).write(to: URL(fileURLWithPath: path))
        let fileSettings = ConfigReader(
            provider: InMemoryProvider(values: ["filePath": .init(.string(path), isSecret: false)])
        )
        let provider = try await FileProvider<JSONSnapshot>(config: fileSettings)
        let host = try await launchedHost()

        // README: configuration-reload
        // config.json: {"modules": {"CacheModule": false}}
        let config = ConfigReader(provider: provider)  // a FileProvider<JSONSnapshot>, for example
        let changes = try await host.reloadModules(from: config)
        // changes.turnedOff: CacheModule, "switched off by config key modules.CacheModule"
        // README: end

        #expect(changes.turnedOff.map(\.module) == [Self.cache])
        #expect(changes.turnedOff.map(\.reason) == ["switched off by config key modules.CacheModule"])
        #expect(moduleNames(host) == [Self.pool])

        // A JSON string is not a Boolean.
        try Data(#"{"modules": {"CacheModule": "maybe"}}"#.utf8).write(to: URL(fileURLWithPath: path))
        let mistyped = ConfigReader(provider: try await FileProvider<JSONSnapshot>(config: fileSettings))
        #expect(throws: ModuleSwitchesError.self) {
            try ModuleSwitches.reading(mistyped, modules: host.knownModuleNames)
        }
        #expect(moduleNames(host) == [Self.pool])
        try await host.terminate()
    }

    @Test func theWatcherReloadsWhenTheKeysChange() async throws {
        let host = try await launchedHost()
        let provider = MutableInMemoryProvider(initialValues: ["modules.CacheModule": false])
        let records = LogRecords()
        let watcher = ModuleSwitchesWatcher(
            host: host,
            reader: ConfigReader(provider: provider),
            logger: records.logger()
        )
        let isOn: @Sendable () -> Bool = { host.participants.contains { $0.name == Self.cache } }
        let rejections: @Sendable () -> Int = {
            records.all.filter { $0.message == "module switches rejected, nothing changed" }.count
        }

        try await testGracefulShutdown { trigger in
            async let run: Void = watcher.run()
            // The first snapshot is applied.
            #expect(await eventually { !isOn() })
            #expect(host.disabledModules.map(\.name) == [Self.cache])
            #expect(host.disabledModules.first?.reason.contains("config key modules.CacheModule") == true)
            provider.setValue(true, forKey: "modules.CacheModule")
            #expect(await eventually { isOn() })
            // A mistyped value is logged and changes nothing; the watcher keeps watching.
            provider.setValue("off", forKey: "modules.CacheModule")
            #expect(await eventually { rejections() == 1 })
            #expect(isOn())
            provider.setValue(false, forKey: "modules.CacheModule")
            #expect(await eventually { !isOn() })
            trigger.triggerGracefulShutdown()
            try await run
        }
        #expect(!isOn())
        #expect(rejections() == 1)
        try await host.terminate()
    }

    /// Polls `condition` until it holds or 30 s pass: generous, for a loaded machine.
    func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
