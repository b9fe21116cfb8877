public import LifecycleCore

/// Stands between the host and the participants — the program's own delegate and the modules of a
/// manifest — and fans each event out to every participant that implements it.
///
/// ## Order
/// - Forward events (launch, the launch stages, foreground, open-URL, memory warning, custom events): the
///   program's delegate first, then modules in dependency order, by priority where dependencies leave a
///   choice (`Docs/Ordering.md`).
/// - Reverse events (`willResignActive`, `didEnterBackground`, `willTerminate`): the exact mirror — modules
///   by priority, lowest first, then the program's delegate.
/// - Equal priorities keep manifest order (reversed, with everything else, for reverse events).
///
/// ## Results
/// Only participants that implement an event are called, and only they count. Every implementer is
/// called — no short-circuit — and Bool results are OR-combined. When no participant answers, the event's
/// default applies (see `LifecycleEvent.resultRule`). A hook that throws is recorded in the
/// outcome's `failures` and delivery goes on.
///
/// Programs build a host with `ApplicationHost(manifest:delegate:launchOptions:configuration:)`, which
/// builds its proxy. A proxy on its own, built with ``init(manifest:delegate:launchOptions:)``, shows the
/// order and the implementers of each event without a host; it delivers nothing.
///
/// ## Cost
/// The order, and one implementer list per event, are computed once, in the initializer. Delivering an
/// event walks one array by index: no existential copy per participant and no lookup; nothing is allocated
/// per participant unless a hook throws.
public final class DelegateProxy: Sendable {
    /// Every participant: the program's delegate first if there is one, then modules by priority.
    public let participants: [Participant]
    /// The custom events at least one participant handles, in registration order.
    public let customEvents: [LifecycleEvent]
    /// The manifest's modules that are off, with the reason, in manifest order: disabled in this environment
    /// (`EnvironmentGatedModule`), switched off (`ModuleSwitches`), quarantined, or off because a
    /// dependency is.
    public var disabledModules: [(name: String, reason: String)] { switchboard.disabled }
    /// The context every participant receives.
    public let context: LifecycleContext

    /// The program's delegate, if there is one.
    let delegateSlot: DelegateSlot?
    /// The modules, in delivery order.
    let modules: [ModuleSlot]
    /// Each module's position in ``modules``, by type: what ``participant(of:)`` reads, so a request
    /// asking whether a module serves costs one lookup, not a scan of every participant.
    let positions: TypeTable
    /// The id the next registered module receives.
    let nextID: Int
    /// Every module the host knows, on or off, and why those that are off are off.
    let switchboard: Switchboard

    /// Each built-in event's implementers, in delivery order (`DelegateProxy+Events.swift`, generated from the
    /// event table).
    let implementers: BuiltinImplementers
    /// Each participant's direct dependencies (participant ids), by its position in ``participants``: those
    /// of the participant at `p` are `dependencyList[dependencyStart[p]..<dependencyStart[p + 1]]`.
    let dependencyStart: [Int]
    let dependencyList: [Int]
    /// The position of each participant id, for a proxy rebuilt after a registration or a removal; `nil`
    /// when every id is its position (a manifest's proxy). Ids are never reused, so a table indexed by id
    /// would grow with every registration the process ever made.
    let dependencyPositions: [Int: Int]?
    let customRoutes: [ObjectIdentifier: any AnyCustomRoute]
    /// The module types with their own budgets, by participant id.
    let budgeted: [Int: any TimeBudgetedModule.Type]
    /// See ``shortestModuleBudget(for:)``.
    let shortestBudgets: [LifecycleEvent: Duration]
    /// The modules' own launch failure policies, by participant id.
    let policies: [Int: ModuleFailurePolicy]
    /// What the manifest brings to its hosts, told when a host installs these participants (`didInstall`).
    let preparations: [any ManifestPreparation]

    /// Builds a proxy that stands on its own, outside an `ApplicationHost` (for tests and
    /// benchmarks). Its participants' `LifecycleContext.events` belong to no host.
    ///
    /// - Throws: ``ManifestError`` if the manifest is empty, lists a type twice, has a priority out of
    ///   range, or a module's initializer throws.
    public convenience init(
        manifest: ModuleManifest,
        delegate: (any ApplicationDelegate)? = nil,
        launchOptions: LaunchOptions = LaunchOptions()
    ) throws(ManifestError) {
        var options = launchOptions
        let prepared = try manifest.prepared(launchOptions: &options)
        try self.init(manifest: prepared, delegate: delegate, context: LifecycleContext(launchOptions: options))
    }

