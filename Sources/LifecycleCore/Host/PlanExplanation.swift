/// Who receives one event, in order, and why each participant is where it is: the plan that explains
/// itself. ``ApplicationHost/explainPlan(for:)`` makes one; `lifecycle-demo plan` prints them, as text or
/// JSON.
///
/// ```swift
/// let plan = host.explainPlan(for: .didFinishLaunching)
/// #expect(plan.reason(for: CacheModule.moduleName, comingAfter: DatabaseModule.moduleName) == .dependency(
///     on: DatabaseModule.moduleName, reason: "declared in `dependencies`"))
/// ```
///
/// Each step says why it is there, in the order the rules apply (`Docs/Ordering.md`): the program's
/// delegate goes first (forward events) or last (reverse); a dependency goes before its dependents in
/// forward events, and after them in reverse ones, the mirror; where dependencies leave a choice, the
/// higher priority goes first (reverse: last); equal priorities keep manifest order.
public struct PlanExplanation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Why a participant is where it is.
    public enum Placement: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The program's delegate: first in forward events, last in reverse ones.
        case delegate
        /// Forward events: after this module, which it depends on (why: declared, or a required service).
        case dependency(on: String, reason: String)
        /// Reverse events: after this module, which depends on it: teardown mirrors launch.
        case dependent(String, reason: String)
        /// Its priority, which places it among the modules dependencies leave free.
        case priority(Int)
        /// The same priority as the participant before it, which was listed first in the manifest (or
        /// registered first); reverse events mirror it.
        case tie(with: String)

        public var description: String {
            switch self {
            case .delegate: "the program's delegate"
            case .dependency(let module, let reason): "after \(short(module)), a dependency (\(reason))"
            case .dependent(let module, let reason): "after \(short(module)), which depends on it (\(reason))"
            case .priority(let value): "priority \(value)"
            case .tie(let module): "same priority as \(short(module)), which comes first in the manifest"
            }
        }
    }

    /// One participant's place.
    public struct Step: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Its position, from 1.
        public let position: Int
        /// The participant's module-qualified type name.
        public let participant: String
        /// Its priority; `nil` for the program's delegate.
        public let priority: Int?
        /// The launch stages it takes part in (`setup`, `initialize`, `warmUp`), in order.
        public let stages: [String]
        /// Why it is here; the dependencies and dependents listed are those in this event's plan.
        public let placement: [Placement]
        /// For a launch event, the module's launch budget in milliseconds (``LaunchBudgetedModule``);
        /// `nil` when it declares none, and for other events.
        public var launchBudgetMilliseconds: Double? = nil

        public var description: String {
            var notes: [String] = []
            if !stages.isEmpty { notes.append("stages: \(stages.joined(separator: ", "))") }
            if let budget = launchBudgetMilliseconds {
                notes.append("launch budget \((budget * 10).rounded() / 10) ms")
            }
            return "\(position). \(short(participant))  \(placement.map(\.description).joined(separator: "; "))"
                + notes.map { "  [\($0)]" }.joined()
        }
    }

    /// A module that takes no part, and why.
    public struct Disabled: Sendable, Hashable, Codable {
        /// The module's module-qualified type name.
        public let module: String
        /// Why it is off.
        public let reason: String
    }

    /// The event's name.
    public let event: String
    /// `forward` or `reverse` (``DeliveryDirection``).
    public let direction: String
    /// Who receives it, in order.
    public let steps: [Step]
    /// The modules that are off, with why: they receive nothing.
    public let disabled: [Disabled]

    /// Why `module` comes after `other` in this plan:
    /// - the placement that names `other`: a dependency, a dependent, a tie;
    /// - else `.priority` when its priority alone puts it later (lower in forward events, higher in reverse
    ///   ones, or equal and listed later);
    /// - else the dependency (forward) or dependent (reverse) that held it back, though its priority would
    ///   have put it first;
    /// - `nil` when it does not come after `other`, either is not in the plan, or what held it back is a
    ///   module outside this event's plan.
    public func reason(for module: String, comingAfter other: String) -> Placement? {
        guard let step = steps.first(where: { $0.participant == module }),
            let earlier = steps.first(where: { $0.participant == other }), earlier.position < step.position
        else { return nil }
        for placement in step.placement {
            switch placement {
            case .dependency(let name, _) where name == other: return placement
            case .dependent(let name, _) where name == other: return placement
            case .tie(let name) where name == other: return placement
            default: continue
            }
        }
        guard let mine = step.priority else { return nil }
        let theirs = earlier.priority ?? .max
        if direction == "reverse" ? mine >= theirs : mine <= theirs { return .priority(mine) }
        return step.placement.first { placement in
            switch placement {
            case .dependency, .dependent: true
            default: false
            }
        }
    }

    public var description: String {
        var lines = ["\(event) (\(direction)):"] + steps.map { "  \($0)" }
        if steps.isEmpty { lines.append("  (nobody)") }
        return lines.joined(separator: "\n")
    }
}

