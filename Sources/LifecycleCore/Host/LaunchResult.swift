/// The results of the two launch events.
public struct LaunchResult: Sendable, Hashable {
    /// The OR-combined result of ``LifecycleEvent/willFinishLaunching`` (`true` if nobody implements it).
    public var willFinishLaunching: Bool
    /// The OR-combined result of ``LifecycleEvent/didFinishLaunching`` (`true` if nobody implements it).
    public var didFinishLaunching: Bool

    public init(willFinishLaunching: Bool, didFinishLaunching: Bool) {
        self.willFinishLaunching = willFinishLaunching
        self.didFinishLaunching = didFinishLaunching
    }
}
