import LifecycleCore
import Synchronization
import Vapor

/// What a module reaches of the Vapor application it runs in: the application itself (its middleware,
/// storage, client, its configuration), and a routes builder whose routes serve only while the module does.
///
///     func setUp(_ context: LifecycleContext) async throws {
///         let vapor = try context.vapor(for: Self.self)
///         vapor.routes.get("todos") { req in ... }
///     }
///
/// Register routes and middleware from a launch hook (`willFinishLaunching`, a stage, `didFinishLaunching`):
/// Vapor fixes its routes when the server starts, right after launch, so routes registered later never serve.
public struct VaporModuleContext: Sendable {
    /// The application the module runs in.
    public let application: Application
    /// The module, by its module-qualified type name.
    public let module: String
    let gate: ModuleGate
    let host: ApplicationHost

    /// Where the module registers its routes: `application.routes` behind the module's gate, each in a
    /// request scope. A route here answers 503 until the module's launch hooks succeeded, 503 if one threw
    /// or while the module is quarantined, and 404 once the module is switched off or removed.
    public var routes: any RoutesBuilder {
        ModuleRoutes(base: application.routes, gate: gate, host: host)
    }
}

extension LifecycleContext {
    /// The Vapor application `module` runs in, with `module`'s gated routes.
    ///
    /// - Parameters:
    ///   - module: the module asking, `Self.self`: its routes get its gate.
    ///   - event: where it asks, for the error; the calling function by default.
    /// - Throws: ``VaporModulesError/notInVaporHost(module:event:)`` when the host was not made by
    ///   `Application.useModules(_:configuration:launchOptions:drainDelay:)`, or the application shut down.
    public func vapor(
        for module: any LifecycleModule.Type,
        event: String = #function
    ) throws(VaporModulesError) -> VaporModuleContext {
        guard let current = launchOptions[VaporApplicationKey.self]?.current else {
            throw .notInVaporHost(module: module.moduleName, event: event)
        }
        let (application, modules) = current
        return VaporModuleContext(
            application: application,
            module: module.moduleName,
            gate: modules.gate(for: module),
            host: modules.host
        )
    }
}

/// Where the host's launch options keep the application: per host, never a global.
enum VaporApplicationKey: LaunchOptionKey {
    static let defaultValue: VaporApplicationReference? = nil
}

/// The application and its host, until shutdown: cleared then, so the host does not keep the application.
final class VaporApplicationReference: Sendable {
    private let state: Mutex<(application: Application?, modules: VaporModuleHost?)>

    init(application: Application) {
        state = Mutex((application, nil))
    }

    func attach(_ modules: VaporModuleHost) {
        state.withLock { $0.modules = modules }
    }

    func detach() {
        state.withLock { $0 = (nil, nil) }
    }

    var current: (Application, VaporModuleHost)? {
        state.withLock { state in
            guard let application = state.application, let modules = state.modules else { return nil }
            return (application, modules)
        }
    }
}
