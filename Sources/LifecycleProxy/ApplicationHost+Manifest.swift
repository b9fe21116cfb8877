public import LifecycleCore

extension ApplicationHost {
    /// Creates a host that delivers events to `delegate` and to the modules of `manifest`.
    ///
    /// The modules are created here, once each, in delivery order, with the host's context. Nothing is
    /// delivered until `ApplicationHost.launch`.
    ///
    /// - Parameters:
    ///   - manifest: The module types to create.
    ///   - delegate: The program's own application delegate, if it has one. It receives forward events
    ///     before every module and reverse events after every module.
    ///   - launchOptions: What modules read from their context. Defaults to the process's arguments and
    ///     environment.
    ///   - configuration: How the host reports deliveries and handles failures.
    /// - Throws: ``ManifestError`` if the manifest is invalid or a module's initializer throws.
    public init(
        manifest: ModuleManifest,
        delegate: (any ApplicationDelegate)? = nil,
        launchOptions: LaunchOptions = .current,
        configuration: Configuration = Configuration()
    ) throws(ManifestError) {
        var options = launchOptions
        let prepared = try manifest.prepared(launchOptions: &options)
        try self.init(launchOptions: options, configuration: configuration) { context throws(ManifestError) in
            try DelegateProxy(manifest: prepared, delegate: delegate, context: context)
        }
    }
}

extension ModuleManifest {
    /// The manifest a host builds from, after every preparation it brings (LifecycleServices' registry,
    /// for one), and the launch options they add to. One call per host.
    package func prepared(launchOptions: inout LaunchOptions) throws(ManifestError) -> ModuleManifest {
        var manifest = self
        for preparation in preparations {
            do {
                manifest = try preparation.prepare(manifest, launchOptions: &launchOptions)
            } catch let error as ManifestError {
                throw error
            } catch {
                throw ManifestError(
                    code: .preparationFailed,
                    modules: [],
                    underlyingErrors: [error],
                    description: "Preparing \(Self.called(name)) for a host failed (`\(preparation.key)`): \(error). "
                        + "No module was created."
                )
            }
        }
        return manifest
    }
}
