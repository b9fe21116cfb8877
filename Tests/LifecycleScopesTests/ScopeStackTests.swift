import LifecycleCore
import LifecycleScopes
import LifecycleTesting
import Testing

@Suite("The active stack: the current scope, nesting, and what is in flight")
struct ScopeStackTests {
    @Test("nested scopes push and pop the task's current scope; children name their parent")
    func nesting() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        #expect(Scope.current == nil)
        try await scopes.withScope(.session, "alice") { session in
            #expect(Scope.current === session)
            try await scopes.withScope(.request, "GET /1") { request in
                #expect(Scope.current === request)
                #expect(request.parent === session)
                #expect(request.ancestors.map(\.name) == ["alice"])
                let listed = scopes.inFlight()
                #expect(listed.map(\.name) == ["alice", "GET /1"])
                #expect(listed.map(\.state) == [.active, .active])
                #expect(listed[1].parent == session.id)
                #expect(scopes.inFlight(.request).map(\.name) == ["GET /1"])
            }
            #expect(Scope.current === session)
            #expect(scopes.inFlight().map(\.name) == ["alice"])
        }
        #expect(Scope.current == nil)
        #expect(scopes.inFlight().isEmpty)
    }

    @Test("a scope whose task is cancelled, or whose body throws, still ends and leaves the list")
    func cancellation() async throws {
        let (host, scopes, recorder) = try scopedHost([AuditAction.self])
        defer { withExtendedLifetime(host) {} }
        let gate = Gate()
        let task = Task {
            try await scopes.withScope(.request, "GET /cancelled") { _ in
                await gate.wait()
                try Task.checkCancellation()
            }
        }
        try await waitUntil { !scopes.inFlight(.request).isEmpty }
        task.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scopes.inFlight().isEmpty)
        #expect(recorder.receivers(of: .end, in: "GET /cancelled") == ["AuditAction"])

        struct Thrown: Error {}
        await #expect(throws: Thrown.self) {
            try await scopes.withScope(.request, "GET /throws") { _ in throw Thrown() }
        }
        #expect(scopes.inFlight().isEmpty)
        #expect(recorder.receivers(of: .end, in: "GET /throws") == ["AuditAction"])
    }

    @Test("many concurrent requests: each is listed while in flight, and the list empties")
    func concurrentInFlight() async throws {
        let (host, scopes, recorder) = try scopedHost([AuditAction.self])
        defer { withExtendedLifetime(host) {} }
        let gate = Gate()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask { try await scopes.withScope(.request, "r\(index)") { _ in await gate.wait() } }
            }
            try await waitUntil { scopes.inFlight(.request).count == 64 }
            #expect(Set(scopes.inFlight(.request).map(\.name)).count == 64)
            gate.open()
            try await group.waitForAll()
        }
        #expect(scopes.inFlight().isEmpty)
        #expect(recorder.receivers(of: .end).count == 64)
        #expect(Set(recorder.deliveries.map(\.scope)).count == 64)
    }
}
