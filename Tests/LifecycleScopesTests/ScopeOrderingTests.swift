import LifecycleCore
import LifecycleScopes
import LifecycleTesting
import Testing

@Suite("Scope ordering: global actions by priority, then adoptions; teardown mirrored")
struct ScopeOrderingTests {
    @Test("global actions run by priority, ties by type name, for their kinds only")
    func globalOrder() async throws {
        let (host, scopes, recorder) = try scopedHost()
        defer { withExtendedLifetime(host) {} }
        #expect(scopes.actions(for: .request).map(short) == ["AuditAction", "TieA", "TieB", "EveryKindAction"])
        #expect(scopes.actions(for: .job).map(short) == ["JobAction", "EveryKindAction"])
        #expect(scopes.actions(for: "connection").map(short) == ["EveryKindAction"])

        try await scopes.withScope(.request, "GET /") { _ in }
        #expect(
            recorder.timeline("GET /") == [
                "begin AuditAction", "begin TieA", "begin TieB", "begin EveryKindAction",
                "activate AuditAction", "activate TieA", "activate TieB", "activate EveryKindAction",
                "deactivate EveryKindAction", "deactivate TieB", "deactivate TieA", "deactivate AuditAction",
                "end EveryKindAction", "end TieB", "end TieA", "end AuditAction",
            ]
        )
    }

    @Test("adoptions run after the global actions, in the order added; teardown is the exact mirror")
    func instanceOrder() async throws {
        let (host, scopes, recorder) = try scopedHost([AuditAction.self])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let scope = scopes.scope(.request, "GET /a")
        try await scope.begin()
        await scope.adopt(Tag(name: "first", log: log), Tag(name: "second", log: log))
        await scope.on(.end, "closure") { _ in log.append("closure end") }
        await scope.adopt(Tag(name: "third", log: log))
        try await scope.activate()
        try await scope.end()
        #expect(
            log.entries == [
                "first begin", "second begin", "third begin",  // caught up when adopted
                "third end", "closure end", "second end", "first end",
            ]
        )
        #expect(
            recorder.receivers(of: .end, in: "GET /a") == ["Tag", "closure", "Tag", "Tag", "AuditAction"]
        )
        #expect(recorder.receivers(of: .activate, in: "GET /a") == ["AuditAction", "Tag", "Tag", "Tag"])
    }

    @Test("a behavior keeps its stored state from hook to hook")
    func behaviorState() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        let scope = try await scopes.begin(.session, "alice")
        await scope.adopt(Counter(log: log))
        try await scope.activate()
        try await scope.deactivate()
        try await scope.activate()
        try await scope.end()
        #expect(
            log.entries == [
                "Counter begin #1", "Counter activate #2", "Counter deactivate #3", "Counter activate #4",
                "Counter deactivate #5", "Counter end #6",
            ]
        )
        #expect(scope.activations == 2)
    }

    @Test("behaviors composed in one adoption: listed order forward, reverse at teardown")
    func composedBehaviors() async throws {
        let (host, scopes, recorder) = try scopedHost([AuditAction.self])
        defer { withExtendedLifetime(host) {} }
        let log = Log()
        try await scopes.withScope(
            .request,
            "GET /composed",
            adopting: Tag(name: "timing", log: log),
            Counter(log: log),
            Tag(name: "audit", log: log)
        ) { scope in
            #expect(Scope.current === scope)
            #expect(scope.state == .active)
        }
        #expect(
            log.entries == [
                "timing begin", "Counter begin #1", "audit begin", "Counter activate #2", "Counter deactivate #3",
                "audit end", "Counter end #4", "timing end",
            ]
        )
        #expect(recorder.receivers(of: .begin, in: "GET /composed") == ["AuditAction", "Tag", "Counter", "Tag"])
    }
}

func short(_ name: String) -> String { String(name.split(separator: ".").last ?? "") }
