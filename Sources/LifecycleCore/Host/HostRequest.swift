#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Something an ``ApplicationHost`` is asked to do: a state transition, or an event to deliver.
///
/// Requests appear in errors (the transition that was refused) and can be posted from inside a hook with
/// ``EventEmitter``.
public struct HostRequest: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        case launch
        case enterForeground
        case enterBackground
        case resignActive
        case becomeActive
        case terminate
        case memoryWarning
        case openURL(URL)
        case custom(LifecycleEvent)
        case register(ModuleType)
        case remove(ModuleType)
        case reloadModules
        case releaseQuarantine(ModuleType)
        /// Quarantines a module for `reason` (work that failed past its policy, `ApplicationHost.quarantine`).
        case quarantine(ModuleType, reason: String)
        case idle
        case waitTerminated
    }

    /// A module type, compared by identity, so a request that names one stays `Hashable`.
    package struct ModuleType: Sendable, Hashable {
        package let type: any LifecycleModule.Type

        package static func == (lhs: Self, rhs: Self) -> Bool {
            ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
        }

        package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
    }

    package let kind: Kind

    package init(_ kind: Kind) { self.kind = kind }

    /// `launch()`: deliver the launch events and become active.
    public static let launch = Self(.launch)
    /// `enterForeground()`: from the background, become active again.
    public static let enterForeground = Self(.enterForeground)
    /// `enterBackground()`: from active or inactive, enter the background.
    public static let enterBackground = Self(.enterBackground)
    /// `resignActive()`: from active, become inactive.
    public static let resignActive = Self(.resignActive)
    /// `becomeActive()`: from inactive, become active.
    public static let becomeActive = Self(.becomeActive)
    /// `terminate()`: deliver `willTerminate` and stop for good.
    public static let terminate = Self(.terminate)
    /// `receiveMemoryWarning()`: deliver `didReceiveMemoryWarning`.
    public static let memoryWarning = Self(.memoryWarning)
    /// `open(_:)`: deliver `openURL` for `url`.
    public static func open(_ url: URL) -> Self { Self(.openURL(url)) }
    /// `register(_:)`: create a module of type `module` and bring it up to the host's state (see
    /// ``ApplicationHost/register(_:file:line:)``). Post it from a hook to add a module at run time.
    public static func register(_ module: any LifecycleModule.Type) -> Self {
        Self(.register(ModuleType(type: module)))
    }
    /// `remove(_:)`: take the module of type `module` down from the host's state and drop it (see
    /// ``ApplicationHost/remove(_:file:line:)``). A module may post it for itself.
    public static func remove(_ module: any LifecycleModule.Type) -> Self { Self(.remove(ModuleType(type: module))) }
    /// `reloadModules()`: read the module switches again and turn modules on and off to match (see
    /// ``ApplicationHost/reloadModules(_:file:line:)``).
    public static let reloadModules = Self(.reloadModules)
    /// `releaseQuarantine(_:)`: bring a quarantined module back (see
    /// ``ApplicationHost/releaseQuarantine(_:file:line:)``).
    public static func releaseQuarantine(_ module: any LifecycleModule.Type) -> Self {
        Self(.releaseQuarantine(ModuleType(type: module)))
    }
    /// `send(_:)` of a custom event.
    package static func custom(_ event: LifecycleEvent) -> Self { Self(.custom(event)) }

    /// Whether this request changes the host's state (as opposed to delivering an event in place).
    public var isTransition: Bool {
        switch kind {
        case .launch, .enterForeground, .enterBackground, .resignActive, .becomeActive, .terminate: return true
        case .memoryWarning, .openURL, .custom, .register, .remove, .reloadModules, .releaseQuarantine, .quarantine,
            .idle, .waitTerminated:
            return false
        }
    }

    /// The host method that makes this request, as written in code.
    public var description: String {
        switch kind {
        case .launch: return "launch()"
        case .enterForeground: return "enterForeground()"
        case .enterBackground: return "enterBackground()"
        case .resignActive: return "resignActive()"
        case .becomeActive: return "becomeActive()"
        case .terminate: return "terminate()"
        case .memoryWarning: return "receiveMemoryWarning()"
        case .openURL(let url): return "open(\(url.absoluteString))"
        case .custom(let event): return "send(\(event.name))"
        case .register(let module): return "register(\(module.type.moduleName))"
        case .remove(let module): return "remove(\(module.type.moduleName))"
        case .reloadModules: return "reloadModules()"
        case .releaseQuarantine(let module): return "releaseQuarantine(\(module.type.moduleName))"
        case .quarantine(let module, _): return "quarantine(\(module.type.moduleName))"
        case .idle: return "waitUntilIdle()"
        case .waitTerminated: return "waitUntilTerminated()"
        }
    }

    /// The requests the host accepts in `state`, in the order a lifecycle usually makes them.
    public static func allowed(in state: ApplicationState) -> [HostRequest] {
        transitions.filter { HostStateMachine.allows($0, in: state) }
    }

    /// The state transitions, in the order a lifecycle usually makes them.
    private static let transitions: [HostRequest] = [
        .launch, .becomeActive, .enterForeground, .enterBackground, .resignActive, .terminate,
    ]
}
