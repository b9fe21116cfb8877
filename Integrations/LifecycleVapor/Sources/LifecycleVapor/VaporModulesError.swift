import Vapor

/// A mistake in wiring ModuleLifecycle into a Vapor application: each case names where it happened and
/// how to fix it. Vapor answers it as a 500 with the description as its reason.
public enum VaporModulesError: Error, Equatable, CustomStringConvertible, AbortError {
    /// `module` asked for the Vapor application (`LifecycleContext.vapor(for:)`) during `event`, but its
    /// host was not made by `Application.useModules(_:configuration:launchOptions:)`.
    case notInVaporHost(module: String, event: String)
    /// A request at `path` asked for its modules (`Request.modules`), but the application runs no host.
    case notConfigured(path: String)
    /// `Application.useModules(_:configuration:launchOptions:)` was called a second time.
    case alreadyConfigured
    /// The application booted with the synchronous `boot()` (or `testing()` before `asyncBoot()`), which
    /// cannot await a launch.
    case synchronousBoot

    public var description: String {
        switch self {
        case .notInVaporHost(let module, let event):
            "\(module) asked for the Vapor application in \(event), but its host runs outside Vapor: make the host "
                + "with app.useModules(_:) in configure, or do not call context.vapor(for:) in this host."
        case .notConfigured(let path):
            "The request \(path) asked for its modules, but the application runs none: call "
                + "app.useModules(_:) in configure before the routes that use req.modules."
        case .alreadyConfigured:
            "app.useModules(_:) was called twice: an application runs one host; combine the manifests "
                + "(ModuleManifest(combining:)) and call it once."
        case .synchronousBoot:
            "The application booted synchronously (boot(), or testing() before asyncBoot()), and the modules "
                + "launch in Vapor's async boot: call app.execute() or app.startup(), or await app.asyncBoot() "
                + "before app.testing()."
        }
    }

    /// 500: each case is a programming mistake, not the client's.
    public var status: HTTPResponseStatus { .internalServerError }

    /// The description.
    public var reason: String { description }
}
