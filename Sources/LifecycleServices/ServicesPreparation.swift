public import LifecycleCore
import LifecycleProxy

extension ModuleManifest {
    /// This manifest with services: every host built from it gets a registry of the services its modules
    /// provide, orders each module that requires a service after the module that provides it, and adds
    /// ``ServiceRegistryModule`` as its first participant.
    ///
    /// The providers and requirers are found by asking the runtime for each entry's conformances, once per
    /// host. A generated manifest lists them instead (see ``withServices(providers:requirers:)``).
    ///
    /// - Parameter configure: Overrides for these hosts: fakes in tests, or which of two providers serves.
    public func withServices(_ configure: (inout ServiceOverrides) -> Void = { _ in }) -> ModuleManifest {
        var overrides = ServiceOverrides()
        configure(&overrides)
        return adding(ServicesPreparation(overrides: overrides, declared: nil))
    }

    /// This manifest with services, whose providers and requirers are listed: what the discovery plugin
    /// generates, so a host asks the runtime nothing. Entries that carry a capability table (``DeclaredModule``)
    /// take their roles from these lists, in this manifest or any it is combined with; the others are asked.
    public func withServices(
        providers: [any ServiceProvidingModule.Type],
        requirers: [any ServiceRequiringModule.Type]
    ) -> ModuleManifest {
        adding(
            ServicesPreparation(
                overrides: ServiceOverrides(),
                declared: DeclaredServices(
                    providers: Dictionary(providers.map { (ObjectIdentifier($0), $0) }) { first, _ in first },
                    requirers: Dictionary(requirers.map { (ObjectIdentifier($0), $0) }) { first, _ in first }
                )
            )
        )
    }
}

/// The providers and requirers generated manifests listed.
struct DeclaredServices: Sendable {
    var providers: [ObjectIdentifier: any ServiceProvidingModule.Type]
    var requirers: [ObjectIdentifier: any ServiceRequiringModule.Type]

    func merged(with other: DeclaredServices) -> DeclaredServices {
        DeclaredServices(
            providers: providers.merging(other.providers) { first, _ in first },
            requirers: requirers.merging(other.requirers) { first, _ in first }
        )
    }
}

/// Builds a host's registry from its manifest, checks it, and adds the ordering edges.
struct ServicesPreparation: ManifestPreparation {
    var key: String { "LifecycleServices" }
    let overrides: ServiceOverrides
    let declared: DeclaredServices?

    func merged(with other: any ManifestPreparation) -> any ManifestPreparation {
        guard let other = other as? ServicesPreparation else { return self }
        let declared: DeclaredServices? =
            switch (self.declared, other.declared) {
            case (let mine?, let theirs?): mine.merged(with: theirs)
            case (let mine, let theirs): mine ?? theirs
            }
        return ServicesPreparation(overrides: overrides.merged(with: other.overrides), declared: declared)
    }

    /// One module's part: what it provides and requires.
    struct Member {
        let entry: ModuleManifest.Entry
        /// This registry's slots of the services it provides.
        let slots: [any AnyServiceSlot]
        let requirements: [ServiceKey]
    }

