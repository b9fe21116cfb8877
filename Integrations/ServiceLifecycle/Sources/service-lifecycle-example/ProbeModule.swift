import LifecycleCore

/// A module the manifest does not list: an operator adds it to the running host and takes it away again
/// through the admin API (`POST /admin/probe/register`, `POST /admin/probe/remove`), which calls
/// `host.register(_:)` and `host.remove(_:)`. It tries late registration on a live server: a registered probe
/// is caught up to the host's state (`willFinishLaunching` … `didBecomeActive`, each in the transcript as a
/// delivery), and a removed one is torn down from it (`willResignActive` … `willTerminate`).
///
/// It depends on `StoreModule`, so it joins after it and must be removed before it. The soak
/// (`Scripts/soak.py`) registers and removes it thousands of times under load.
struct ProbeModule: LifecycleModule, DependentModule, DidBecomeActive, WillTerminate {
    static let priority: ModulePriority = .low
    static let dependencies: [any LifecycleModule.Type] = [StoreModule.self]

    init(context: LifecycleContext) {}

    func didBecomeActive(_ context: LifecycleContext) {}

    func willTerminate(_ context: LifecycleContext) async throws {}
}