    /// Builds a proxy whose participants receive `context`.
    package convenience init(
        manifest: ModuleManifest,
        delegate: (any ApplicationDelegate)?,
        context: LifecycleContext
    ) throws(ManifestError) {
        // The whole manifest is validated first, so a disabled module cannot hide an error that would
        // appear in another environment.
        let whole = try Self.validatedOrder(of: manifest)
        let switches: ModuleSwitches
        do {
            switches = try ModuleSwitches.load(from: context.launchOptions)
        } catch {
            throw Self.invalidSwitches(error, manifest: manifest.name)
        }
        let (enabledManifest, disabled) = try Self.gate(manifest, options: context.launchOptions, switches: switches)
        let delivery = disabled.isEmpty ? whole : try Self.validatedOrder(of: enabledManifest, disabled: disabled)
        let ordered = delivery.entries

        // Create each module once, in delivery order, and report every initializer that throws.
        var modules: [any LifecycleModule] = []
        var failed: [(name: String, error: any Error)] = []
        modules.reserveCapacity(ordered.count)
        for index in ordered.indices {
            do {
                modules.append(try ordered[index].type.init(context: context))
            } catch {
                failed.append((ordered[index].moduleName, error))
            }
        }
        if !failed.isEmpty {
            throw ManifestError(
                code: .moduleInitializationFailed,
                modules: failed.map(\.name),
                underlyingErrors: failed.map(\.error),
                description: failed.map { "`\($0.name)`.init(context:) threw: \($0.error)" }
                    .joined(separator: "; ")
                    + ". No event was delivered. Fix the initializer, or move fallible work into a launch hook, "
                    + "where a failure is reported without stopping the other modules."
            )
        }

        // Identities: the delegate, then modules in delivery order.
        var nextID = 0
        var delegateSlot: DelegateSlot?
        if let delegate {
            delegateSlot = DelegateSlot(
                participant: Participant(type: type(of: delegate), priority: nil, id: nextID),
                instance: delegate
            )
            nextID += 1
        }
        var slots: [ModuleSlot] = []
        slots.reserveCapacity(ordered.count)
        for index in ordered.indices {
            let type = ordered[index].type
            slots.append(
                ModuleSlot(
                    entry: ordered[index],
                    instance: modules[index],
                    participant: Participant(type: type, priority: type.priority, id: nextID)
                )
            )
            nextID += 1
        }
        // Debug builds compare each declared module with the runtime, once per manifest (a proxy rebuilt after
        // a registration keeps the modules already checked).
        #if DEBUG
        try Self.checkDeclarations(of: slots)
        #endif
        // The dependencies the order was computed from, by position, which is the participant's id here: the
        // delegate depends on nobody.
        let base = delegateSlot == nil ? 0 : 1
        let dependencies = (
            start: Array(repeating: 0, count: base) + delivery.dependencyStart,
            list: base == 0 ? delivery.dependencyList : delivery.dependencyList.map { $0 + base }
        )
        try self.init(
            delegate: delegateSlot,
            modules: slots,
            nextID: nextID,
            switchboard: Switchboard(
                catalog: manifest.entries,
                switches: switches,
                quarantined: [:],
                disabled: disabled
            ),
            context: context,
            preparations: manifest.preparations,
            dependencies: dependencies
        )
    }

