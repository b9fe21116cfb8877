import LifecycleCore
import LifecycleScopes
import LifecycleTesting
import Testing

@Suite("Scope edge cases: re-entrant steps, foreign tokens, stuck takeovers, cycles")
struct ScopeEdgeCaseTests {
    @Test("a hook of a catch-up that asks for a step of its scope is refused instead of waiting for itself")
    func stepFromCatchUpHook() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let scope = try await scopes.begin(.session, "reentrant")
        try await scope.activate()
        let refusal = Log()
        await scope.once("deactivates") { scope in
            do {
                try await scope.deactivate()
            } catch let error as ScopeError {
                refusal.append("\(error.code) \(error.running.map { "\($0)" } ?? "catch-up")")
            }
        }
        #expect(refusal.entries == ["transitionInProgress catch-up"])
        #expect(scope.state == .active)
        try await scope.end()
    }

    @Test("a step asked for from a hook of a running step is refused, naming the step that runs")
    func stepFromStepHook() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let scope = scopes.scope(.job, "inner step")
        let refusal = Log()
        await scope.on(.begin) { scope in
            do {
                try await scope.end()
            } catch let error as ScopeError {
                refusal.append("\(error.code) \(error.running.map { "\($0)" } ?? "-")")
            }
        }
        try await scope.begin()
        #expect(refusal.entries == ["transitionInProgress begin"])
        try await scope.end()
    }

    @Test("removing another scope's adoption does nothing")
    func foreignToken() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let first = try await scopes.begin(.job, "a")
        let second = try await scopes.begin(.job, "b")
        let token = await first.on(.end, "a's") { _ in log.append("a's end") }
        second.remove(token)
        #expect(!token.isRemoved)
        try await second.end()
        try await first.end()
        #expect(log.entries == ["a's end"])
    }

    @Test("a second action stuck during the watchdog's takeover does not keep the scope in flight")
    func stuckTakeover() async throws {
        let clock = VirtualClock()
        let (host, scopes, _) = try scopedHost([], endBudget: .milliseconds(50), clock: clock)
        defer { withExtendedLifetime(host) {} }
        let release = Gate()
        let scope = try await scopes.begin(.request, "GET /twice-stuck")
        let log = Log()
        await scope.on(.end, "first") { _ in log.append("first") }
        await scope.on(.end, "second stuck") { _ in await release.wait() }
        await scope.on(.end, "first stuck") { _ in await release.wait() }
        let ending = Task { try? await scope.end() }
        while !release.isWaiting { await Task.yield() }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(50))
        try await waitUntil { scopes.inFlight().isEmpty }
        #expect(scopes.inFlight().isEmpty)
        #expect(scope.state == .ended)
        #expect(log.entries.isEmpty)  // behind the second stuck action
        release.open()
        await ending.value
        try await waitUntil { log.entries == ["first"] }
        #expect(log.entries == ["first"])
    }

    @Test("a rollback that overruns the end budget still throws why the step failed")
    func rollbackTimeout() async throws {
        let clock = VirtualClock()
        let (host, scopes, _) = try scopedHost([StrictAction.self], endBudget: .milliseconds(50), clock: clock)
        defer { withExtendedLifetime(host) {} }
        let release = Gate()
        let scope = scopes.scope(.job, "abort-activate slow rollback")
        await scope.on(.end, "slow") { _ in await release.wait() }
        try await scope.begin()
        let activation = Task { () -> ScopeError? in
            do {
                try await scope.activate()
                return nil
            } catch let error as ScopeError {
                return error
            } catch {
                return nil
            }
        }
        while !release.isWaiting { await Task.yield() }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(50))
        try await waitUntil { scopes.inFlight().isEmpty }
        release.open()
        let error = await activation.value
        #expect(error?.code == .actionFailed)
        #expect(scopes.failures.contains { ($0.error as? ScopeError)?.code == .endTimedOut })
    }

    @Test("begin and scope(_:_:) nest in the task's current scope by default")
    func defaultParent() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        try await scopes.withScope(.session, "outer") { outer in
            let job = try await scopes.begin(.job, "inner")
            #expect(job.parent === outer)
            #expect(scopes.scope(.job, "idle").parent === outer)
            try await job.end()
        }
    }

    @Test("an ended scope lets go of its adoptions, so one that holds the scope does not keep it alive")
    func noCycle() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        weak var weakScope: Scope?
        do {
            let scope = try await scopes.begin(.request, "GET /cycle")
            weakScope = scope
            await scope.on(.end) { _ in _ = scope.name }  // the closure holds its scope
            try await scope.end()
        }
        #expect(weakScope == nil)
        #expect(scopes.failures.isEmpty)
    }

    @Test("when the host is gone, its registry lets go of its actions and their context: nothing leaks")
    func hostGone() async throws {
        weak var weakRegistry: ScopeRegistry?
        weak var weakHost: ApplicationHost?
        do {
            let (host, scopes, _) = try scopedHost([ContextKeepingAction.self])
            weakHost = host
            weakRegistry = scopes
            #expect(scopes.actions(for: .request).map(short) == ["ContextKeepingAction"])
        }
        #expect(weakHost == nil)
        #expect(weakRegistry == nil)
    }
}

/// An action that keeps its host's context, whose launch options hold the registry that holds the action.
struct ContextKeepingAction: ScopeAction {
    static let kinds: ScopeKinds = .all
    static let priority: ModulePriority = .normal
    let context: LifecycleContext
    init(context: LifecycleContext) { self.context = context }
}
