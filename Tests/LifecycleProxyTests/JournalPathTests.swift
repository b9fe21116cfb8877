import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// The host journals a supervised delivery itself when nothing but the journal listens, and through the
/// fan-out's observer when `onDelivery` listens too. Both must write the same journal.
@Suite("Journal paths")
struct JournalPathTests {
    /// The parts of an entry that do not depend on timing.
    struct Row: Equatable, CustomStringConvertible {
        let sequence: Int
        let event: String
        let participant: String
        let priority: Int?
        let result: Bool?
        let error: String?

        init(_ entry: DeliveryJournal.Entry) {
            sequence = entry.sequence
            event = entry.event
            participant = shortName(entry.participant)
            priority = entry.priority
            result = entry.result
            error = entry.error
        }

        var description: String {
            "\(sequence) \(event) \(participant) \(priority.map(String.init) ?? "-") \(result.map(String.init) ?? "-") "
                + (error ?? "-")
        }
    }

    /// Runs a whole lifecycle with a failure, Bool results, open-URL, a custom event and warm-up, and
    /// returns the journal.
    func lifecycle(onDelivery: DeliveryObserver?) async throws -> [Row] {
        let script = Script(
            answers: ["High willFinishLaunching": true, "Low openURL": true],
            failing: ["Low didBecomeActive", "High willTerminate"]
        )
        let log = StageLog()
        for name in ["WarmSearch", "WarmDatabase"] { log.latch(name).open() }
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        options[StageLogKey.self] = log
        options[AskAnswers.self] = ["A": true]
        let host = try ApplicationHost(
            manifest: ModuleManifest(
                name: "Journal",
                [Low.self, High.self, WarmSearch.self, WarmDatabase.self, AskerA.self, AskerB.self]
            ),
            delegate: Delegate(script: script),
            launchOptions: options,
            configuration: .init(onDelivery: onDelivery)
        )
        await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(try await host.open(URL(string: "app://journal")!))
        #expect(try await host.send(Ask()))
        try await host.send(Ping(id: 1))
        try await host.enterBackground()
        await #expect(throws: LifecycleError.self) { try await host.terminate() }
        let entries = try #require(host.journal).entries
        #expect(entries.allSatisfy { $0.durationMicroseconds >= 0 })
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.sequence + 1 == $1.sequence })
        return entries.map(Row.init)
    }

    @Test("Journaled by the host or through the observer: the same entries, in the same order")
    func samePaths() async throws {
        let direct = try await lifecycle(onDelivery: nil)
        let observed = try await lifecycle(onDelivery: { _ in })
        // Warm-up is concurrent: its entries are compared as a set.
        #expect(direct.count == observed.count)
        #expect(
            direct.filter { $0.event != "warmUp" }.map(\.description)
                == observed.filter { $0.event != "warmUp" }.map(\.description)
        )
        #expect(
            Set(direct.filter { $0.event == "warmUp" }.map(\.participant))
                == Set(observed.filter { $0.event == "warmUp" }.map(\.participant))
        )
        // What the journal must hold, whichever path wrote it.
        let lines = direct.filter { $0.event != "warmUp" }.map(\.description)
        #expect(lines.contains { $0.hasSuffix("willFinishLaunching High \(ModulePriority.high.rawValue) true -") })
        #expect(
            lines.contains {
                $0.hasSuffix("didBecomeActive Low \(ModulePriority.low.rawValue) - Low failed in didBecomeActive")
            }
        )
        #expect(lines.contains { $0.hasSuffix("openURL Low \(ModulePriority.low.rawValue) true -") })
        #expect(lines.contains { $0.hasSuffix("ask AskerA \(ModulePriority.high.rawValue) true -") })
        #expect(lines.contains { $0.hasSuffix("Ping AskerB \(ModulePriority.normal.rawValue) - -") })
        #expect(lines.contains { $0.hasSuffix("setup WarmSearch \(ModulePriority.high.rawValue) - -") })
        #expect(direct.filter { $0.event == "warmUp" }.count == 2)
    }
}
