import LifecycleCore

/// When a work runs: for the application's lifetime, or while the application is active.
///
/// | schedule | starts | stops |
/// |---|---|---|
/// | `.application()` | after `didFinishLaunching` is delivered to every participant | before `willTerminate` is delivered |
/// | `.application(startingAfter: .setup)` | after the `setup` stage | before `willTerminate` |
/// | `.whileActive` | after `didBecomeActive`, each time | before `willResignActive`, each time |
///
/// A module registered later starts its work once its catch-up is over; a module removed, switched off
/// or quarantined stops its work before its first teardown event.
public struct WorkSchedule: Sendable, Hashable, CustomStringConvertible {
    /// The launch stage after which application work starts.
    public enum LaunchStage: Sendable, Hashable {
        /// After the `setup` stage: before other modules initialize, for work they need (a metrics
        /// endpoint, a local cache).
        case setup
        /// After the `initialize` stage, before warm-up.
        case initialize
        /// After `didFinishLaunching`: launch has completed. The default.
        case didFinishLaunching
    }

    let boundary: WorkBoundary

    /// For the application's lifetime: starts after `stage`, runs until termination (or until its module
    /// is removed).
    public static func application(startingAfter stage: LaunchStage = .didFinishLaunching) -> WorkSchedule {
        switch stage {
        case .setup: WorkSchedule(boundary: .launched(.setup))
        case .initialize: WorkSchedule(boundary: .launched(.initialize))
        case .didFinishLaunching: WorkSchedule(boundary: .launched(.didFinishLaunching))
        }
    }

    /// While the application is active: starts after each `didBecomeActive`, stops before each
    /// `willResignActive` (so in the background it does not run), as Jetpack's `repeatOnLifecycle` does.
    public static let whileActive = WorkSchedule(boundary: .active)

    /// `application lifetime`, `application lifetime, from setup`, or `while active`: what `plan` prints.
    public var description: String {
        switch boundary {
        case .active: "while active"
        case .launched(let event) where event == .didFinishLaunching: "application lifetime"
        case .launched(let event): "application lifetime, from \(event.name)"
        }
    }
}
