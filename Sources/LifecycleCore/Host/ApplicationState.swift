/// The states of an ``ApplicationHost``.
///
/// ```
/// notRunning → launching → active ⇄ inactive ⇄ background
///                           active, inactive, background → terminating → terminated
/// ```
///
/// `launching` and `terminating` are visible only while their events are being delivered.
/// `Docs/Events.md` lists every transition and the events it emits.
public enum ApplicationState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Created, not launched yet.
    case notRunning
    /// Delivering the launch events.
    case launching
    /// In the foreground and active: serving.
    case active
    /// In the foreground but not active: between active and background.
    case inactive
    /// In the background.
    case background
    /// Delivering ``LifecycleEvent/willTerminate``.
    case terminating
    /// Terminated, for good. Nothing more can be delivered.
    case terminated

    /// Whether the host is launched and not terminating: the states in which the non-transition events
    /// (memory warning, open-URL, custom events) can be delivered.
    public var isRunning: Bool {
        switch self {
        case .active, .inactive, .background: return true
        case .notRunning, .launching, .terminating, .terminated: return false
        }
    }

    public var description: String { rawValue }
}
