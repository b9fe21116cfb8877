/// Whether a module takes part in this run, and if not, why.
public struct ModuleEnablement: Sendable, Hashable, CustomStringConvertible {
    /// The reason the module is disabled, or `nil` when it is enabled.
    public let disabledReason: String?

    /// The module takes part.
    public static let enabled = ModuleEnablement(disabledReason: nil)

    /// The module is left out: not created, delivered nothing, listed in the plan with `reason`.
    public static func disabled(_ reason: String) -> ModuleEnablement { ModuleEnablement(disabledReason: reason) }

    /// Enabled only when the launch profile is one of `profiles`.
    public static func onlyInProfiles(_ profiles: Set<String>, _ options: LaunchOptions) -> ModuleEnablement {
        if let profile = options.profile, profiles.contains(profile) { return .enabled }
        let wanted = profiles.sorted().joined(separator: ", ")
        return .disabled("enabled only in profile \(wanted); the launch profile is \(options.profile ?? "not set")")
    }

    /// Whether the module takes part.
    public var isEnabled: Bool { disabledReason == nil }

    public var description: String { disabledReason.map { "disabled: \($0)" } ?? "enabled" }
}

/// A module that is enabled only in some environments: debug-only tools, or a profile the host's launch
/// options name.
///
/// The proxy asks once, when it is built, before creating anything. A disabled module is not created and
/// receives nothing; the plan lists it with its reason. A module that depends on a disabled one is a
/// `missingDependency` error naming the reason.
///
/// ```swift
/// struct DebugMenuModule: LifecycleModule, EnvironmentGatedModule {
///     static let priority: ModulePriority = .low
///     init(context: LifecycleContext) {}
///
///     static func enablement(for options: LaunchOptions) -> ModuleEnablement {
///         #if DEBUG
///         return .enabled
///         #else
///         return .disabled("debug builds only")
///         #endif
///     }
/// }
/// ```
@_alwaysEmitConformanceMetadata
public protocol EnvironmentGatedModule: LifecycleModule {
    /// Whether the module takes part in a run launched with `options`. Decide from the options (the
    /// profile, arguments, environment) and the build (`#if DEBUG`) only: it is called before any module
    /// exists.
    static func enablement(for options: LaunchOptions) -> ModuleEnablement
}

/// The launch option that names the run's profile ("development", "staging", "production", …).
public enum LaunchProfileKey: LaunchOptionKey {
    public static let defaultValue: String? = nil
}

extension LaunchOptions {
    /// The run's profile: the value stored under ``LaunchProfileKey``, else the `--profile` argument, else
    /// the `LIFECYCLE_PROFILE` environment variable; `nil` when none is set.
    public var profile: String? {
        self[LaunchProfileKey.self] ?? argument("--profile") ?? environment["LIFECYCLE_PROFILE"]
    }
}
