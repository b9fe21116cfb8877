import LifecycleCore
import LifecycleProxy
import LifecycleScopes
import Vapor

extension Application {
    /// Runs the modules of `manifest` in this application: the one line a `configure` needs.
    ///
    ///     try app.useModules(.discovered)
    ///
    /// It builds an `ApplicationHost` whose launch options carry this application (modules reach it with
    /// `context.vapor(for:)`), gives the manifest scopes if it has none, and registers a ``VaporModuleHost``
    /// as a lifecycle handler: the host launches in Vapor's async boot and terminates in its shutdown, and
    /// every route registered until then runs in a request scope (`req.modules.scope`). Register the health
    /// routes with ``VaporModuleHost/registerHealthRoutes(on:)``.
    ///
    /// - Parameters:
    ///   - manifest: the modules; `.discovered` for the plugin's.
    ///   - configuration: the host's configuration.
    ///   - launchOptions: what the modules read (`LaunchOptionKey`s, arguments, environment); this application
    ///     is added under its own key.
    ///   - drainDelay: how long readiness says 503 at shutdown before the server stops accepting: 5 seconds
    ///     by default, so a load balancer that polls readiness every second or two sees 503 and stops
    ///     sending before the listener closes, and a connection waiting in the backlog is answered instead
    ///     of reset. `.zero` for tests and for a server no balancer polls.
    /// - Returns: the host, also `app.modules`.
    /// - Throws: ``VaporModulesError/alreadyConfigured`` on a second call, and the `ManifestError` of a
    ///   manifest the host cannot be built from.
    @discardableResult
    public func useModules(
        _ manifest: ModuleManifest,
        configuration: ApplicationHost.Configuration = ApplicationHost.Configuration(),
        launchOptions: LaunchOptions = .current,
        drainDelay: Duration = .seconds(5)
    ) throws -> VaporModuleHost {
        guard modules == nil else { throw VaporModulesError.alreadyConfigured }
        var options = launchOptions
        let reference = VaporApplicationReference(application: self)
        options[VaporApplicationKey.self] = reference
        let host = try ApplicationHost(
            manifest: manifest.withScopes(discovered: []),
            launchOptions: options,
            configuration: configuration
        )
        let modules = VaporModuleHost(host: host, drainDelay: drainDelay)
        reference.attach(modules)
        storage[VaporModuleHostKey.self] = modules
        lifecycle.use(modules)
        return modules
    }

    /// The host `useModules(_:configuration:launchOptions:drainDelay:)` made, or `nil` before.
    public var modules: VaporModuleHost? {
        storage[VaporModuleHostKey.self]
    }
}

struct VaporModuleHostKey: StorageKey {
    typealias Value = VaporModuleHost
}