    func prepare(_ manifest: ModuleManifest, launchOptions: inout LaunchOptions) throws -> ModuleManifest {
        var members: [Member] = []
        for entry in manifest.entries {
            // A disabled module provides nothing and requires nothing in this environment.
            if let gated = entry.gated, gated.enablement(for: launchOptions).disabledReason != nil { continue }
            let (provider, requirer) = roles(of: entry)
            var provisions = ServiceProvisions(provider: entry.type)
            provider?.provideServices(&provisions)
            let requirements = requirer?.requiredServices.keys ?? []
            if !provisions.slots.isEmpty || !requirements.isEmpty {
                members.append(Member(entry: entry, slots: provisions.slots, requirements: requirements))
            }
        }
        let changes = overrides.byService
        let serving = try servingProviders(members, changes: changes)
        try checkRequirements(members, serving: serving, changes: changes, manifest: manifest.name)
        try checkCycles(members, serving: serving)

        var slots: [any AnyServiceSlot] = []
        slots.reserveCapacity(serving.count)
        // Overrides first, in the order they were made, then providers in manifest order: the order eager
        // singletons of one stage are created in.
        for case .replace(_, let makeSlot) in overrides.latest { slots.append(makeSlot()) }
        for (index, member) in members.enumerated() {
            for slot in member.slots where serving[slot.key] == index {
                if case .replace? = changes[slot.key] { continue }
                slots.append(slot)
            }
        }
        // A module missing here requires nothing: its factories and its own resolver may resolve nothing.
        var requirementsOfModule: [ObjectIdentifier: Set<ServiceKey>] = [:]
        for member in members where !member.requirements.isEmpty {
            requirementsOfModule[ObjectIdentifier(member.entry.type)] = Set(member.requirements)
        }
        launchOptions[ServiceRegistryKey.self] = ServiceRegistry(
            slots: slots,
            requirementsOfModule: requirementsOfModule,
            launchOptions: launchOptions
        )

        // Requirers after their providers, with the service named; the registry first of all.
        var edges: [ObjectIdentifier: [ModuleDependency.Added]] = [:]
        for member in members {
            for key in member.requirements {
                guard let index = serving[key], members[index].entry.type != member.entry.type else { continue }
                edges[ObjectIdentifier(member.entry.type), default: []].append(
                    ModuleDependency.Added(members[index].entry.type) { "requires service `\(key)`" }
                )
            }
        }
        let registry = ModuleManifest.Entry(
            type: ServiceRegistryModule.self,
            source: manifest.name,
            capabilities: ServiceRegistryModule.declaration.capabilities
        )
        let entries = manifest.entries.map { entry in
            (edges[ObjectIdentifier(entry.type)] ?? []).reduce(entry) { $0.adding($1) }
        }
        return manifest.replacingEntries([registry] + entries)
    }

    /// The entry's service roles: for an entry with a capability table (generated), from the generated
    /// lists, which name every module of a generated manifest that has a role; otherwise by asking the
    /// runtime, once per host.
    private func roles(
        of entry: ModuleManifest.Entry
    ) -> ((any ServiceProvidingModule.Type)?, (any ServiceRequiringModule.Type)?) {
        if entry.capabilities != nil {
            let id = ObjectIdentifier(entry.type)
            return (declared?.providers[id], declared?.requirers[id])
        }
        return (entry.type as? any ServiceProvidingModule.Type, entry.type as? any ServiceRequiringModule.Type)
    }

    /// The module that serves each service, by index in `members`: the only provider, or the one an
    /// override chose. Two providers without a choice are an error; so is a choice of a module that does
    /// not provide it. One dictionary pass over the provisions; a second provider is rare.
    private func servingProviders(
        _ members: [Member],
        changes: [ServiceKey: ServiceOverrides.Change]
    ) throws(ManifestError) -> [ServiceKey: Int] {
        var serving: [ServiceKey: Int] = [:]
        serving.reserveCapacity(members.reduce(0) { $0 + $1.slots.count })
        var others: [ServiceKey: [Int]] = [:]
        for (index, member) in members.enumerated() {
            for slot in member.slots {
                let key = slot.key
                if let first = serving[key] {
                    if first != index, others[key]?.contains(index) != true { others[key, default: []].append(index) }
                } else {
                    serving[key] = index
                }
            }
        }
        var conflicts: [(ServiceKey, [Int])] = []
        for (key, change) in changes {
            guard case .choose(_, let chosen, let name) = change else { continue }
            let candidates = (serving[key].map { [$0] } ?? []) + (others[key] ?? [])
            guard let index = candidates.first(where: { ObjectIdentifier(members[$0].entry.type) == chosen }) else {
                throw ManifestError(
                    code: .missingServiceProvider,
                    modules: [name],
                    description: "The overrides choose `\(name)` to serve `\(key)`, but it does not provide it "
                        + "(or is disabled). It is provided by: "
                        + candidates.map { "`\(members[$0].entry.moduleName)`" }.joined(separator: ", ")
                        + ". Choose one of those."
                )
            }
            serving[key] = index
            others[key] = nil
        }
        for (key, extra) in others {
            if case .replace? = changes[key] { continue }
            conflicts.append((key, [serving[key]!] + extra))
        }
        guard conflicts.isEmpty else {
            conflicts.sort { $0.1[0] < $1.1[0] }
            throw ManifestError(
                code: .duplicateServiceProvider,
                modules: conflicts.flatMap { $0.1.map { members[$0].entry.moduleName } },
                description: conflicts.map { key, indices in
                    "service `\(key)` is provided by "
                        + indices.map { "`\(members[$0].entry.moduleName)`" }.joined(separator: " and ")
                }
                .joined(separator: "; ")
                    + ". Nothing was created. Remove one provision, or say which module serves: "
                    + "`manifest.withServices { $0.choose(\(members[conflicts[0].1[0]].entry.moduleName).self, "
                    + "for: \(conflicts[0].0.metatypeExpression)) }`."
            )
        }
        return serving
    }

