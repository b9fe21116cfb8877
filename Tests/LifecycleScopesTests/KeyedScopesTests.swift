import LifecycleCore
import LifecycleScopes
import LifecycleTesting
import Testing

/// A table of `capacity` session scopes with `idleTimeout`, whose scopes log their begin and end to `log`.
private func sessions(
    _ scopes: ScopeRegistry,
    capacity: Int = 100,
    idleTimeout: Duration = .seconds(60),
    log: Log
) throws -> KeyedScopes<String> {
    try KeyedScopes<String>(.session, in: scopes, capacity: capacity, idleTimeout: idleTimeout) { scope in
        await scope.on(.begin, "log begin") { log.append("\($0.name) began") }
        await scope.on(.end, "log end") { log.append("\($0.name) ended") }
    }
}

@Suite("KeyedScopes: bounded long-lived scopes by key")
struct KeyedScopesTests {
    @Test("a capacity under 1 and a timeout of zero or less are refused with typed errors")
    func badInput() throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        for capacity in [0, -1] {
            let error = #expect(throws: KeyedScopesError.self) {
                try KeyedScopes<String>(.session, in: scopes, capacity: capacity)
            }
            #expect(error?.code == .invalidCapacity)
            #expect(error?.capacity == capacity)
            #expect(error?.description.contains("KeyedScopes(session)") == true)
            #expect(error?.description.contains("Fix: give a capacity of at least 1") == true)
        }
        for timeout in [Duration.zero, .seconds(-5)] {
            let error = #expect(throws: KeyedScopesError.self) {
                try KeyedScopes<String>(.session, in: scopes, idleTimeout: timeout)
            }
            #expect(error?.code == .invalidIdleTimeout)
            #expect(error?.description.contains("more than zero") == true)
        }
        let table = try KeyedScopes<String>(.session, in: scopes, capacity: 1, idleTimeout: .nanoseconds(1))
        #expect(table.capacity == 1)
        #expect(KeyedScopes<String>.defaultCapacity == 10_000)
        #expect(KeyedScopes<String>.defaultIdleTimeout == .seconds(1800))
    }

    @Test("uses of one key share one scope, begun and active, not ended between uses")
    func sharing() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let table = try sessions(scopes, log: log)
        let first = try await table.withScope("alice") { $0 }
        let second = try await table.withScope("alice") { session in
            #expect(session.state == .active)
            return session
        }
        #expect(first === second)
        #expect(first.name == "alice")
        #expect(first.kind == .session)
        #expect(first.parent == nil)
        #expect(table.count == 1)
        #expect(table.inUse == 0)
        #expect(log.entries == ["alice began"])
        #expect(scopes.inFlight(.session).map(\.name) == ["alice"])
        #expect(await table.endAll() == 1)
        #expect(log.entries == ["alice began", "alice ended"])
        #expect(scopes.inFlight().isEmpty)
    }

    @Test("a scope idle for its timeout is ended on the host's clock, its end actions run; the key then opens anew")
    func idleExpiry() async throws {
        let clock = VirtualClock()
        let (host, scopes, _) = try scopedHost([], clock: clock)
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let table = try sessions(scopes, idleTimeout: .seconds(60), log: log)
        let first = try await table.withScope("alice") { $0 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        try await Task.sleep(for: .milliseconds(20))
        #expect(first.state == .active, "59 s idle: kept")
        #expect(table.count == 1)
        clock.advance(by: .seconds(1))
        try await waitUntil { first.state == .ended && log.entries.contains("alice ended") }
        #expect(first.state == .ended)
        #expect(log.entries == ["alice began", "alice ended"])
        #expect(table.count == 0)
        #expect(scopes.inFlight(.session).isEmpty)
        let again = try await table.withScope("alice") { $0 }
        #expect(again !== first)
        #expect(again.state == .active)
        await table.endAll()
        #expect(scopes.failures.isEmpty)
    }

    @Test("a use resets the idle time: only a scope idle for the whole timeout ends")
    func useResetsIdleTime() async throws {
        let clock = VirtualClock()
        let (host, scopes, _) = try scopedHost([], clock: clock)
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let table = try sessions(scopes, idleTimeout: .seconds(60), log: log)
        _ = try await table.withScope("alice") { $0 }
        _ = try await table.withScope("bob") { $0 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(40))
        _ = try await table.withScope("alice") { $0 }  // alice idle from 40 s, bob from 0 s
        clock.advance(by: .seconds(20))
        try await waitUntil { log.entries.contains("bob ended") }
        #expect(log.entries.contains("bob ended"))
        #expect(!log.entries.contains("alice ended"))
        #expect(scopes.inFlight(.session).map(\.name) == ["alice"])
        clock.advance(by: .seconds(40))
        try await waitUntil { log.entries.contains("alice ended") }
        #expect(log.entries.contains("alice ended"))
        #expect(table.count == 0)
    }

    @Test("a full table ends its least recently used idle scope, and its end actions run")
    func leastRecentlyUsed() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let table = try sessions(scopes, capacity: 2, log: log)
        let alice = try await table.withScope("alice") { $0 }
        let bob = try await table.withScope("bob") { $0 }
        _ = try await table.withScope("alice") { $0 }  // bob is now the least recently used
        let carol = try await table.withScope("carol") { $0 }
        #expect(bob.state == .ended)
        #expect(alice.state == .active)
        #expect(carol.state == .active)
        #expect(log.entries == ["alice began", "bob began", "bob ended", "carol began"])
        #expect(table.count == 2)
        #expect(Set(scopes.inFlight(.session).map(\.name)) == ["alice", "carol"])
        _ = try await table.withScope("dave") { $0 }  // alice is the least recently used now
        #expect(alice.state == .ended)
        #expect(table.count == 2)
        #expect(await table.endAll() == 2)
        #expect(scopes.inFlight().isEmpty)
        #expect(scopes.failures.isEmpty, "no scope leaked: every evicted scope ended")
    }

    @Test("a scope in use is never ended under it, by the cap or the timeout; a full table of scopes in use refuses")
    func inUseIsKept() async throws {
        let clock = VirtualClock()
        let (host, scopes, _) = try scopedHost([], clock: clock)
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let table = try sessions(scopes, capacity: 1, idleTimeout: .seconds(60), log: log)
        let entered = Gate()
        let release = Gate()
        let using = Task {
            try await table.withScope("alice") { session in
                entered.open()
                await release.wait()
                return session.state
            }
        }
        await entered.wait()
        #expect(table.inUse == 1)
        let error = await #expect(throws: KeyedScopesError.self) {
            try await table.withScope("bob") { _ in }
        }
        #expect(error?.code == .full)
        #expect(error?.key == "bob")
        #expect(error?.description.contains("HTTP 503") == true)
        clock.advance(by: .seconds(600))  // no deadline is armed while alice is in use
        try await Task.sleep(for: .milliseconds(20))
        #expect(!log.entries.contains("alice ended"))
        release.open()
        #expect(try await using.value == .active, "the scope stayed active for the whole use")
        #expect(table.inUse == 0)
        // Idle from now: the timeout counts from the end of the last use.
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        try await Task.sleep(for: .milliseconds(20))
        #expect(!log.entries.contains("alice ended"))
        clock.advance(by: .seconds(1))
        try await waitUntil { log.entries.contains("alice ended") }
        #expect(log.entries == ["alice began", "alice ended"])
        _ = try await table.withScope("bob") { $0 }
        #expect(table.count == 1)
        await table.endAll()
    }

    @Test("many tasks over many keys: one opening per key, never more than the capacity, every scope ended")
    func concurrentUse() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let capacity = 8
        let table = try sessions(scopes, capacity: capacity, log: log)
        let overCapacity = Tally()
        let refused = Tally()
        let inactive = Tally()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<400 {
                group.addTask {
                    do {
                        try await table.withScope("user-\(task % 24)") { session in
                            if session.state != .active { inactive.add() }
                            if scopes.inFlight(.session).count > capacity { overCapacity.add() }
                            await Task.yield()
                        }
                    } catch let error as KeyedScopesError where error.code == .full {
                        refused.add()
                    } catch {
                        Issue.record("unexpected error: \(error)")
                    }
                    if table.count > capacity { overCapacity.add() }
                }
            }
        }
        #expect(overCapacity.value == 0)
        #expect(inactive.value == 0, "a scope in use was ended under it")
        #expect(refused.value < 400)
        #expect(table.count <= capacity)
        await table.endAll()
        let began = log.entries.filter { $0.hasSuffix("began") }
        let ended = log.entries.filter { $0.hasSuffix("ended") }
        #expect(began.count == ended.count)
        #expect(scopes.inFlight().isEmpty)
        #expect(scopes.failures.isEmpty)
    }

    @Test("concurrent first uses of one key open it once")
    func oneOpening() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let table = try sessions(scopes, log: log)
        let ids = await withTaskGroup(of: ScopeID?.self) { group in
            for _ in 0..<50 { group.addTask { try? await table.withScope("alice") { $0.id } } }
            var ids: Set<ScopeID> = []
            for await id in group { if let id { ids.insert(id) } }
            return ids
        }
        #expect(ids.count == 1)
        #expect(log.entries == ["alice began"])
        await table.endAll()
    }

    @Test("a scope that cannot begin is a typed error; the key is not kept and opens again later")
    func openFailure() async throws {
        let (host, scopes, _) = try scopedHost([StrictAction.self])
        defer { withExtendedLifetime(host) {} }
        let table = try KeyedScopes<String>(.session, in: scopes)
        let error = await #expect(throws: KeyedScopesError.self) {
            try await table.withScope("abort-begin") { _ in Issue.record("the body ran") }
        }
        #expect(error?.code == .openFailed)
        #expect(error?.underlying?.code == .actionFailed)
        #expect(table.count == 0)
        #expect(scopes.inFlight().isEmpty)
    }

    @Test("endAll ends the idle scopes, a scope in use at its last use, and closes the table")
    func endAllCloses() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let table = try sessions(scopes, log: log)
        _ = try await table.withScope("alice") { $0 }
        let entered = Gate()
        let release = Gate()
        let using = Task {
            try await table.withScope("bob") { _ in
                entered.open()
                await release.wait()
            }
        }
        await entered.wait()
        #expect(await table.endAll() == 1)
        #expect(log.entries.contains("alice ended"))
        #expect(!log.entries.contains("bob ended"), "bob is in use")
        release.open()
        try await using.value
        #expect(log.entries.contains("bob ended"))
        let error = await #expect(throws: KeyedScopesError.self) { try await table.withScope("carol") { _ in } }
        #expect(error?.code == .closed)
        #expect(scopes.inFlight().isEmpty)
    }
}
