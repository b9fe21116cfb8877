package import LifecycleCore

/// The program's delegate and its participant.
struct DelegateSlot: Sendable {
    let participant: Participant
    let instance: any ApplicationDelegate
}

/// One module of a proxy: the entry it came from, its instance and its participant.
struct ModuleSlot: Sendable {
    let entry: ModuleManifest.Entry
    let instance: any LifecycleModule
    let participant: Participant
}

extension DelegateProxy {
    /// A proxy with the same participants plus a new instance of `type`, and the new participant.
    ///
    /// The module joins the dependency order as if it were listed after every module already there: its
    /// dependencies first, then priority, then earlier modules before it. Nobody depends on it yet, so
    /// the order of the modules already there does not change. It gets a new participant id.
    ///
    /// - Throws: ``ManifestError`` — ``ManifestError/Code/duplicateModule`` if it is already a participant,
    ///   ``ManifestError/Code/priorityOutOfRange``, ``ManifestError/Code/moduleDisabled`` in this
    ///   environment, ``ManifestError/Code/selfDependency``, ``ManifestError/Code/missingDependency`` if a
    ///   dependency is not a participant, ``ManifestError/Code/moduleInitializationFailed``, or
    ///   ``ManifestError/Code/duplicateCustomEventHandler``. Every check but the last runs before the
    ///   module is created; the last needs the instance, which is then discarded.
    func proxyAdding(
        _ type: any LifecycleModule.Type
    ) throws(ManifestError) -> (
        dispatcher: DelegateProxy, participant: Participant
    ) {
        let name = type.moduleName
        guard positions[type] == nil else {
            throw ManifestError(
                code: .duplicateModule,
                modules: [name],
                description: "`\(name)` is already a participant of this host, and a module is created once. "
                    + "Remove it first to replace it with a new instance."
            )
        }
        guard type.priority.isValid else {
            let range = ModulePriority.validRange
            throw ManifestError(
                code: .priorityOutOfRange,
                modules: [name],
                description: "`\(name)` has priority \(type.priority.rawValue), outside the valid range "
                    + "\(range.lowerBound)...\(range.upperBound). Use a named level (.low, .normal, .high) or "
                    + "a value in that range."
            )
        }
        if let refusal = switchboard.refusal(of: name) {
            throw ManifestError(
                code: .moduleDisabled,
                modules: [name],
                description: "`\(name)` is \(refusal), so it cannot be registered. Nothing was created or delivered."
            )
        }
        if let gated = type as? any EnvironmentGatedModule.Type,
            let reason = gated.enablement(for: context.launchOptions).disabledReason
        {
            throw ManifestError(
                code: .moduleDisabled,
                modules: [name],
                description: "`\(name)` is disabled in this environment (\(reason)), so it cannot be registered. "
                    + "A host's launch options are fixed: create the host with options that enable it, or change "
                    + "the module's enablement(for:)."
            )
        }
        if let dependent = type as? any DependentModule.Type {
            let present = Set(modules.map { ObjectIdentifier($0.entry.type) })
            if dependent.dependencies.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type) }) {
                throw ManifestError(
                    code: .selfDependency,
                    modules: [name],
                    description: "`\(name)` lists itself in its dependencies. A module cannot start after "
                        + "itself: remove `\(name).self` from `dependencies`."
                )
            }
            let missing = dependent.dependencies.filter { !present.contains(ObjectIdentifier($0)) }.map {
                $0.moduleName
            }
            guard missing.isEmpty else {
                let reasons = Dictionary(disabledModules.map { ($0.name, $0.reason) }) { first, _ in first }
                let disabled = missing.filter { reasons[$0] != nil }
                let absent = missing.filter { reasons[$0] == nil }
                var parts: [String] = []
                if !absent.isEmpty {
                    parts.append(
                        absent.map { "`\($0)`" }.joined(separator: ", ")
                            + ", which this host does not have: register \(absent.count == 1 ? "it" : "them") first, "
                            + "or add \(absent.count == 1 ? "it" : "them") to the manifest"
                    )
                }
                for dependency in disabled {
                    parts.append(
                        "`\(dependency)`, which is disabled in this environment (\(reasons[dependency] ?? "")): make "
                            + "`\(name)` an EnvironmentGatedModule with the same rule"
                    )
                }
                throw ManifestError(
                    code: .missingDependency,
                    modules: [name],
                    description: "`\(name)` depends on " + parts.joined(separator: "; and on ")
                        + ". It was not created and nothing was delivered."
                )
            }
        }

        for preparation in preparations {
            do {
                try preparation.validate(adding: type, context: context)
            } catch let error as ManifestError {
                throw error
            } catch {
                throw ManifestError(
                    code: .preparationFailed,
                    modules: [name],
                    underlyingErrors: [error],
                    description: "`\(name)` was refused by `\(preparation.key)`: \(error). The module was not added."
                )
            }
        }
        let instance: any LifecycleModule
        do {
            instance = try type.init(context: context)
        } catch {
            throw ManifestError(
                code: .moduleInitializationFailed,
                modules: [name],
                underlyingErrors: [error],
                description: "`\(name)`.init(context:) threw: \(error). The module was not added and nothing "
                    + "was delivered. Fix the initializer, or move fallible work into a launch hook."
            )
        }
        // A module of the catalog (switched back on, or released) keeps its entry: a generated manifest's
        // declared hooks, and the dependencies its preparations added.
        var board = switchboard
        let known = board.catalog.firstIndex { ObjectIdentifier($0.type) == ObjectIdentifier(type) }
        let entry = known.map { board.catalog[$0] } ?? ModuleManifest(name: "register(_:)", [type]).entries[0]
        if known == nil { board.catalog.append(entry) }
        board.disabled.removeAll { $0.name == name }
        let participant = Participant(name: name, priority: type.priority, id: nextID)
        let slots = modules + [ModuleSlot(entry: entry, instance: instance, participant: participant)]
        let order = try Self.dependencyOrder(of: slots.map(\.entry), manifest: "register(_:)").order
        let proxy = try DelegateProxy(
            delegate: delegateSlot,
            modules: order.map { slots[$0] },
            nextID: nextID + 1,
            switchboard: board,
            context: context,
            preparations: preparations
        )
        return (proxy, participant)
    }

    /// A proxy without the module `type`, and the participant it was. With a `reason`, the module is only
    /// switched off: it stays in the catalog, listed as disabled with the reason, and a reload can bring it
    /// back; without one, it is gone.
    ///
    /// - Throws: ``ManifestError/Code/notAParticipant`` if `type` is not one of the modules, or
    ///   ``ManifestError/Code/requiredByOthers`` if a module that stays depends on it.
    func proxyRemoving(
        _ type: any LifecycleModule.Type,
        reason: String? = nil
    ) throws(ManifestError) -> (
        dispatcher: DelegateProxy, participant: Participant
    ) {
        let name = type.moduleName
        let key = ObjectIdentifier(type)
        guard let position = modules.firstIndex(where: { ObjectIdentifier($0.entry.type) == key }) else {
            let why =
                disabledModules.first { $0.name == name }.map { "it is disabled in this environment (\($0.reason))" }
                ?? "it was never registered, or was removed already"
            throw ManifestError(
                code: .notAParticipant,
                modules: [name],
                description: "`\(name)` is not a participant of this host: \(why). Nothing was delivered. "
                    + "host.participants lists the modules that can be removed."
            )
        }
        let dependents = modules.filter { slot in
            slot.entry.allDependencies.contains { ObjectIdentifier($0) == key }
        }
        guard dependents.isEmpty else {
            let names = dependents.map { "`\($0.participant.name)`" }.joined(separator: ", ")
            throw ManifestError(
                code: .requiredByOthers,
                modules: [name] + dependents.map(\.participant.name),
                description: "`\(name)` cannot be removed: \(names) depend\(dependents.count == 1 ? "s" : "") on "
                    + "it and would outlive it. Nothing was delivered. Remove the dependents first."
            )
        }
        var remaining = modules
        let removed = remaining.remove(at: position)
        var board = switchboard
        if let reason {
            board.disabled.removeAll { $0.name == name }
            board.disabled.append((name, reason))
        } else {
            board.catalog.removeAll { ObjectIdentifier($0.type) == key }
        }
        let proxy = try DelegateProxy(
            delegate: delegateSlot,
            modules: remaining,
            nextID: nextID,
            switchboard: board,
            context: context,
            preparations: preparations
        )
        return (proxy, removed.participant)
    }
}

extension DelegateProxy {
    package func adding(
        _ module: any LifecycleModule.Type
    ) throws -> (dispatcher: any LifecycleDispatcher, participant: Participant) {
        let (proxy, participant) = try proxyAdding(module)
        return (proxy, participant)
    }

    package func removing(
        _ module: any LifecycleModule.Type,
        reason: String?
    ) throws -> (dispatcher: any LifecycleDispatcher, participant: Participant) {
        let (proxy, participant) = try proxyRemoving(module, reason: reason)
        return (proxy, participant)
    }

    package func didInstall() {
        guard !preparations.isEmpty else { return }
        let installed = modules.map {
            InstalledModule(participant: $0.participant, instance: $0.instance, type: $0.entry.type)
        }
        for preparation in preparations { preparation.install(installed, context: context) }
    }

    package func didUninstall() {
        for preparation in preparations { preparation.uninstall(context: context) }
    }
}
