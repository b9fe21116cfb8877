import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

@Suite("Delivery journal")
struct JournalTests {
    @Test("Every delivery is recorded in order: event, participant, priority, result and error")
    func journalContents() async throws {
        let script = Script(answers: ["High willFinishLaunching": true], failing: ["Low didBecomeActive"])
        let host = try makeHost([Low.self, High.self], delegate: true, script: script)
        await #expect(throws: LifecycleError.self) { try await host.launch() }
        let entries = try #require(host.journal).entries
        #expect(
            entries.map { "\($0.event) \(shortName($0.participant))" } == [
                "willFinishLaunching Delegate", "willFinishLaunching High", "willFinishLaunching Low",
                "didFinishLaunching Delegate", "didFinishLaunching High", "didFinishLaunching Low",
                "didBecomeActive Delegate", "didBecomeActive High", "didBecomeActive Low",
            ]
        )
        #expect(entries.map(\.sequence) == Array(0..<9))
        #expect(entries[1].result == true)
        #expect(entries[1].priority == ModulePriority.high.rawValue)
        #expect(entries[0].priority == nil)
        #expect(entries[6].result == nil, "didBecomeActive has no result")
        #expect(entries[8].error == "Low failed in didBecomeActive")
        #expect(entries.allSatisfy { $0.durationMicroseconds >= 0 })
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.startMicroseconds <= $1.startMicroseconds })
    }

    @Test("The journal is bounded: the oldest entries are dropped and counted")
    func bounded() async throws {
        let host = try makeHost([NormalA.self], configuration: .init(journalCapacity: 4))
        try await host.launch()  // 3 deliveries
        try await host.enterBackground()  // 2
        try await host.enterForeground()  // 2
        let journal = try #require(host.journal)
        #expect(journal.entries.map(\.sequence) == [3, 4, 5, 6])
        #expect(
            journal.entries.map(\.event) == [
                "willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive",
            ]
        )
        #expect(journal.droppedCount == 3)
    }

    @Test("Capacity 0 turns the journal off")
    func off() throws {
        #expect(try makeHost([NormalA.self], configuration: .init(journalCapacity: 0)).journal == nil)
    }

    @Test("The journal exports as JSON that reads back to the same entries")
    func jsonExport() async throws {
        let host = try makeHost([NormalA.self])
        try await host.launch()
        let journal = try #require(host.journal)
        struct Document: Decodable {
            let capacity: Int
            let dropped: Int
            let entries: [DeliveryJournal.Entry]
        }
        let document = try JSONDecoder().decode(Document.self, from: journal.exportJSON())
        #expect(document.capacity == 1_024)
        #expect(document.dropped == 0)
        #expect(document.entries == journal.entries)
    }

    @Test("The profile sums time per participant over the chosen events, slowest first")
    func profileSlowestFirst() {
        let journal = DeliveryJournal(capacity: 16)
        let start = ContinuousClock.now
        func record(_ event: LifecycleEvent, _ name: String, _ microseconds: Int64, failed: Bool = false) {
            journal.record(
                DeliveryRecord(
                    event: event,
                    participant: Participant(name: name, priority: .normal, id: 0),
                    start: start,
                    duration: .microseconds(microseconds),
                    result: nil,
                    error: failed ? FixtureFailure(participant: name, event: "x") : nil
                )
            )
        }
        record(.willFinishLaunching, "Fast", 5)
        record(.willFinishLaunching, "Slow", 300)
        record(.didFinishLaunching, "Fast", 10)
        record(.didFinishLaunching, "Middle", 100, failed: true)
        record(.didBecomeActive, "Fast", 1_000)  // not a launch event

        let launch = journal.profile(for: [.willFinishLaunching, .didFinishLaunching])
        #expect(launch.map(\.participant) == ["Slow", "Middle", "Fast"])
        #expect(launch.map(\.total) == [.microseconds(300), .microseconds(100), .microseconds(15)])
        #expect(launch.map(\.calls) == [1, 1, 2])
        #expect(launch.map(\.failures) == [0, 1, 0])
        #expect(journal.profile().first?.participant == "Fast", "all events: Fast has 1015 µs")
    }
}
