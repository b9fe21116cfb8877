/// A module type with the capabilities the discovery plugin read from its source: the hooks it implements
/// and which of them are synchronous, and whether it declares dependencies, an environment rule, time
/// budgets or a failure policy. A host built from declared modules learns all of it without asking the
/// runtime.
///
/// `ModuleDiscoveryPlugin` writes these; nobody needs to. The generated code passes the module type itself
/// where a capability protocol is expected, and calls a synchronous hook from a synchronous closure, so a
/// claim the type does not meet is a compile error, not a wrong table. A capability the plugin could not see (a conformance added in another target, say) is
/// the one way a declaration can be incomplete: debug builds compare every declaration with the runtime's
/// answer when a host is built, and throw a `ManifestError` with code `capabilityMismatch` that names the
/// module and what differs. Release builds trust the declarations and cast nothing.
///
/// ```swift
/// DeclaredModule(CacheModule.self, dependent: CacheModule.self) { module, hooks in
///     let module = module as! CacheModule
///     hooks.warmUp(module)
///     hooks.didReceiveMemoryWarning(module, synchronously: { module.didReceiveMemoryWarning($0) })
/// }
/// ```
public struct DeclaredModule: Sendable {
    /// The module type.
    public let type: any LifecycleModule.Type
    /// What the type implements, or `nil` when the host asks the runtime.
    package let capabilities: ModuleCapabilities?

    /// A module whose capabilities the host learns at run time, by casting: what the plugin writes for a
    /// type whose conformances it cannot all see (one that adopts a protocol from a package it does not
    /// scan, for example).
    public init(_ type: any LifecycleModule.Type) {
        self.type = type
        self.capabilities = nil
    }

    /// A module whose capabilities are declared.
    ///
    /// - Parameters:
    ///   - type: The module type.
    ///   - dependent: `type` again if it is a ``DependentModule``, else `nil`.
    ///   - gated: `type` again if it is an ``EnvironmentGatedModule``, else `nil`.
    ///   - budgeted: `type` again if it is a ``TimeBudgetedModule``, else `nil`.
    ///   - failurePolicy: `type` again if it is a ``FailurePolicyModule``, else `nil`.
    ///   - hooks: Given an instance of `type`, calls the ``ModuleHooks`` method of each event it handles.
    public init(
        _ type: any LifecycleModule.Type,
        dependent: (any DependentModule.Type)? = nil,
        gated: (any EnvironmentGatedModule.Type)? = nil,
        budgeted: (any TimeBudgetedModule.Type)? = nil,
        failurePolicy: (any FailurePolicyModule.Type)? = nil,
        hooks: @escaping @Sendable (any LifecycleModule, inout ModuleHooks) -> Void
    ) {
        self.type = type
        self.capabilities = ModuleCapabilities(
            dependent: dependent,
            gated: gated,
            budgeted: budgeted,
            failurePolicy: failurePolicy,
            hooks: hooks
        )
    }
}

/// The declared half of a ``DeclaredModule``: its type-level capabilities as typed metatypes, and the
/// function that fills an instance's ``ModuleHooks``.
///
/// A class, so a manifest entry holds one reference to it: entries are copied as a manifest is combined,
/// ordered and turned into participants, and for 10,000 modules every word of an entry is 80 KB more
/// memory to touch at startup.
package final class ModuleCapabilities: Sendable {
    package let dependent: (any DependentModule.Type)?
    package let gated: (any EnvironmentGatedModule.Type)?
    package let budgeted: (any TimeBudgetedModule.Type)?
    package let failurePolicy: (any FailurePolicyModule.Type)?
    package let hooks: @Sendable (any LifecycleModule, inout ModuleHooks) -> Void

    init(
        dependent: (any DependentModule.Type)?,
        gated: (any EnvironmentGatedModule.Type)?,
        budgeted: (any TimeBudgetedModule.Type)?,
        failurePolicy: (any FailurePolicyModule.Type)?,
        hooks: @escaping @Sendable (any LifecycleModule, inout ModuleHooks) -> Void
    ) {
        self.dependent = dependent
        self.gated = gated
        self.budgeted = budgeted
        self.failurePolicy = failurePolicy
        self.hooks = hooks
    }

    /// What the type-level capabilities are, one line each, to compare with the runtime's answer.
    package var shape: [String] {
        [
            dependent.map { _ in "DependentModule" }, gated.map { _ in "EnvironmentGatedModule" },
            budgeted.map { _ in "TimeBudgetedModule" }, failurePolicy.map { _ in "FailurePolicyModule" },
        ]
        .compactMap { $0 }
    }
}

extension ModuleManifest.Entry {
    /// The module type as a ``DependentModule``, from its declaration if it has one, else by a runtime cast.
    package var dependent: (any DependentModule.Type)? {
        if let capabilities { return capabilities.dependent }
        return type as? any DependentModule.Type
    }

    /// The module type as an ``EnvironmentGatedModule``: declared, else cast.
    package var gated: (any EnvironmentGatedModule.Type)? {
        if let capabilities { return capabilities.gated }
        return type as? any EnvironmentGatedModule.Type
    }

    /// The module type as a ``TimeBudgetedModule``: declared, else cast.
    package var budgeted: (any TimeBudgetedModule.Type)? {
        if let capabilities { return capabilities.budgeted }
        return type as? any TimeBudgetedModule.Type
    }

    /// The module type as a ``FailurePolicyModule``: declared, else cast.
    package var failurePolicy: (any FailurePolicyModule.Type)? {
        if let capabilities { return capabilities.failurePolicy }
        return type as? any FailurePolicyModule.Type
    }

    /// Adds the hooks of `instance`, an instance of this entry's type, to `hooks` at its current position:
    /// declared, else cast.
    package func addHooks(of instance: any LifecycleModule, to hooks: inout ModuleHooks) {
        guard let capabilities else { return hooks.add(casting: instance) }
        capabilities.hooks(instance, &hooks)
    }

    /// What the runtime says the type's type-level capabilities are, in the order of
    /// `ModuleCapabilities.shape`.
    package var castShape: [String] {
        [
            (type as? any DependentModule.Type).map { _ in "DependentModule" },
            (type as? any EnvironmentGatedModule.Type).map { _ in "EnvironmentGatedModule" },
            (type as? any TimeBudgetedModule.Type).map { _ in "TimeBudgetedModule" },
            (type as? any FailurePolicyModule.Type).map { _ in "FailurePolicyModule" },
        ]
        .compactMap { $0 }
    }
}
