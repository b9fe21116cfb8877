import LifecycleCore
import LifecycleScopes
import LifecycleTesting
import Synchronization
import Testing

@Suite("Scope adoptions: removal, once-actions, late and concurrent additions")
struct ScopeAdoptionTests {
    @Test("a removed adoption receives nothing afterwards; the others go on")
    func removal() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let scope = try await scopes.begin(.session, "bob")
        let removed = await scope.on(.activate, "removed") { _ in log.append("removed") }
        await scope.on(.activate, "kept") { _ in log.append("kept") }
        let behavior = await scope.adopt(Tag(name: "tag", log: log))
        try await scope.activate()
        scope.remove(removed)
        scope.remove(behavior)
        scope.remove(behavior)  // twice: nothing
        #expect(removed.isRemoved && behavior.isRemoved)
        try await scope.deactivate()
        try await scope.activate()
        try await scope.end()
        #expect(log.entries == ["tag begin", "removed", "kept", "kept"])
    }

    @Test("a once-action runs at the first activation only, and at once when added to an active scope")
    func onceAction() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let count = Tally()
        let scope = try await scopes.begin(.session, "carol")
        let once = await scope.once("welcome") { _ in count.add() }
        for _ in 0..<3 {
            try await scope.activate()
            try await scope.deactivate()
        }
        #expect(count.value == 1)
        #expect(once.isRemoved)

        try await scope.activate()
        await scope.once("late") { _ in count.add(10) }
        #expect(count.value == 11)
        try await scope.end()
    }

    @Test("once-actions run exactly once when additions and activations race across tasks")
    func onceUnderConcurrency() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        for round in 0..<20 {
            let runs = Tally()
            let scope = try await scopes.begin(.session, "race \(round)")
            let activationSucceeded = Tally()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<32 {
                    group.addTask { await scope.once { _ in runs.add() } }
                }
                for _ in 0..<8 {
                    group.addTask {
                        if (try? await scope.activate()) != nil { activationSucceeded.add() }
                    }
                }
            }
            // One activation wins; a catch-up never makes one fail. Every once-action added ran once: at the
            // activation, or at once if it came after.
            #expect(activationSucceeded.value == 1)
            #expect(runs.value == 32)
            try? await scope.deactivate()
            try? await scope.activate()
            #expect(runs.value == 32)
            try await scope.end()
        }
    }

    @Test("an adoption added while a step runs joins when the step is done, caught up, nothing lost")
    func adoptionDuringStep() async throws {
        let gate = Gate()
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let scope = try await scopes.begin(.job, "export")
        await scope.on(.activate, "slow") { _ in await gate.wait() }
        let activation = Task { try await scope.activate() }
        try await waitUntil { gate.isWaiting }
        await scope.adopt(Counter(log: log))  // returns at once: the scope is busy
        #expect(log.entries.isEmpty)
        gate.open()
        try await activation.value
        #expect(log.entries == ["Counter begin #1", "Counter activate #2"])
        try await scope.end()
        #expect(log.entries.suffix(2) == ["Counter deactivate #3", "Counter end #4"])
    }

    @Test("an action may adopt into its own scope from a hook; the adoption is caught up after the step")
    func adoptionFromHook() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let scope = scopes.scope(.request, "GET /nested")
        await scope.on(.begin, "adopter") { scope in await scope.adopt(Tag(name: "late", log: log)) }
        try await scope.begin()
        try await scope.end()
        #expect(log.entries == ["late begin", "late end"])
    }

    @Test("a scope that has ended gives a new adoption nothing")
    func adoptionAfterEnd() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let scope = try await scopes.begin(.job, "done")
        try await scope.end()
        await scope.adopt(Tag(name: "late", log: log))
        #expect(log.entries.isEmpty)
    }
}
