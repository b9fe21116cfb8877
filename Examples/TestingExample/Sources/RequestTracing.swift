import LifecycleCore

/// Traces every request. Too costly for production: it runs only in the development and staging
/// profiles.
struct RequestTracingModule: LifecycleModule, EnvironmentGatedModule, WillFinishLaunching, WillTerminate {
    static let priority: ModulePriority = .maximum

    init(context: LifecycleContext) {}

    static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        .onlyInProfiles(["development", "staging"], options)
    }

    func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        true
    }

    func willTerminate(_ context: LifecycleContext) {}
}