    /// Builds the tables for a delegate and modules that already exist, in delivery order: a manifest's
    /// modules, or a running host's modules after a registration or a removal.
    init(
        delegate: DelegateSlot?,
        modules: [ModuleSlot],
        nextID: Int,
        switchboard: Switchboard,
        context: LifecycleContext,
        preparations: [any ManifestPreparation],
        dependencies known: (start: [Int], list: [Int])? = nil
    ) throws(ManifestError) {
        self.preparations = preparations
        self.delegateSlot = delegate
        self.modules = modules
        self.nextID = nextID
        self.switchboard = switchboard

        // The participants: the delegate, then modules in delivery order; and their hooks, gathered per event,
        // declared by a generated manifest or found by runtime casts (see `ModuleHooks`).
        var participants: [Participant] = []
        participants.reserveCapacity(modules.count + 1)
        var hooks = ModuleHooks()
        if let delegate {
            hooks.position = participants.count
            participants.append(delegate.participant)
            hooks.add(casting: delegate.instance)
        }
        for index in modules.indices {
            hooks.position = participants.count
            participants.append(modules[index].participant)
            modules[index].entry.addHooks(of: modules[index].instance, to: &hooks)
        }
        self.participants = participants
        var positions = TypeTable(capacity: modules.count)
        for index in modules.indices { positions.insert(modules[index].entry.type, index) }
        self.positions = positions
        var budgeted: [Int: any TimeBudgetedModule.Type] = [:]
        var policies: [Int: ModuleFailurePolicy] = [:]
        for index in modules.indices {
            let id = modules[index].participant.id
            if let type = modules[index].entry.budgeted { budgeted[id] = type }
            if let type = modules[index].entry.failurePolicy { policies[id] = type.failurePolicy }
        }
        self.budgeted = budgeted
        self.policies = policies
        if let known {
            // From the manifest's order, which read every module's dependencies already.
            (self.dependencyStart, self.dependencyList) = known
            self.dependencyPositions = nil
        } else {
            (self.dependencyStart, self.dependencyList) = Self.dependencyTable(of: modules, after: delegate != nil)
            var positions: [Int: Int] = [:]
            positions.reserveCapacity(participants.count)
            for position in participants.indices { positions[participants[position].id] = position }
            self.dependencyPositions = positions
        }
        self.context = context
        let implementers = BuiltinImplementers(hooks.builtins, participants)
        self.implementers = implementers

        var routes = CustomRouteTable()
        for (position, handler) in hooks.customEventHandlers {
            try Self.register(handler, as: participants[position], in: &routes)
        }
        (self.customRoutes, self.customEvents) = routes.build()
        self.shortestBudgets = Self.shortestBudgets(budgeted, implementers)
    }

    /// The shortest own budget (``TimeBudgetedModule``) among each built-in event's implementers, for the
    /// events where one has a budget. Read once, when the proxy is built: delivery looks one up per event.
    private static func shortestBudgets(
        _ budgeted: [Int: any TimeBudgetedModule.Type],
        _ implementers: BuiltinImplementers
    ) -> [LifecycleEvent: Duration] {
        guard !budgeted.isEmpty else { return [:] }
        var shortest: [LifecycleEvent: Duration] = [:]
        for event in LifecycleEvent.builtinEvents {
            guard case .builtin(let builtin) = event.kind else { continue }
            for participant in implementers.participants(of: builtin) {
                guard let budget = budgeted[participant.id]?.budget(for: event) else { continue }
                shortest[event] = min(shortest[event] ?? budget, budget)
            }
        }
        return shortest
    }

    /// The ids each participant depends on, as `dependencyStart`/`dependencyList` hold them, read from the
    /// modules' types: for a proxy rebuilt after a registration or a removal. `delegate`: whether the
    /// delegate comes first, at position 0, depending on nobody.
    private static func dependencyTable(of modules: [ModuleSlot], after delegate: Bool) -> (start: [Int], list: [Int]) {
        var idOfType = TypeTable(capacity: modules.count)
        for index in modules.indices { idOfType.insert(modules[index].entry.type, modules[index].participant.id) }
        // One array for all participants, not one each, in their order.
        var start = [0]
        start.reserveCapacity(modules.count + 2)
        if delegate { start.append(0) }
        var list: [Int] = []
        list.reserveCapacity(modules.count * 2)
        for index in modules.indices {
            let first = list.count
            for type in modules[index].entry.allDependencies {
                guard let dependency = idOfType[type], !list[first...].contains(dependency) else { continue }
                list.append(dependency)
            }
            start.append(list.count)
        }
        return (start, list)
    }

    // MARK: - Reading

    /// Whether the program's delegate or at least one module implements `event`.
    public func responds(to event: LifecycleEvent) -> Bool { !plan(for: event).isEmpty }

    /// The participants that receive `event`, in delivery order.
    public func plan(for event: LifecycleEvent) -> [Participant] {
        switch event.kind {
        case .builtin(let builtin): return implementers.participants(of: builtin)
        case .custom(let key):
            guard let route = customRoutes[key] else { return [] }
            return route.participants
        case .message:
            // Messages are routed by LifecycleMessaging, which lists their receivers itself.
            return []
        }
    }
}
