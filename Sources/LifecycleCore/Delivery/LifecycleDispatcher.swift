#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Which implementers of an event a delivery reaches.
package enum DeliveryScope: Sendable {
    /// Every implementer, whatever the others do.
    case all
    /// Implementers in order, stopping after one whose participant id is in the set throws.
    case untilFailureOf(Set<Int>)
    /// Only the implementers whose participant id is in the set, in order.
    case only(Set<Int>)
}

/// The host's view of its participants. The delegate proxy is the implementation; the host depends only on
/// this seam.
package protocol LifecycleDispatcher: Sendable {
    /// Every participant, in delivery order: the delegate first if there is one, then modules in dependency
    /// and priority order.
    var participants: [Participant] { get }
    /// The custom events at least one participant handles, in registration order.
    var customEvents: [LifecycleEvent] { get }
    /// The manifest's modules disabled in this environment, with the reason.
    var disabledModules: [(name: String, reason: String)] { get }
    /// The participants that implement `event`, in delivery order.
    func plan(for event: LifecycleEvent) -> [Participant]
    /// Delivers a built-in event that carries no argument (every built-in event but open-URL).
    ///
    /// Delivery starts at position `from` of the event's plan; `supervisor`, when set, is told about each
    /// hook call and can stop the loop (see ``DeliverySupervisor``).
    func deliver(
        _ event: LifecycleEvent,
        scope: DeliveryScope,
        observer: DeliveryObserver?,
        from: Int,
        supervisor: (any DeliverySupervisor)?
    ) async -> EventOutcome<Bool>
    /// Delivers open-URL.
    func open(
        _ url: URL,
        observer: DeliveryObserver?,
        from: Int,
        supervisor: (any DeliverySupervisor)?
    ) async -> EventOutcome<Bool>
    /// Delivers a custom event.
    func deliver<E: CustomEvent>(
        _ event: E,
        observer: DeliveryObserver?,
        from: Int,
        supervisor: (any DeliverySupervisor)?
    ) async -> EventOutcome<E.Result>
    /// A call of the warm-up hook at `position` of the warm-up plan, for the host to run concurrently.
    func warmUpCall(at position: Int) -> @Sendable () async throws -> Void
    /// The ids of the participants `participant` directly depends on.
    func dependencies(of participant: Participant) -> ArraySlice<Int>
    /// The modules `participant` directly depends on, in declared order, each with why.
    func explainedDependencies(of participant: Participant) -> [ModuleDependency]
    /// The participant's own launch failure policy (``FailurePolicyModule``), or `nil`.
    func failurePolicy(of participant: Participant) -> ModuleFailurePolicy?
    /// The participant's own budget for `event` (``TimeBudgetedModule``), or `nil`.
    func moduleBudget(_ participant: Participant, for event: LifecycleEvent) -> Duration?
    /// The shortest own budget for `event` among the participants that receive it, or `nil` if none has
    /// one: the soonest any of its hooks can run past a budget of its own. Built-in events read it once.
    func shortestModuleBudget(for event: LifecycleEvent) -> Duration?
    /// The participant's launch budget (``LaunchBudgetedModule``), or `nil`. Looked up when asked, not
    /// when the participants are built: it is a conformance check, and launch need not pay for it.
    func launchBudget(of participant: Participant) -> Duration?
    /// The participant `module` is, or `nil` when it is none now; one table lookup.
    func participant(of module: any LifecycleModule.Type) -> Participant?
    /// A dispatcher with the same participants plus a new instance of `module`, and its participant.
    /// Throws if the module cannot join (already there, disabled, a dependency missing, its initializer
    /// threw); nothing is created or delivered then.
    func adding(
        _ module: any LifecycleModule.Type
    ) throws -> (dispatcher: any LifecycleDispatcher, participant: Participant)
    /// A dispatcher without `module`, and the participant it was. Throws if `module` is not a participant
    /// or others depend on it. With a `reason`, the module is switched off rather than removed: it is listed
    /// in ``disabledModules`` with the reason, and a later switch plan can bring it back.
    func removing(
        _ module: any LifecycleModule.Type,
        reason: String?
    ) throws -> (dispatcher: any LifecycleDispatcher, participant: Participant)
    /// The switches the current participants were chosen with (``ModuleSwitches``).
    var switches: ModuleSwitches { get }
    /// What turning the modules to `switches` and `quarantined` (module-qualified name → why) takes. Throws
    /// ``ModuleSwitchesError`` when a switch names no module.
    func switchPlan(
        switches: ModuleSwitches,
        quarantined: [String: String]
    ) throws(ModuleSwitchesError) -> ModuleSwitchPlan
    /// This dispatcher with the plan's switches, quarantines and reasons recorded; the participants are
    /// unchanged.
    func applying(_ plan: ModuleSwitchPlan) throws -> any LifecycleDispatcher
    /// The module type of `participant`, or `nil` for the program's delegate.
    func moduleType(of participant: Participant) -> (any LifecycleModule.Type)?
    /// Tells what was built on the host (its manifest's preparations) that these participants are now the
    /// host's: called when the host is built and whenever it replaces its dispatcher.
    func didInstall()
    /// Tells the same that the host is gone (`ManifestPreparation.uninstall(context:)`).
    func didUninstall()
}
