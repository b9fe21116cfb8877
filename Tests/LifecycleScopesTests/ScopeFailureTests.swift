import LifecycleCore
import LifecycleScopes
import LifecycleTesting
import Testing

@Suite("Scope failures: isolated or failing the scope, bounded ends, leaks")
struct ScopeFailureTests {
    @Test("an isolated failure is reported and delivery goes on")
    func isolated() async throws {
        let (host, scopes, recorder) = try scopedHost([FlakyAction.self, AuditAction.self])
        defer { withExtendedLifetime(host) {} }
        try await scopes.withScope(.request, "flaky GET /") { _ in }
        #expect(
            recorder.timeline("flaky GET /") == [
                "begin AuditAction", "begin FlakyAction failed", "activate AuditAction", "activate FlakyAction",
                "deactivate FlakyAction", "deactivate AuditAction", "end FlakyAction failed", "end AuditAction",
            ]
        )
        #expect(scopes.failureCount == 2)
        #expect(scopes.failures.allSatisfy { $0.isolated && $0.action?.hasSuffix("FlakyAction") == true })
        #expect(scopes.failures.map(\.event) == [.begin, .end])
    }

    @Test("an .abort action failing at begin ends the scope: those before it receive end, in reverse")
    func abortAtBegin() async throws {
        let (host, scopes, recorder) = try scopedHost([AuditAction.self, StrictAction.self, TieA.self])
        defer { withExtendedLifetime(host) {} }
        let error = await #expect(throws: ScopeError.self) {
            try await scopes.withScope(.request, "abort-begin") { _ in Issue.record("the body ran") }
        }
        #expect(error?.code == .actionFailed)
        #expect(error?.action?.hasSuffix("StrictAction") == true)
        #expect(error?.event == .begin)
        #expect(error?.underlying is Refused)
        #expect(error?.description.contains("failure policy is .abort") == true)
        // StrictAction and TieA tie at .normal: StrictAction first by name; TieA never began.
        #expect(
            recorder.timeline("abort-begin") == ["begin AuditAction", "begin StrictAction failed", "end AuditAction"]
        )
        #expect(scopes.inFlight().isEmpty)
    }

    @Test("an .abort failure at activate: deactivate to those activated before it, then end to all")
    func abortAtActivate() async throws {
        let (host, scopes, recorder) = try scopedHost([AuditAction.self, StrictAction.self, TieA.self])
        defer { withExtendedLifetime(host) {} }
        let scope = try await scopes.begin(.request, "abort-activate")
        await #expect(throws: ScopeError.self) { try await scope.activate() }
        #expect(scope.state == .ended)
        #expect(
            recorder.timeline("abort-activate") == [
                "begin AuditAction", "begin StrictAction", "begin TieA",
                "activate AuditAction", "activate StrictAction failed",
                "deactivate AuditAction",
                "end TieA", "end StrictAction", "end AuditAction",
            ]
        )
        #expect(scope.failures.map(\.isolated) == [false])
    }

    @Test("a behavior with .abort fails the scope too; a teardown failure never stops the end")
    func behaviorAbortAndTeardown() async throws {
        let (host, scopes, recorder) = try scopedHost([StrictAction.self])
        defer { withExtendedLifetime(host) {} }
        let error = await #expect(throws: ScopeError.self) {
            try await scopes.withScope(.job, "strict", adopting: StrictBehavior()) { _ in }
        }
        #expect(error?.action?.hasSuffix("StrictBehavior") == true)
        #expect(recorder.timeline("strict").last == "end StrictAction")

        try await scopes.withScope(.job, "abort-end") { _ in }  // .abort at end: isolated, end completes
        #expect(recorder.timeline("abort-end").suffix(1) == ["end StrictAction failed"])
        #expect(scopes.failures.last?.isolated == true)
        #expect(scopes.inFlight().isEmpty)
    }

    @Test("an end that hangs past its budget: reported, the rest delivered without it, the scope gone")
    func endBudget() async throws {
        let clock = VirtualClock()
        let (host, scopes, recorder) = try scopedHost([AuditAction.self], endBudget: .milliseconds(100), clock: clock)
        defer { withExtendedLifetime(host) {} }
        let release = Gate()
        let scope = try await scopes.begin(.request, "GET /hangs")
        await scope.on(.end, "flush") { _ in log.append("after") }
        await scope.on(.end, "stuck") { _ in await release.wait() }
        let ending = Task { try await scope.end() }
        while !release.isWaiting { await Task.yield() }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(99))
        #expect(scopes.inFlight().count == 1, "99 ms: within its budget")
        clock.advance(by: .milliseconds(1))
        // The watchdog delivers `flush` and `AuditAction` and removes the scope without waiting for `stuck`.
        try await waitUntil { scopes.inFlight().isEmpty }
        #expect(scopes.inFlight().isEmpty)
        #expect(scope.state == .ended)
        #expect(log.entries == ["after"])
        #expect(recorder.receivers(of: .end, in: "GET /hangs") == ["stuck", "flush", "AuditAction"])
        let failure = try #require(scopes.failures.last)
        #expect(failure.action == "stuck")
        #expect((failure.error as? ScopeError)?.code == .endTimedOut)
        #expect("\(failure.error)".contains("did not finish within 0.1 seconds"))

        release.open()
        let error = await #expect(throws: ScopeError.self) { try await ending.value }
        #expect(error?.code == .endTimedOut)
        #expect(error?.action == "stuck")
        // Nothing was delivered twice.
        #expect(recorder.receivers(of: .end, in: "GET /hangs").count == 3)
    }

    @Test(
        "an end with no action and no adoption is still watched when it releases something stored",
        .timeLimit(.minutes(1))
    )
    func cleanupAloneIsWatched() async throws {
        let clock = VirtualClock()
        let (host, scopes, _) = try scopedHost([], endBudget: .milliseconds(100), clock: clock)
        defer { withExtendedLifetime(host) {} }
        let release = Gate()
        let scope = try await scopes.begin(.request, "GET /pool")
        let stored = scope.store(1, for: ObjectIdentifier(Gate.self), name: "Pool") { await release.wait() }
        #expect(stored?.stored == true)
        let ending = Task { try await scope.end() }
        while !release.isWaiting { await Task.yield() }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        try await waitUntil { scopes.inFlight().isEmpty }
        let failure = try #require(scopes.failures.last)
        #expect(failure.action == "Pool")
        #expect((failure.error as? ScopeError)?.code == .endTimedOut)
        release.open()
        let error = await #expect(throws: ScopeError.self) { try await ending.value }
        #expect(error?.action == "Pool")
    }

    @Test("a scope released without ending is reported as leaked")
    func leak() async throws {
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        do {
            let scope = try await scopes.begin(.job, "forgotten")
            #expect(scopes.inFlight().map(\.name) == ["forgotten"])
            _ = scope
        }
        #expect(scopes.inFlight().isEmpty)
        let failure = try #require(scopes.failures.last)
        #expect((failure.error as? ScopeError)?.code == .leaked)
        #expect("\(failure.error)".contains("job scope"))
        #expect("\(failure.error)".contains("forgotten"))
        #expect("\(failure.error)".contains("Fix: end every scope you begin"))
    }
}

private let log = Log()
