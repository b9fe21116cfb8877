import LifecycleCore

final class StateLog: Sendable {
    private let log = Locked<[String]>([])

    func note(_ event: String, _ context: LifecycleContext) {
        log.withLock { $0.append("\(event) \(context.applicationState)") }
    }

    var entries: [String] { log.withLock { $0 } }
}

enum StateLogKey: LaunchOptionKey {
    static let defaultValue = StateLog()
}

/// Records the host's state as each hook sees it through its context.
struct StateReader: LifecycleModule, WillFinishLaunching, DidFinishLaunching, WillEnterForeground, DidBecomeActive,
    WillResignActive, DidEnterBackground, WillTerminate
{
    static let priority: ModulePriority = .normal
    let log: StateLog
    init(context: LifecycleContext) { log = context.launchOptions[StateLogKey.self] }

    func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        log.note("willFinishLaunching", context)
        return true
    }
    func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        log.note("didFinishLaunching", context)
        return true
    }
    func willEnterForeground(_ context: LifecycleContext) { log.note("willEnterForeground", context) }
    func didBecomeActive(_ context: LifecycleContext) { log.note("didBecomeActive", context) }
    func willResignActive(_ context: LifecycleContext) { log.note("willResignActive", context) }
    func didEnterBackground(_ context: LifecycleContext) { log.note("didEnterBackground", context) }
    func willTerminate(_ context: LifecycleContext) { log.note("willTerminate", context) }
}
