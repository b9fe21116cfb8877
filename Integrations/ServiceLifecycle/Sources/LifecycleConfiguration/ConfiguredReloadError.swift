public import LifecycleCore

/// Why ``LifecycleCore/ApplicationHost/reloadModules(from:prefix:file:line:)-(ConfigReader,_,_,_)`` failed:
/// the configuration held a switch that is not one, or the host's reload failed.
public enum ConfiguredReloadError: Error, Sendable, CustomStringConvertible {
    /// A value under the switches' prefix is not a Boolean, or names modules that share a type name. The
    /// host was not asked to reload: nothing changed.
    case invalidSwitches(ModuleSwitchesError)
    /// The host's ``LifecycleCore/ApplicationHost/reloadModules(_:file:line:)`` failed, with its error:
    /// ``LifecycleCore/LifecycleError/Code/reconfigurationFailed`` (nothing changed),
    /// ``LifecycleCore/LifecycleError/Code/hookFailed`` (the changes were made) or
    /// ``LifecycleCore/LifecycleError/Code/invalidTransition``.
    case host(LifecycleError)

    public var description: String {
        switch self {
        case .invalidSwitches(let error): "invalid module switches: \(error)"
        case .host(let error): "\(error)"
        }
    }
}
