import LifecycleCore

extension DelegateProxy {
    /// Checks the manifest and returns its entries in delivery order: priority, highest first; equal
    /// priorities in manifest order.
    static func validatedOrder(of manifest: ModuleManifest) throws(ManifestError) -> [ModuleManifest.Entry] {
        let entries = manifest.entries
        guard !entries.isEmpty else {
            throw ManifestError(
                code: .emptyManifest,
                modules: [],
                description: "Manifest `\(manifest.name)` lists no module, so no module would receive any event. "
                    + "Add the module types to the manifest."
            )
        }

        var firstSource: [ObjectIdentifier: String] = [:]
        var duplicates: [String] = []
        var duplicateDetails: [String] = []
        for entry in entries {
            let key = ObjectIdentifier(entry.type)
            if let earlier = firstSource[key] {
                duplicates.append(entry.moduleName)
                duplicateDetails.append("`\(entry.moduleName)` (listed by `\(earlier)` and `\(entry.source)`)")
            } else {
                firstSource[key] = entry.source
            }
        }
        guard duplicates.isEmpty else {
            throw ManifestError(
                code: .duplicateModule,
                modules: duplicates,
                description: "Manifest `\(manifest.name)` lists these module types more than once: "
                    + duplicateDetails.joined(separator: ", ")
                    + ". Each module is created once; remove the extra entries."
            )
        }

        let outOfRange = entries.filter { !$0.priority.isValid }
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

        // Stable: sort by (priority descending, manifest position ascending).
        return entries.indices
            .sorted { lhs, rhs in
                let left = entries[lhs].priority
                let right = entries[rhs].priority
                return left != right ? left > right : lhs < rhs
            }
            .map { entries[$0] }
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
            registration.bind(instance, participant.index, &routes)
        }
    }
}
