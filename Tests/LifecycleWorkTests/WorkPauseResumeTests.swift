import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// Active work under rapid background/foreground and resign/become-active toggling: no transition lost,
// no start without its stop, and the status follows the application's state.

/// Active work that records each start and stop, and application work that must not notice the toggling.
struct Toggler: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("pulse", .whileActive) { _, context in
            context.recorder.record("start")
            await context.gracefulShutdown()
            context.recorder.record("stop")
        }
        work.run("steady") { _, context in
            await context.gracefulShutdown()
            context.recorder.record("steady stop")
        }
    }
}

@Suite("Work: pause and resume under rapid toggling")
struct WorkPauseResumeTests {
    /// The pulse's lines: `start` and `stop`.
    func pulse(_ rig: WorkRig) -> [String] { rig.recorder.entries.filter { $0 == "start" || $0 == "stop" } }

    /// Every start is followed by its stop before the next start.
    func alternates(_ lines: [String]) -> Bool {
        lines.enumerated().allSatisfy { index, line in line == (index.isMultiple(of: 2) ? "start" : "stop") }
    }

    @Test("200 background/foreground toggles: starts and stops alternate, none lost, status follows the state")
    func backgroundForegroundToggling() async throws {
        let rig = try workRig([Toggler.self])
        try await rig.host.launch()
        for round in 1...200 {
            try await rig.host.enterBackground()
            // Leaving the active state waits for the work's stop: every start so far has its stop.
            let lines = pulse(rig)
            #expect(lines.count == 2 * round, "round \(round): \(lines.suffix(4))")
            #expect(lines.last == "stop")
            #expect(rig.status(Toggler.self, "pulse")?.phase == .stopped)
            try await rig.host.enterForeground()
        }
        #expect(await rig.recorder.wait { $0.filter { $0 == "start" }.count == 201 })
        #expect(await rig.wait(Toggler.self, "pulse") { $0.phase == .ready && $0.attempts == 1 })
        #expect(alternates(pulse(rig)))
        #expect(pulse(rig).count == 401)
        #expect(rig.status(Toggler.self, "steady").map { $0.phase == .ready && $0.attempts == 1 } == true)
        try await rig.host.enterBackground()
        #expect(rig.status(Toggler.self, "pulse")?.phase == .stopped)
        try await rig.host.terminate()
        #expect(alternates(pulse(rig)))
        #expect(pulse(rig).count == 402)
        #expect(rig.recorder.count("steady stop") == 1)
    }

    @Test("200 resign/become-active toggles, ending inactive then active again")
    func resignBecomeActiveToggling() async throws {
        let rig = try workRig([Toggler.self])
        try await rig.host.launch()
        for _ in 1...200 {
            try await rig.host.resignActive()
            #expect(pulse(rig).last == "stop")
            try await rig.host.becomeActive()
        }
        try await rig.host.resignActive()
        #expect(rig.status(Toggler.self, "pulse")?.phase == .stopped)
        #expect(pulse(rig).count == 402)
        #expect(alternates(pulse(rig)))
        try await rig.host.becomeActive()
        #expect(await rig.wait(Toggler.self, "pulse") { $0.phase == .ready })
        try await rig.host.terminate()
        #expect(pulse(rig).count == 404)
        #expect(alternates(pulse(rig)))
    }

    @Test("Toggles posted back to back, without awaiting each, lose no transition either")
    func postedToggling() async throws {
        let rig = try workRig([Toggler.self])
        try await rig.host.launch()
        for _ in 1...100 {
            rig.host.context.events.post(.enterBackground)
            rig.host.context.events.post(.enterForeground)
        }
        try await rig.host.waitUntilIdle()
        #expect(await rig.recorder.wait { $0.filter { $0 == "start" }.count == 101 })
        #expect(await rig.wait(Toggler.self, "pulse") { $0.phase == .ready })
        #expect(alternates(pulse(rig)))
        #expect(rig.unobserved.all.isEmpty)
        try await rig.host.terminate()
        #expect(pulse(rig).count == 202)
        #expect(alternates(pulse(rig)))
    }
}