extension ApplicationHost {
    /// The plan for `event`, each participant with why it is where it is (``PlanExplanation``).
    public nonisolated func explainPlan(for event: LifecycleEvent) -> PlanExplanation {
        let dispatcher = self.dispatcher
        let plan = dispatcher.plan(for: event)
        let inPlan = Set(plan.map(\.id))
        let stagePlans: [(String, Set<Int>)] = [LifecycleEvent.setup, .initialize, .warmUp].map { stage in
            (stage.name, Set(dispatcher.plan(for: stage).map(\.id)))
        }
        let reverse = event.direction == .reverse
        let isLaunch = HostStateMachine.launchEvents.contains(event)
        // Reverse events need each participant's dependents: built once from every dependency edge.
        var dependents: [Int: [(Participant, ModuleDependency.Reason)]] = [:]
        if reverse {
            for participant in plan {
                for dependency in dispatcher.explainedDependencies(of: participant)
                where inPlan.contains(dependency.module.id) {
                    dependents[dependency.module.id, default: []].append((participant, dependency.reason))
                }
            }
        }
        var steps: [PlanExplanation.Step] = []
        for (index, participant) in plan.enumerated() {
            var placement: [PlanExplanation.Placement] = []
            if let priority = participant.priority {
                if reverse {
                    for (dependent, reason) in dependents[participant.id] ?? [] {
                        placement.append(.dependent(dependent.name, reason: reason.description))
                    }
                } else {
                    for dependency in dispatcher.explainedDependencies(of: participant)
                    where inPlan.contains(dependency.module.id) {
                        placement.append(.dependency(on: dependency.module.name, reason: dependency.reason.description))
                    }
                }
                placement.append(.priority(priority.rawValue))
                if index > 0, plan[index - 1].priority == priority {
                    placement.append(.tie(with: plan[index - 1].name))
                }
            } else {
                placement.append(.delegate)
            }
            steps.append(
                PlanExplanation.Step(
                    position: index + 1,
                    participant: participant.name,
                    priority: participant.priority?.rawValue,
                    stages: stagePlans.filter { $0.1.contains(participant.id) }.map(\.0),
                    placement: placement,
                    launchBudgetMilliseconds: isLaunch ? dispatcher.launchBudget(of: participant)?.milliseconds : nil
                )
            )
        }
        return PlanExplanation(
            event: event.name,
            direction: reverse ? "reverse" : "forward",
            steps: steps,
            disabled: dispatcher.disabledModules.map { PlanExplanation.Disabled(module: $0.name, reason: $0.reason) }
        )
    }
}

/// A module-qualified name without its module: `DemoModules.CacheModule` → `CacheModule`.
private func short(_ name: String) -> String {
    name.split(separator: ".").last.map(String.init) ?? name
}
