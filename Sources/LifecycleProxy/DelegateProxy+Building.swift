import LifecycleCore

extension DelegateProxy {
    /// Splits the manifest into the modules that are on and those that are off, with reasons: off in this
    /// environment, switched off by `switches`, or depending on a module switched off (`offReasons`).
    static func gate(
        _ manifest: ModuleManifest,
        options: LaunchOptions,
        switches: ModuleSwitches
    ) throws(ManifestError) -> (ModuleManifest, [(name: String, reason: String)]) {
        // Most manifests gate nothing: then the manifest is kept as it is, not copied entry by entry.
        guard !switches.switches.isEmpty || manifest.entries.contains(where: { $0.gated != nil }) else {
            return (manifest, [])
        }
        let reasons: [String?]
        do {
            reasons = try offReasons(of: manifest.entries, options: options, switches: switches, quarantined: [:])
        } catch {
            throw invalidSwitches(error, manifest: manifest.name)
        }
        var disabled: [(name: String, reason: String)] = []
        var enabled: [ModuleManifest.Entry] = []
        for (entry, reason) in zip(manifest.entries, reasons) {
            if let reason {
                disabled.append((entry.moduleName, reason))
            } else {
                enabled.append(entry)
            }
        }
        return (ModuleManifest(name: manifest.name, entries: enabled, sourceModules: manifest.sourceModules), disabled)
    }

    /// `phrase` with a capital first letter, to start a sentence.
    static func capitalized(_ phrase: String) -> String { phrase.prefix(1).uppercased() + phrase.dropFirst() }

    /// The manifest error for switches that cannot be read or name no module.
    static func invalidSwitches(_ error: ModuleSwitchesError, manifest: String) -> ManifestError {
        ManifestError(
            code: .invalidModuleSwitches,
            modules: [],
            underlyingErrors: [error],
            description:
                "The module switches of \(ModuleManifest.called(manifest)) cannot be applied: \(error). No module was "
                + "created."
        )
    }

    /// Checks the manifest and returns its entries in delivery order (`dependencyOrder`): dependencies
    /// first, then priority, highest first, then manifest order; with whom each depends on, by position
    /// in that order.
    static func validatedOrder(
        of manifest: ModuleManifest,
        disabled: [(name: String, reason: String)] = []
    ) throws(ManifestError) -> DeliveryOrder {
        let entries = manifest.entries
        guard !entries.isEmpty || !disabled.isEmpty else {
            throw ManifestError(
                code: .emptyManifest,
                modules: [],
                description: Self.capitalized(ModuleManifest.called(manifest.name))
                    + " lists no module, so no module would receive any event. "
                    + "Add the module types to the manifest."
            )
        }

        var first = TypeTable(capacity: entries.count)
        var duplicates: [String] = []
        var duplicateDetails: [String] = []
        for index in entries.indices {
            let earlier = first.insert(entries[index].type, index)
            if earlier != index {
                let entry = entries[index]
                duplicates.append(entry.moduleName)
                duplicateDetails.append(
                    "`\(entry.moduleName)`"
                        + ([entries[earlier].source, entry.source] == [
                            ModuleManifest.defaultName, ModuleManifest.defaultName,
                        ]
                            ? "" : " (listed by `\(entries[earlier].source)` and `\(entry.source)`)")
                )
            }
        }
        guard duplicates.isEmpty else {
            throw ManifestError(
                code: .duplicateModule,
                modules: duplicates,
                description: Self.capitalized(ModuleManifest.called(manifest.name))
                    + " lists these module types more than once: "
                    + duplicateDetails.joined(separator: ", ")
                    + ". Each module is created once; remove the extra entries."
            )
        }

        // Read once per entry: the heap that orders them reads them again and again.
        let priorities = entries.map(\.priority)
        let outOfRange = entries.indices.filter { !priorities[$0].isValid }.map { entries[$0] }
        guard outOfRange.isEmpty else {
            let range = ModulePriority.validRange
            throw ManifestError(
                code: .priorityOutOfRange,
                modules: outOfRange.map { $0.moduleName },
                description: outOfRange.map { "`\($0.moduleName)` has priority \($0.priority.rawValue)" }
                    .joined(separator: ", ")
                    + ", outside the valid range \(range.lowerBound)...\(range.upperBound). "
                    + "Use a named level (.low, .normal, .high) or a value in that range."
            )
        }

        let found = try dependencyOrder(
            of: entries,
            priorities: priorities,
            manifest: manifest.name,
            disabled: disabled
        )
        // The dependency lists, from manifest positions to positions in the delivery order.
        var rank = [Int](repeating: 0, count: entries.count)
        for (place, index) in found.order.enumerated() { rank[index] = place }
        var start = [0]
        start.reserveCapacity(entries.count + 1)
        var list: [Int] = []
        list.reserveCapacity(found.dependencyList.count)
        for index in found.order {
            for dependency in found.dependencyList[found.dependencyStart[index]..<found.dependencyStart[index + 1]] {
                list.append(rank[dependency])
            }
            start.append(list.count)
        }
        return DeliveryOrder(entries: found.order.map { entries[$0] }, dependencyStart: start, dependencyList: list)
    }

