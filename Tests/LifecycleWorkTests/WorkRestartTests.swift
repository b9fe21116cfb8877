import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// Restarts on the virtual clock: the intensity limit (OTP's intensity and period) and the backoff that
// bounds a crash loop in time.

/// Throws at once, every attempt; restarted 6 s later; at most 2 restarts within 10 s. Failures 6 s apart
/// leave the oldest restart out of the window, so it keeps restarting.
struct Sliding: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(
            restart: .permanent,
            intensity: .init(maxRestarts: 2, within: .seconds(10)),
            backoff: .init(initial: .seconds(6), maximum: .seconds(6), multiplier: 1, jitter: 0),
            escalation: .ignore
        )
        work.run("loop", policy: policy) { _, context in
            context.recorder.record("loop start \(context.attempt)")
            throw WorkFailure(label: "loop")
        }
    }
}

/// As `Sliding`, but 2 restarts within 20 s: the third failure, 12 s after the first, trips the limit.
struct Tripping: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(
            restart: .permanent,
            intensity: .init(maxRestarts: 2, within: .seconds(20)),
            backoff: .init(initial: .seconds(6), maximum: .seconds(6), multiplier: 1, jitter: 0),
            escalation: .ignore
        )
        work.run("loop", policy: policy) { _, context in
            context.recorder.record("loop start \(context.attempt)")
            throw WorkFailure(label: "loop")
        }
    }
}

/// A tight crash loop: throws at once, every attempt, with room for a thousand restarts an hour; only the
/// backoff (1 s, doubling, at most 8 s, no jitter) spaces the attempts.
struct CrashLoop: WorkingModule {
    static let priority: ModulePriority = .normal
    static let backoff = WorkPolicy.Backoff(initial: .seconds(1), maximum: .seconds(8), multiplier: 2, jitter: 0)
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(
            restart: .permanent,
            intensity: .init(maxRestarts: 1_000, within: .seconds(3_600)),
            backoff: backoff,
            escalation: .terminateApplication
        )
        work.run("crash", policy: policy) { _, context in
            context.recorder.record("crash \(context.attempt)")
            throw WorkFailure(label: "crash")
        }
    }
}

@Suite("Work: restart intensity and backoff, on the virtual clock")
struct WorkRestartTests {
    @Test("Failures spaced beyond the intensity period slide the window: it keeps restarting")
    func windowSlides() async throws {
        let rig = try workRig([Sliding.self], journal: 128)
        try await rig.host.launch()
        for attempt in 1...8 {
            #expect(await rig.wait(Sliding.self, "loop") { $0.attempts == attempt && $0.phase == .restarting })
            #expect(await settled(rig, armed: 1))
            rig.clock.advance(by: .seconds(6))
        }
        #expect(await rig.wait(Sliding.self, "loop") { $0.attempts == 9 && $0.phase == .restarting })
        #expect(!rig.workNotes.contains { $0.hasPrefix("workGaveUp") })
        #expect(rig.recorder.entries == (1...9).map { "loop start \($0)" })
        // Stopped in its backoff, it does not start again.
        try await rig.host.terminate()
        #expect(rig.status(Sliding.self, "loop")?.phase == .stopped)
        #expect(rig.workNotes.last?.contains("during its backoff") == true)
        #expect(rig.recorder.count("loop start 10") == 0)
    }

    @Test("Past maxRestarts within the period, the next failure escalates: 2 restarts, then it gives up")
    func intensityTrips() async throws {
        let rig = try workRig([Tripping.self, Bystander.self], journal: 128)
        try await rig.host.launch()
        for attempt in 1...2 {
            #expect(await rig.wait(Tripping.self, "loop") { $0.attempts == attempt && $0.phase == .restarting })
            #expect(await settled(rig, armed: 1))
            rig.clock.advance(by: .seconds(6))
        }
        #expect(await rig.wait(Tripping.self, "loop") { $0.phase == .gaveUp })
        #expect(rig.status(Tripping.self, "loop")?.attempts == 3)
        #expect(
            rig.recorder.entries.filter { $0.hasPrefix("loop") } == ["loop start 1", "loop start 2", "loop start 3"]
        )
        // The phase turns before the note is written.
        #expect(await eventually { rig.workNotes.contains { $0.hasPrefix("workGaveUp") } })
        let gaveUp = rig.workNotes.filter { $0.hasPrefix("workGaveUp") }
        #expect(gaveUp.count == 1)
        #expect(gaveUp.first?.contains("after 2 restarts within 20.0 seconds") == true, "\(gaveUp)")
        // Escalation `.ignore`: nothing is armed any more, and the host goes on.
        #expect(await eventually { rig.armedDeadlines == 0 })
        #expect(rig.host.state == .active)
        #expect(rig.status(Bystander.self, "serve")?.phase == .ready)
        try await rig.host.terminate()
    }

    /// How many attempts `CrashLoop` has made `seconds` after its first: each restart waits the backoff,
    /// 1 s doubling to at most 8 s.
    static func scheduledAttempts(after seconds: Int) -> Int {
        var attempts = 1
        var next = Duration.zero
        var delay = CrashLoop.backoff.initial
        while true {
            next += delay
            guard next <= .seconds(seconds) else { return attempts }
            attempts += 1
            delay = min(delay * 2, CrashLoop.backoff.maximum)
        }
    }

    @Test("A tight crash loop is bounded by its backoff: the attempts are exactly what the schedule gives")
    func crashLoopBoundedByBackoff() async throws {
        #expect(Self.scheduledAttempts(after: 0) == 1)
        #expect(Self.scheduledAttempts(after: 30) == 6)  // restarts at 1, 3, 7, 15, 23 s
        let rig = try workRig([CrashLoop.self])
        try await rig.host.launch()
        for second in 0...40 {
            if second > 0 { rig.clock.advance(by: .seconds(1)) }
            #expect(await settled(rig, armed: 1))
            let status = try #require(rig.status(CrashLoop.self, "crash"))
            #expect(status.attempts == Self.scheduledAttempts(after: second), "after \(second) s")
            #expect(status.phase == .restarting)
        }
        #expect(rig.recorder.entries == (1...Self.scheduledAttempts(after: 40)).map { "crash \($0)" })
        #expect(rig.host.state == .active)
        try await rig.host.terminate()
        #expect(rig.status(CrashLoop.self, "crash")?.phase == .stopped)
    }
}
