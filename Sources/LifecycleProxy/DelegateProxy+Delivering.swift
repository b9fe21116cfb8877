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

    package func open(
        _ url: URL,
        observer: DeliveryObserver?,
        from start: Int,
        supervisor: (any DeliverySupervisor)?
    ) async -> EventOutcome<Bool> {
        let context = self.context
        return await openURL.fanOut(
            .openURL,
            scope: .all,
            observer: observer,
            from: start,
            supervisor: supervisor,
            sync: { try $0.open(url, context: context) },
            async: {
                try await $0.open(url, context: context)
            }
        )
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
        let hook = warmUp.hooks[position]
        let context = self.context
        return { try await hook.warmUp(context) }
    }

    package func dependencies(of participant: Participant) -> ArraySlice<Int> {
        let id = participant.id
        guard id + 1 < dependencyStart.count else { return [] }
        return dependencyList[dependencyStart[id]..<dependencyStart[id + 1]]
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

    package func deliver(
        _ event: LifecycleEvent,
        scope: DeliveryScope,
        observer: DeliveryObserver?,
        from start: Int,
        supervisor: (any DeliverySupervisor)?
    ) async -> EventOutcome<Bool> {
        let context = self.context
        switch event.kind {
        case .builtin(.willFinishLaunching):
            return await willFinishLaunching.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: { try $0.willFinishLaunching(context) },
                async: {
                    try await $0.willFinishLaunching(context)
                }
            )
        case .builtin(.setup):
            return await setup.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: {
                    try $0.setUp(context)
                    return false
                },
                async: {
                    try await $0.setUp(context)
                    return false
                }
            )
        case .builtin(.initialize):
            return await initialize.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: {
                    try $0.initialize(context)
                    return false
                },
                async: {
                    try await $0.initialize(context)
                    return false
                }
            )
        case .builtin(.warmUp):
            // Warm-up is concurrent: the host schedules `warmUpCall(at:)` itself. Delivered here (in order)
            // only through the SPI, for tests and benchmarks.
            return await warmUp.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: Never.noSyncHook,
                async: {
                    try await $0.warmUp(context)
                    return false
                }
            )
        case .builtin(.didFinishLaunching):
            return await didFinishLaunching.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: { try $0.didFinishLaunching(context) },
                async: {
                    try await $0.didFinishLaunching(context)
                }
            )
        case .builtin(.willEnterForeground):
            return await willEnterForeground.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: {
                    try $0.willEnterForeground(context)
                    return false
                },
                async: {
                    try await $0.willEnterForeground(context)
                    return false
                }
            )
        case .builtin(.didBecomeActive):
            return await didBecomeActive.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: {
                    try $0.didBecomeActive(context)
                    return false
                },
                async: {
                    try await $0.didBecomeActive(context)
                    return false
                }
            )
        case .builtin(.willResignActive):
            return await willResignActive.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: {
                    try $0.willResignActive(context)
                    return false
                },
                async: {
                    try await $0.willResignActive(context)
                    return false
                }
            )
        case .builtin(.didEnterBackground):
            return await didEnterBackground.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: {
                    try $0.didEnterBackground(context)
                    return false
                },
                async: {
                    try await $0.didEnterBackground(context)
                    return false
                }
            )
        case .builtin(.willTerminate):
            return await willTerminate.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: {
                    try $0.willTerminate(context)
                    return false
                },
                async: {
                    try await $0.willTerminate(context)
                    return false
                }
            )
        case .builtin(.didReceiveMemoryWarning):
            return await didReceiveMemoryWarning.fanOut(
                event,
                scope: scope,
                observer: observer,
                from: start,
                supervisor: supervisor,
                sync: {
                    try $0.didReceiveMemoryWarning(context)
                    return false
                },
                async: {
                    try await $0.didReceiveMemoryWarning(context)
                    return false
                }
            )
        case .builtin(.openURL), .custom, .message:
            // These carry a payload and have their own entry points (messages: LifecycleMessaging).
            let fallback: Bool
            if case .anyTrue(let whenUnanswered) = event.resultRule {
                fallback = whenUnanswered
            } else {
                fallback = false
            }
            return EventOutcome(event: event, result: fallback, failures: [], delivered: 0)
        }
    }
}
