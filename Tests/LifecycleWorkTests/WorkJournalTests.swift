import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// The journal notes every start, readiness, failure, restart, escalation and stop of a work.

/// `flaky` throws on its first attempt and reports ready on its second; `brittle` throws and gives up.
struct Chronicled: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(restart: .permanent, backoff: .none)
        work.run("flaky", policy: policy, reportsReadiness: true) { _, context in
            if context.attempt == 1 { throw WorkFailure(label: "flaky") }
            context.reportReady()
            await context.gracefulShutdown()
        }
        work.run("brittle", policy: WorkPolicy(restart: .temporary, escalation: .ignore)) { _, context in
            _ = await context.pass("brittle fails")
            throw WorkFailure(label: "brittle")
        }
    }
}

@Suite("Work: the journal")
struct WorkJournalTests {
    @Test("Each start, failure, restart, readiness, escalation and stop is a journal note of the module")
    func notes() async throws {
        let rig = try workRig([Chronicled.self], journal: 256)
        try await rig.host.launch()
        #expect(await rig.wait(Chronicled.self, "flaky") { $0.phase == .ready && $0.attempts == 2 })
        rig.gates.open("brittle fails")
        #expect(await rig.wait(Chronicled.self, "brittle") { $0.phase == .gaveUp })
        try await rig.host.terminate()

        let entries = (rig.host.journal?.entries ?? []).filter { $0.event.hasPrefix("work") }
        #expect(entries.allSatisfy { $0.participant == Chronicled.moduleName })
        func notes(_ work: String) -> [String] {
            entries.filter { $0.note?.hasPrefix(work) == true }.map { "\($0.event) \($0.note ?? "")" }
        }
        let flaky = notes("flaky")
        #expect(flaky.count == 6, "\(flaky)")
        #expect(
            flaky.map { $0.prefix { $0 != " " } } == [
                "workStarted", "workFailed", "workRestarting", "workRestarted", "workReady", "workStopped",
            ]
        )
        #expect(flaky[0] == "workStarted flaky")
        #expect(flaky[1] == "workFailed flaky: flaky failed")
        #expect(flaky[2].hasPrefix("workRestarting flaky: in "))
        #expect(flaky[3] == "workRestarted flaky: attempt 2")
        #expect(flaky[4] == "workReady flaky")
        #expect(flaky[5] == "workStopped flaky")
        let brittle = notes("brittle")
        #expect(brittle.map { $0.prefix { $0 != " " } } == ["workStarted", "workFailed", "workGaveUp"], "\(brittle)")
        #expect(brittle.last?.contains(".temporary") == true)
        // Notes are not hook calls: no duration, no error.
        #expect(entries.allSatisfy { $0.error == nil && $0.durationMicroseconds == 0 })
    }
}
