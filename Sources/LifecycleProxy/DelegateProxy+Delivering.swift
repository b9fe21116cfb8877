#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import LifecycleCore

extension DelegateProxy {
    // MARK: - Delivering

    /// Delivers a built-in event that carries no argument to every implementer, in order, and returns the
    /// combined result. Failures are not reported.
    ///
    /// Not API: the host delivers events. This is the package's one SPI (`@_spi(Benchmarks)`): the nested
    /// Benchmarks package measures the proxy's fan-out without a host, and `package` access does not reach
    /// another package. The package's own tests use the `package` entry points instead.
    ///
    /// For `LifecycleEvent.openURL` use ``open(_:)``, which carries the URL; here it delivers nothing and
    /// returns the event's default.
    @_spi(Benchmarks) public func deliver(_ event: LifecycleEvent) async -> Bool {
        await deliver(event, scope: .all, observer: nil, from: 0, supervisor: nil).result
    }

    /// Delivers `LifecycleEvent.openURL` for `url` to every implementer; `true` if any handled it. SPI, like
    /// ``deliver(_:)-(LifecycleEvent)``.
    @_spi(Benchmarks) public func open(_ url: URL) async -> Bool {
        await open(url, observer: nil, from: 0, supervisor: nil).result
    }

    /// Delivers the custom event `event` to every participant that handles it, and returns the combined
    /// result. SPI, like ``deliver(_:)-(LifecycleEvent)``.
    @_spi(Benchmarks) public func deliver<E: CustomEvent>(_ event: E) async -> E.Result {
        await deliver(event, observer: nil, from: 0, supervisor: nil).result
    }

    package func deliver<E: CustomEvent>(
        _ event: E,
        observer: DeliveryObserver?,
        from start: Int,
        supervisor: (any DeliverySupervisor)?
    ) async -> EventOutcome<E.Result> {
        guard let erased = customRoutes[ObjectIdentifier(E.self)] else {
            let event = LifecycleEvent(custom: E.self)
            return EventOutcome(event: event, result: E.Result.unanswered, failures: [], delivered: 0)
        }
        // The table is keyed by `ObjectIdentifier(E.self)`, so the route's type is known.
        let route = unsafeDowncast(erased, to: CustomRoute<E>.self)
        return await route.run(event, context: context, observer: observer, from: start, supervisor: supervisor)
    }
}

extension DelegateProxy: LifecycleDispatcher {
    package func warmUpCall(at position: Int) -> @Sendable () async throws -> Void {
        let hook = implementers.warmUp.hooks[position]
        let context = self.context
        if let faults = context.faults {
            // The test kit's random lifecycles: the fault, if any, replaces this call.
            let participant = implementers.warmUp.participants[position]
            return {
                try await faults.strike(participant, .hook(.warmUp))
                try await hook.warmUp(context)
            }
        }
        return { try await hook.warmUp(context) }
    }

    /// How many entries the dependency table holds: one per participant, and one. Bounded by the
    /// participants, however many registrations came before.
    package var dependencyTableCount: Int { dependencyStart.count }

    package func dependencies(of participant: Participant) -> ArraySlice<Int> {
        let position = dependencyPositions.map { $0[participant.id] } ?? participant.id
        guard let position, position + 1 < dependencyStart.count else { return [] }
        return dependencyList[dependencyStart[position]..<dependencyStart[position + 1]]
    }

    package func explainedDependencies(of participant: Participant) -> [ModuleDependency] {
        let ids = dependencies(of: participant)
        guard !ids.isEmpty else { return [] }
        // One pass over the modules finds the participant and the ones it depends on.
        var slot: ModuleSlot?
        var targets: [Int: ModuleSlot] = [:]
        for candidate in modules {
            let id = candidate.participant.id
            if id == participant.id { slot = candidate }
            if ids.contains(id) { targets[id] = candidate }
        }
        guard let slot else { return [] }
        return ids.compactMap { id in
            guard let target = targets[id] else { return nil }
            let key = ObjectIdentifier(target.entry.type)
            let added = slot.entry.addedDependencies.first { ObjectIdentifier($0.type) == key }
            return ModuleDependency(module: target.participant, reason: added.map { .added($0.reason) } ?? .declared)
        }
    }

    package func failurePolicy(of participant: Participant) -> ModuleFailurePolicy? {
        policies[participant.id]
    }

    package func moduleBudget(_ participant: Participant, for event: LifecycleEvent) -> Duration? {
        budgeted[participant.id]?.budget(for: event)
    }

    package func shortestModuleBudget(for event: LifecycleEvent) -> Duration? {
        guard event.isCustom else { return shortestBudgets[event] }
        guard !budgeted.isEmpty else { return nil }
        return plan(for: event).lazy.compactMap { self.budgeted[$0.id]?.budget(for: event) }.min()
    }

    package func launchBudget(of participant: Participant) -> Duration? {
        guard let slot = modules.first(where: { $0.participant.id == participant.id }) else { return nil }
        return (slot.entry.type as? any LaunchBudgetedModule.Type)?.launchBudget
    }

    /// The outcome of an event that `deliver(_:scope:observer:from:supervisor:)` does not deliver (one with a
    /// payload, a custom event, a message): nobody was called, and the event's default is the result.
    func unanswered(_ event: LifecycleEvent) -> EventOutcome<Bool> {
        let fallback: Bool
        if case .anyTrue(let whenUnanswered) = event.resultRule {
            fallback = whenUnanswered
        } else {
            fallback = false
        }
        return EventOutcome(event: event, result: fallback, failures: [], delivered: 0)
    }
}
