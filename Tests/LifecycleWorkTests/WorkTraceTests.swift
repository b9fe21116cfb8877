import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

/// One application work and one active work, each recording its start and stop.
private struct TracedServer: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func declareWork(_ work: inout WorkList<Self>) {
        let listener = untilShutdown("listener")
        let consumer = untilShutdown("consumer")
        work.run("listener") { module, context in try await listener(module, context) }
        work.run("consumer", .whileActive) { module, context in try await consumer(module, context) }
    }
}

@Suite("Work: in the journal and the launch trace")
struct WorkTraceTests {
    @Test("Each start and stop is a journal note, and an instant in the exported trace")
    func journalAndTrace() async throws {
        let (host, recorder) = try workHost([TracedServer.self], journal: 256)
        try await host.launch()
        #expect(await recorder.wait { $0.contains("listener start") && $0.contains("consumer start") })
        try await host.terminate()
        let journal = try #require(host.journal)
        let notes = journal.entries.compactMap { entry in entry.note.map { "\(entry.event) \($0)" } }
        let changes = journal.entries.filter { $0.note != nil }.map(\.event)
        #expect(notes.count == 4, "\(notes)")
        #expect(changes.filter { $0 == "workStarted" }.count == 2)
        #expect(changes.filter { $0 == "workStopped" }.count == 2)
        let trace = String(decoding: try journal.exportTrace(), as: UTF8.self)
        #expect(trace.contains("\"note\""))
        #expect(trace.contains("workStarted"))
        #expect(trace.contains("workStopped"))
    }
}