    /// The delivery order: dependencies first; among modules whose dependencies are all placed, the
    /// highest priority, then the lowest manifest position (Kahn's algorithm over a heap).
    static func dependencyOrder(
        of entries: [ModuleManifest.Entry],
        priorities: [ModulePriority]? = nil,
        manifest: String,
        disabled: [(name: String, reason: String)] = []
    ) throws(ManifestError) -> DependencyOrder {
        var position = TypeTable(capacity: entries.count)
        for index in entries.indices { position.insert(entries[index].type, index) }

        // The positions module i depends on, in declared order, are
        // `dependencyList[dependencyStart[i]..<dependencyStart[i + 1]]`: one array for all, not one each.
        var dependencyStart: [Int] = [0]
        dependencyStart.reserveCapacity(entries.count + 1)
        var dependencyList: [Int] = []
        dependencyList.reserveCapacity(entries.count * 2)
        var missing: [(String, String)] = []
        for index in entries.indices {
            defer { dependencyStart.append(dependencyList.count) }
            let dependencies = entries[index].allDependencies
            guard !dependencies.isEmpty else { continue }
            let own = ObjectIdentifier(entries[index].type)
            let start = dependencyList.count
            for dependency in dependencies {
                // Names are built only for messages: `String(reflecting:)` is slow for nested generic types.
                if ObjectIdentifier(dependency) == own {
                    let name = entries[index].moduleName
                    throw ManifestError(
                        code: .selfDependency,
                        modules: [name],
                        description: "`\(name)` lists itself in its dependencies. A module cannot start "
                            + "after itself: remove `\(name).self` from `dependencies`."
                    )
                }
                guard let target = position[dependency] else {
                    missing.append((entries[index].moduleName, dependency.moduleName))
                    continue
                }
                if !dependencyList[start...].contains(target) { dependencyList.append(target) }
            }
        }
        func dependencies(of index: Int) -> ArraySlice<Int> {
            dependencyList[dependencyStart[index]..<dependencyStart[index + 1]]
        }
        guard missing.isEmpty else {
            let reasons = Dictionary(disabled.map { ($0.name, $0.reason) }) { first, _ in first }
            throw ManifestError(
                code: .missingDependency,
                modules: missing.map(\.0),
                description: missing.map { dependent, dependency in
                    if let reason = reasons[dependency] {
                        return "`\(dependent)` depends on `\(dependency)`, which is disabled (\(reason)); make "
                            + "`\(dependent)` an EnvironmentGatedModule with the same rule"
                    }
                    return
                        "`\(dependent)` depends on `\(dependency)`, which is not in \(ModuleManifest.called(manifest))"
                }
                .joined(separator: "; ")
                    + ". Nothing was delivered. Add the dependency's module to the manifest (apply ModuleDiscoveryPlugin "
                    + "to its target, and make sure it is not private or generic), or remove the dependency."
            )
        }

        // Who depends on module i, in the same one-array form, filled by counting.
        var waiting = entries.indices.map { dependencyStart[$0 + 1] - dependencyStart[$0] }
        var dependentStart = [Int](repeating: 0, count: entries.count + 1)
        for target in dependencyList { dependentStart[target + 1] += 1 }
        for index in entries.indices { dependentStart[index + 1] += dependentStart[index] }
        var fill = dependentStart
        var dependentList = [Int](repeating: 0, count: dependencyList.count)
        for index in entries.indices {
            for target in dependencies(of: index) {
                dependentList[fill[target]] = index
                fill[target] += 1
            }
        }
        var ready = ReadyHeap(priorities: priorities ?? entries.map(\.priority))
        for index in entries.indices where waiting[index] == 0 { ready.push(index) }
        var order: [Int] = []
        order.reserveCapacity(entries.count)
        while let next = ready.pop() {
            order.append(next)
            for dependent in dependentList[dependentStart[next]..<dependentStart[next + 1]] {
                waiting[dependent] -= 1
                if waiting[dependent] == 0 { ready.push(dependent) }
            }
        }
        guard order.count == entries.count else {
            let lists = entries.indices.map { Array(dependencies(of: $0)) }
            let cycle = findCycle(dependencies: lists, unplaced: Set(entries.indices).subtracting(order))
            let names = cycle.map { entries[$0].moduleName }
            let steps = zip(names, names.dropFirst()).map { "`\($0)` depends on `\($1)`" }
            throw ManifestError(
                code: .dependencyCycle,
                modules: names,
                description: "Dependency cycle: \(names.joined(separator: " → ")). "
                    + steps.joined(separator: ", ")
                    + ". No order can start each module after its dependencies, so nothing was delivered. "
                    + "Remove one dependency of the cycle."
            )
        }
        return DependencyOrder(order: order, dependencyStart: dependencyStart, dependencyList: dependencyList)
    }

