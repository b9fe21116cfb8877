import Foundation
import LifecycleCore
import Synchronization

final class StateLog: Sendable {
    let host = Mutex<ApplicationHost?>(nil)
    private let log = Mutex<[String]>([])

    func note(_ event: String) {
        let state = host.withLock { $0?.state.description ?? "no host" }
        log.withLock { $0.append("\(event) \(state)") }
    }

    var entries: [String] { log.withLock { $0 } }
}

enum StateLogKey: LaunchOptionKey {
    static let defaultValue = StateLog()
}

/// Records the host's state as each hook sees it.
struct StateReader: LifecycleModule, WillFinishLaunching, DidFinishLaunching, WillEnterForeground, DidBecomeActive,
    WillResignActive, DidEnterBackground, WillTerminate
{
    let log: StateLog
    init(context: LifecycleContext) { log = context.launchOptions[StateLogKey.self] }

    func willFinishLaunching(_ context: LifecycleContext) -> Bool {
        log.note("willFinishLaunching")
        return true
    }
    func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        log.note("didFinishLaunching")
        return true
    }
    func willEnterForeground(_ context: LifecycleContext) { log.note("willEnterForeground") }
    func didBecomeActive(_ context: LifecycleContext) { log.note("didBecomeActive") }
    func willResignActive(_ context: LifecycleContext) { log.note("willResignActive") }
    func didEnterBackground(_ context: LifecycleContext) { log.note("didEnterBackground") }
    func willTerminate(_ context: LifecycleContext) { log.note("willTerminate") }
}
