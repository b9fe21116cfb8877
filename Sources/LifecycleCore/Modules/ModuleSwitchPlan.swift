/// What a reload or a quarantine changes in the participants, computed by the dispatcher from the
/// switches and the quarantines, and carried out by the host: the modules to take out, dependents first, with
/// why, and the modules to bring in, dependencies first.
package struct ModuleSwitchPlan: Sendable {
    /// Participants to take out, in teardown order (dependents before their dependencies).
    package var off: [(type: any LifecycleModule.Type, reason: String)]
    /// Modules to bring in, in catch-up order (dependencies before their dependents).
    package var on: [any LifecycleModule.Type]
    /// Every module that is off once the plan is carried out, with why, in catalog order.
    package var disabled: [(name: String, reason: String)]
    /// The switches the plan was computed from.
    package var switches: ModuleSwitches
    /// The quarantines it was computed with, by module-qualified name.
    package var quarantined: [String: String]

    package init(
        off: [(type: any LifecycleModule.Type, reason: String)],
        on: [any LifecycleModule.Type],
        disabled: [(name: String, reason: String)],
        switches: ModuleSwitches,
        quarantined: [String: String]
    ) {
        self.off = off
        self.on = on
        self.disabled = disabled
        self.switches = switches
        self.quarantined = quarantined
    }
}