    /// A path around one cycle among the unplaced modules, starting and ending at the same module.
    private static func findCycle(dependencies: [[Int]], unplaced: Set<Int>) -> [Int] {
        guard var current = unplaced.min() else { return [] }
        var path: [Int] = []
        var seenAt: [Int: Int] = [:]
        while seenAt[current] == nil {
            seenAt[current] = path.count
            path.append(current)
            // Every unplaced module waits on at least one unplaced dependency.
            guard let next = dependencies[current].first(where: unplaced.contains) else { return path }
            current = next
        }
        return Array(path[seenAt[current]!...]) + [current]
    }

    /// Adds the custom-event handlers of `instance` to `routes`, rejecting two handlers for one event.
    static func register<P: CustomEventHandling>(
        _ instance: P,
        as participant: Participant,
        in routes: inout CustomRouteTable
    ) throws(ManifestError) {
        var handlers = CustomEventHandlers<P>()
        P.registerCustomEventHandlers(&handlers)
        var seen: Set<LifecycleEvent> = []
        for registration in handlers.registrations {
            guard seen.insert(registration.event).inserted else {
                throw ManifestError(
                    code: .duplicateCustomEventHandler,
                    modules: [participant.name],
                    description: "`\(participant.name)` registers two handlers for the custom event "
                        + "`\(registration.event.name)`. Register one handler per event and do both things in it."
                )
            }
            registration.bind(instance, participant, &routes)
        }
    }
}

/// An order of manifest entries (positions in the manifest), and whom each entry depends on: the
/// positions `dependencyList[dependencyStart[i]..<dependencyStart[i + 1]]` for entry `i`, in manifest
/// positions, without repeats.
struct DependencyOrder {
    let order: [Int]
    let dependencyStart: [Int]
    let dependencyList: [Int]
}

