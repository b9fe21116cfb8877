import LifecycleProxy
import LifecycleCore
import Testing

/// Enabled only in the staging and production profiles.
struct StagingOnly: RecordingModule, EnvironmentGatedModule {
    static let priority: ModulePriority = .normal
    let script: Script
    static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        .onlyInProfiles(["staging", "production"], options)
    }
}

/// Enabled in debug builds only.
struct DebugOnly: RecordingModule, EnvironmentGatedModule {
    static let priority: ModulePriority = .low
    let script: Script
    static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        #if DEBUG
        return .enabled
        #else
        return .disabled("debug builds only")
        #endif
    }
}

/// Depends on a module that may be disabled.
struct NeedsStaging: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [StagingOnly.self]
    init(context: LifecycleContext) {}
}

@Suite("Environments")
struct EnvironmentTests {
    func host(profile: String?, script: Script, _ modules: [any LifecycleModule.Type]) throws -> ApplicationHost {
        var options = LaunchOptions(arguments: profile.map { ["app", "--profile", $0] } ?? ["app"])
        options[ScriptKey.self] = script
        return try ApplicationHost(manifest: ModuleManifest(name: "Tests", modules), launchOptions: options)
    }

    @Test("A gated module outside its profile is not created, receives nothing and is listed with the reason")
    func disabledOutsideProfile() async throws {
        let script = Script()
        let host = try host(profile: "development", script: script, [NormalA.self, StagingOnly.self])
        try await host.launch()
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["NormalA"])
        #expect(host.participants.map { shortName($0.name) } == ["NormalA"])
        #expect(host.disabledModules.map(\.name) == [StagingOnly.moduleName])
        #expect(
            host.disabledModules.first?.reason
                == "enabled only in profile production, staging; the launch profile is development"
        )
    }

    @Test("In its profile the gated module takes part like any other")
    func enabledInProfile() async throws {
        let script = Script()
        let host = try host(profile: "staging", script: script, [NormalA.self, StagingOnly.self])
        try await host.launch()
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["NormalA", "StagingOnly"])
        #expect(host.disabledModules.isEmpty)
    }

    @Test("A debug-only module is enabled in this (debug) test build")
    func debugOnly() throws {
        let host = try host(profile: nil, script: Script(), [DebugOnly.self])
        #if DEBUG
        #expect(host.disabledModules.isEmpty)
        #else
        #expect(host.disabledModules.map(\.reason) == ["debug builds only"])
        #endif
    }

    @Test("Depending on a disabled module is a typed error that gives the reason")
    func dependencyOnDisabledModule() {
        let error = #expect(throws: ManifestError.self) {
            try host(profile: nil, script: Script(), [StagingOnly.self, NeedsStaging.self])
        }
        #expect(error?.code == .missingDependency)
        #expect(error?.description.contains("which is disabled (enabled only in profile production, staging") == true)
    }

    @Test("A manifest whose modules are all disabled is not an empty manifest")
    func allDisabled() throws {
        let proxy = try DelegateProxy(manifest: ModuleManifest([StagingOnly.self]))
        #expect(proxy.participants.isEmpty)
        #expect(proxy.disabledModules.count == 1)
    }

    @Test("The profile comes from the typed key, then --profile, then LIFECYCLE_PROFILE")
    func profilePrecedence() {
        var options = LaunchOptions(
            arguments: ["app", "--profile", "staging"],
            environment: ["LIFECYCLE_PROFILE": "ci"]
        )
        #expect(options.profile == "staging")
        options[LaunchProfileKey.self] = "production"
        #expect(options.profile == "production")
        #expect(LaunchOptions(environment: ["LIFECYCLE_PROFILE": "ci"]).profile == "ci")
        #expect(LaunchOptions().profile == nil)
    }
}