    private func checkRequirements(
        _ members: [Member],
        serving: [ServiceKey: Int],
        changes: [ServiceKey: ServiceOverrides.Change],
        manifest: String
    ) throws(ManifestError) {
        var missing: [(Member, ServiceKey)] = []
        for member in members {
            for key in member.requirements where serving[key] == nil {
                if case .replace? = changes[key] { continue }
                missing.append((member, key))
            }
        }
        guard missing.isEmpty else {
            throw ManifestError(
                code: .missingServiceProvider,
                modules: missing.map(\.0.entry.moduleName),
                description: missing.map { member, key in
                    "`\(member.entry.moduleName)` requires service `\(key)`, which no enabled module"
                        + (manifest == ModuleManifest.defaultName ? "" : " of manifest `\(manifest)`") + " provides"
                }
                .joined(separator: "; ")
                    + ". Nothing was created. Add the module that provides it to the manifest (or enable it), "
                    + "replace it in tests (`withServices { "
                    + missingKeys(missing).map { "$0.replace(\($0.metatypeExpression)) { … }" }.joined(separator: "; ")
                    + " }`), or drop the requirement."
            )
        }
    }

    /// The services of `missing`, each once, in order.
    private func missingKeys(_ missing: [(Member, ServiceKey)]) -> [ServiceKey] {
        var seen: Set<ServiceKey> = []
        return missing.map(\.1).filter { seen.insert($0).inserted }
    }

    /// Providers that require each other's services in a cycle: no factory could run first.
    private func checkCycles(_ members: [Member], serving: [ServiceKey: Int]) throws(ManifestError) {
        // Only providers that require something can be on a cycle.
        let positions = members.indices.filter { !members[$0].slots.isEmpty && !members[$0].requirements.isEmpty }
        guard !positions.isEmpty else { return }
        let providers = positions.map { members[$0] }
        var index: [Int: Int] = [:]
        for (position, member) in positions.enumerated() { index[member] = position }
        // Edges between providers: provider -> (service, provider of that service).
        let edges: [[(ServiceKey, Int)]] = providers.map { member in
            member.requirements.compactMap { key in
                guard let target = serving[key], let position = index[target] else { return nil }
                return (key, position)
            }
        }
        var color = [Int](repeating: 0, count: providers.count)  // 0 new, 1 on the path, 2 done
        var path: [(Int, ServiceKey?)] = []
        func visit(_ node: Int, via key: ServiceKey?) -> [(Int, ServiceKey?)]? {
            color[node] = 1
            path.append((node, key))
            for (service, next) in edges[node] {
                if color[next] == 1 {
                    let start = path.firstIndex { $0.0 == next } ?? 0
                    return Array(path[start...]) + [(next, service)]
                }
                if color[next] == 0, let cycle = visit(next, via: service) { return cycle }
            }
            path.removeLast()
            color[node] = 2
            return nil
        }
        for node in providers.indices where color[node] == 0 {
            guard let cycle = visit(node, via: nil) else { continue }
            var text = "`\(providers[cycle[0].0].entry.moduleName)`"
            for (node, service) in cycle.dropFirst() {
                text += " requires `\(service.map(\.name) ?? "?")` from `\(providers[node].entry.moduleName)`"
            }
            throw ManifestError(
                code: .serviceProviderCycle,
                modules: cycle.dropLast().map { providers[$0.0].entry.moduleName },
                description: "Service providers require each other in a cycle: \(text). No factory could run "
                    + "first, so nothing was created. Break the cycle: move the shared part into a service of its own."
            )
        }
    }
}
