public import LifecycleCore

/// The synchronous hooks of the hand-written baselines: what a participant offers when its events need no
/// `async`. ``Numbered`` adopts it next to the library's async capability protocols, so the baselines call
/// the very same module types the proxy calls.
public protocol SyncHooks: Sendable {
    /// Receives the fan-out event; the synchronous twin of `didBecomeActive(_:)`.
    func becomeActiveNow()
    /// Receives the Bool event; the synchronous twin of `didFinishLaunching(_:)`.
    func finishLaunchingNow() -> Bool
}

/// The physical limit's participant: one final class, called directly, never inlined.
///
/// A loop over `[ConcreteParticipant]` is the least any fan-out can cost: a load and a direct call per
/// participant, with the same hook body as every other system (``HookTally/tick()``).
public final class ConcreteParticipant: Sendable {
    let vote: Bool

    public init(vote: Bool) { self.vote = vote }

    /// The fan-out event.
    @inline(never)
    public func becomeActive() { HookTally.tick() }

    /// The Bool event.
    @inline(never)
    public func finishLaunching() -> Bool {
        HookTally.tick()
        return vote
    }
}

/// The custom event of the benchmark: a Bool event delivered through the proxy's custom-event routes.
/// ``Numbered`` handles it with a synchronous closure.
public struct Ping: CustomEvent {
    public typealias Result = Bool

    public init() {}
}

/// ``Ping``'s twin that ``Numbered`` handles with an `async` closure: the same work, awaited.
public struct AsyncPing: CustomEvent {
    public typealias Result = Bool

    public init() {}
}
