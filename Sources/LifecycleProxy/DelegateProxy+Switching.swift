package import LifecycleCore

/// Every module a host knows, on or off, and why each one that is off is off: the catalog a reload or a
/// quarantine release turns modules back on from.
struct Switchboard: Sendable {
    /// The manifest's modules and those registered since, in that order; a module removed with
    /// `remove(_:)` leaves it.
    var catalog: [ModuleManifest.Entry]
    /// The switches the current set was computed from.
    var switches: ModuleSwitches
    /// The quarantined modules, by module-qualified name, with why.
    var quarantined: [String: String]
    /// The catalog's modules that are off, with the reason, in catalog order.
    var disabled: [(name: String, reason: String)]
}

extension Switchboard {
    /// Why a module the switches or a quarantine keep off cannot be registered, or `nil` when it can.
    func refusal(of name: String) -> String? {
        if let reason = switches.offReason(forModule: name) { return reason }
        return quarantined[name].map { "quarantined (\($0)); release it first" }
    }
}

extension DelegateProxy {
    /// Why each entry of `catalog` is off, or `nil` when it is on.
    ///
    /// In order of precedence: its own ``EnvironmentGatedModule/enablement(for:)``; a switch that turns it off;
    /// a quarantine; then the one rule for dependents: a module that depends on a module that is off by
    /// switch or quarantine is off too ("depends on `X`, which is off"), transitively. A dependency that is
    /// off by its own gate is left to the order's `missingDependency` error, as it always was.
    ///
    /// - Throws: ``ModuleSwitchesError`` when a switch names no module of the catalog.
    static func offReasons(
        of catalog: [ModuleManifest.Entry],
        options: LaunchOptions,
        switches: ModuleSwitches,
        quarantined: [String: String]
    ) throws(ModuleSwitchesError) -> [String?] {
        if let unknown = switches.unknownNames(among: catalog.map(\.moduleName)).first {
            let source = switches.switches[unknown]?.source ?? "module switches"
            let names = catalog.map { "`\($0.type)`" }.joined(separator: ", ")
            throw ModuleSwitchesError(
                source: source,
                problem: "no module of this host is named `\(unknown)`",
                fix: "use one of \(names), or remove the switch"
            )
        }
        var reasons: [String?] = catalog.map { entry in
            if let reason = entry.gated?.enablement(for: options).disabledReason { return reason }
            return nil
        }
        let gatedOff = reasons.map { $0 != nil }
        for index in catalog.indices where reasons[index] == nil {
            let name = catalog[index].moduleName
            if let reason = switches.offReason(forModule: name) {
                reasons[index] = reason
            } else if let why = quarantined[name] {
                reasons[index] = "quarantined: \(why)"
            }
        }
        // Dependents follow their dependencies off, to a fixed point (a chain can be listed in any order).
        var position = TypeTable(capacity: catalog.count)
        for index in catalog.indices { position.insert(catalog[index].type, index) }
        var changed = true
        while changed {
            changed = false
            for index in catalog.indices where reasons[index] == nil {
                for dependency in catalog[index].allDependencies {
                    guard let at = position[dependency], reasons[at] != nil, !gatedOff[at] else { continue }
                    reasons[index] = "depends on `\(catalog[at].moduleName)`, which is off"
                    changed = true
                    break
                }
            }
        }
        return reasons
    }

    /// What turning the host's modules to `switches` and `quarantined` takes: the participants to take out,
    /// dependents first, and the catalog's modules to bring in, dependencies first.
    package func switchPlan(
        switches: ModuleSwitches,
        quarantined: [String: String]
    ) throws(ModuleSwitchesError) -> ModuleSwitchPlan {
        let catalog = switchboard.catalog
        let reasons = try Self.offReasons(
            of: catalog,
            options: context.launchOptions,
            switches: switches,
            quarantined: quarantined
        )
        var reasonOfType = TypeTable(capacity: catalog.count)
        for index in catalog.indices where reasons[index] != nil { reasonOfType.insert(catalog[index].type, index) }
        // Reverse delivery order: whoever depends on a module comes after it in delivery, so before it here.
        let off: [(type: any LifecycleModule.Type, reason: String)] = modules.reversed().compactMap { slot in
            reasonOfType[slot.entry.type].flatMap { index in reasons[index].map { (slot.entry.type, $0) } }
        }
        var inCatalog = TypeTable(capacity: catalog.count)
        for index in catalog.indices { inCatalog.insert(catalog[index].type, index) }
        var present = TypeTable(capacity: modules.count)
        for slot in modules { present.insert(slot.entry.type, slot.participant.id) }
        var waiting = catalog.indices.filter { reasons[$0] == nil && present[catalog[$0].type] == nil }
        // Dependencies first: place an entry once each dependency it has in the catalog is on and placed.
        var on: [any LifecycleModule.Type] = []
        var placed = TypeTable(capacity: catalog.count)
        while !waiting.isEmpty {
            let before = waiting.count
            waiting.removeAll { index in
                let ready = catalog[index].allDependencies.allSatisfy { dependency in
                    let stays = present[dependency] != nil && reasonOfType[dependency] == nil
                    // One outside the catalog is left to the registration, which reports it missing.
                    return stays || placed[dependency] != nil || inCatalog[dependency] == nil
                }
                guard ready else { return false }
                on.append(catalog[index].type)
                placed.insert(catalog[index].type, index)
                return true
            }
            // A cycle cannot be placed; the registration of its first module reports it.
            if waiting.count == before {
                on += waiting.map { catalog[$0].type }
                break
            }
        }
        let disabled = catalog.indices.compactMap { index in reasons[index].map { (catalog[index].moduleName, $0) } }
        return ModuleSwitchPlan(off: off, on: on, disabled: disabled, switches: switches, quarantined: quarantined)
    }

    /// This proxy, with the switchboard's switches, quarantines and reasons set to the plan's.
    func proxyApplying(_ plan: ModuleSwitchPlan) throws(ManifestError) -> DelegateProxy {
        var board = switchboard
        board.switches = plan.switches
        board.quarantined = plan.quarantined
        board.disabled = plan.disabled
        return try DelegateProxy(
            delegate: delegateSlot,
            modules: modules,
            nextID: nextID,
            switchboard: board,
            context: context,
            preparations: preparations
        )
    }
}

extension DelegateProxy {
    package var switches: ModuleSwitches { switchboard.switches }

    package func applying(_ plan: ModuleSwitchPlan) throws -> any LifecycleDispatcher {
        try proxyApplying(plan)
    }

    package func moduleType(of participant: Participant) -> (any LifecycleModule.Type)? {
        modules.first { $0.participant.id == participant.id }?.entry.type
    }

    package func participant(of module: any LifecycleModule.Type) -> Participant? {
        positions[module].map { modules[$0].participant }
    }
}