/// A manifest's entries in delivery order, and whom each depends on, by position in that order (the
/// same one-array form as `DependencyOrder`).
struct DeliveryOrder {
    let entries: [ModuleManifest.Entry]
    let dependencyStart: [Int]
    let dependencyList: [Int]
}

/// Modules ready to be placed, highest priority first, then lowest manifest position.
private struct ReadyHeap {
    private let priorities: [Int]
    private var heap: [Int] = []

    init(priorities: [ModulePriority]) {
        self.priorities = priorities.map(\.rawValue)
    }

    /// Whether module `a` goes before module `b`.
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        priorities[a] != priorities[b] ? priorities[a] > priorities[b] : a < b
    }

    mutating func push(_ index: Int) {
        heap.append(index)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Int? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < heap.count, precedes(heap[left], heap[best]) { best = left }
            if right < heap.count, precedes(heap[right], heap[best]) { best = right }
            guard best != parent else { return first }
            heap.swapAt(parent, best)
            parent = best
        }
    }
}

extension DelegateProxy {
    /// Checks each module's declared capabilities (see `DeclaredModule`) against the runtime's answer, and
    /// throws `capabilityMismatch` naming every module whose declaration differs.
    ///
    /// The generated code cannot claim a capability a type lacks (that would not compile), so a difference
    /// is a conformance the discovery plugin did not see. Debug builds run this whenever a proxy is built
    /// from a manifest; release builds trust the declarations and ask the runtime nothing.
    /// Checks this proxy's modules' declared capabilities against the runtime's answer, in any build:
    /// what a debug build does when it builds a proxy, for tests that run in release too.
    package func checkDeclarations() throws(ManifestError) {
        try Self.checkDeclarations(of: modules)
    }

    static func checkDeclarations(of modules: [ModuleSlot]) throws(ManifestError) {
        var names: [String] = []
        var differences: [String] = []
        for slot in modules {
            guard let capabilities = slot.entry.capabilities else { continue }
            var declared = ModuleHooks()
            capabilities.hooks(slot.instance, &declared)
            var cast = ModuleHooks()
            cast.add(casting: slot.instance)
            let claimed = declared.shape(at: 0) + capabilities.shape
            // The runtime cannot see that a function is synchronous; the compiler checked each synchronous
            // function a declaration registers, so a hook declared sync that the runtime calls async agrees.
            let runtime = (cast.shape(at: 0) + slot.entry.castShape).map { line in
                guard line.hasSuffix(" (async)") else { return line }
                let sync = String(line.dropLast(" (async)".count)) + " (sync)"
                return claimed.contains(sync) ? sync : line
            }
            guard runtime != claimed else { continue }
            let missed = runtime.filter { !claimed.contains($0) }
            let extra = claimed.filter { !runtime.contains($0) }
            names.append(slot.entry.moduleName)
            var detail =
                "`\(slot.entry.moduleName)`"
                + (slot.entry.source == ModuleManifest.defaultName ? "" : " (manifest `\(slot.entry.source)`)")
            if !missed.isEmpty { detail += " implements \(missed.joined(separator: ", ")) but is not declared to" }
            if !extra.isEmpty {
                detail += missed.isEmpty ? "" : ", and"
                detail += " is declared with \(extra.joined(separator: ", ")), which it does not implement"
            }
            differences.append(detail)
        }
        guard !differences.isEmpty else { return }
        throw ManifestError(
            code: .capabilityMismatch,
            modules: names,
            description: "The generated manifest's capability table does not match these modules' conformances: "
                + differences.joined(separator: "; ")
                + ". The discovery plugin reads conformances from each module's own target; declare the "
                + "conformance there (not in an extension in another target), or list the module by hand."
        )
    }
}
