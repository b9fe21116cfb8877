import LifecycleCore
import LifecycleHosting

// README: runner-module
/// Opens its listener at launch and closes it at termination; re-reads its settings on SIGHUP.
struct ListenerModule: LifecycleModule, DidFinishLaunching, DidEnterBackground, WillEnterForeground,
    WillTerminate, CustomEventHandling
{
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        print("listener: accepting connections")
        return true
    }

    func didEnterBackground(_ context: LifecycleContext) { print("listener: paused") }
    func willEnterForeground(_ context: LifecycleContext) { print("listener: resumed") }
    func willTerminate(_ context: LifecycleContext) async { print("listener: drained and closed") }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(ReloadRequested.self) { _, event, _ in
            print("listener: settings re-read on \(event.signal)")
            return false  // nothing changed
        }
    }
}
// README: end
