/// Something that must hold after every step of every random lifecycle (``LifecycleExploration``).
///
/// ```swift
/// LifecycleInvariant("the cache never serves before the pool is ready") { snapshot in
///     let ledger = snapshot.launchOptions[LedgerKey.self]
///     return ledger.servedBeforeReady == 0
/// }
/// ```
///
/// The check reads what the run left: the host, the deliveries so far, the faults injected, and whatever
/// the modules recorded in objects the test put in the launch options (see
/// ``LifecycleExploration/init(manifest:invariants:actions:urls:faults:steps:changesMembership:configuration:launchOptions:)``).
public struct LifecycleInvariant: Sendable {
    /// What must hold, as a failure report names it.
    public let name: String
    let holds: @Sendable (LifecycleSnapshot) -> Bool

    /// An invariant named `name` that holds when `holds` returns `true`.
    public init(_ name: String, holds: @escaping @Sendable (LifecycleSnapshot) -> Bool) {
        self.name = name
        self.holds = holds
    }
}
