import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
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
            configuration: .init(clock: VirtualClock(), onDelivery: onDelivery)
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

/// The journal during a delivery: the host keeps the calls of a delivery in progress until the journal
/// is read or written, which must not show.
@Suite("Journal during a delivery")
struct JournalDuringDeliveryTests {
    func host(capacity: Int = 1_024) throws -> (ApplicationHost, PeekBox) {
        let box = PeekBox()
        var options = LaunchOptions()
        options[ScriptKey.self] = Script()
        options[PeekBoxKey.self] = box
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Peek", [High.self, NormalA.self, JournalPeek.self]),
            launchOptions: options,
            configuration: .init(journalCapacity: capacity)
        )
        box.host.withLock { $0 = host }
        return (host, box)
    }

    @Test("A hook reading the journal sees the calls before it; a record it writes comes before its own call")
    func readAndWriteMidDelivery() async throws {
        let (host, box) = try host()
        try await host.launch()
        try await host.receiveMemoryWarning()
        #expect(box.seen.withLock { $0 } == ["didReceiveMemoryWarning High", "didReceiveMemoryWarning NormalA"])
        let warnings = try #require(host.journal).entries.suffix(4).map { "\($0.event) \(shortName($0.participant))" }
        #expect(
            warnings == [
                "didReceiveMemoryWarning High", "didReceiveMemoryWarning NormalA", "note JournalPeek",
                "didReceiveMemoryWarning JournalPeek",
            ]
        )
        let sequences = try #require(host.journal).entries.map(\.sequence)
        #expect(sequences == Array(sequences.indices))
    }

    @Test("A delivery longer than the journal keeps the last calls, numbered in order, and counts the rest")
    func longDelivery() async throws {
        let (host, _) = try host(capacity: 2)
        try await host.launch()
        // launch: willFinishLaunching ×2 (High, NormalA), didFinishLaunching ×2, didBecomeActive ×3
        try await host.receiveMemoryWarning()  // 3 calls, and the peek's note
        let journal = try #require(host.journal)
        #expect(
            journal.entries.map { "\($0.event) \(shortName($0.participant))" } == [
                "note JournalPeek", "didReceiveMemoryWarning JournalPeek",
            ]
        )
        let total = journal.entries.last.map { $0.sequence + 1 } ?? 0
        #expect(journal.entries.map(\.sequence) == [total - 2, total - 1])
        #expect(journal.droppedCount == total - 2)
    }
}

@Suite("Journal over many deliveries")
struct JournalManyDeliveriesTests {
    @Test("After hundreds of deliveries through a small journal, the kept entries name the right events")
    func manyDeliveries() async throws {
        let host = try makeHost([High.self, NormalA.self, Low.self], configuration: .init(journalCapacity: 5))
        try await host.launch()
        for round in 0..<100 {
            try await host.enterBackground()
            try await host.enterForeground()
            if round.isMultiple(of: 3) { try await host.receiveMemoryWarning() }
        }
        try await host.enterBackground()
        let journal = try #require(host.journal)
        // willResignActive and didEnterBackground run in reverse order: Low first.
        #expect(
            journal.entries.map { "\($0.event) \(shortName($0.participant))" } == [
                "willResignActive NormalA", "willResignActive High", "didEnterBackground Low",
                "didEnterBackground NormalA", "didEnterBackground High",
            ]
        )
        let last = try #require(journal.entries.last?.sequence)
        #expect(journal.entries.map(\.sequence) == Array((last - 4)...last))
        #expect(journal.droppedCount == last + 1 - 5)
    }
}

/// Where a hook finds its host.
final class PeekBox: Sendable {
    let host = Locked<ApplicationHost?>(nil)
    /// What the peek saw of the current event in the journal.
    let seen = Locked<[String]>([])
}

enum PeekBoxKey: LaunchOptionKey {
    static let defaultValue = PeekBox()
}

/// Last to receive memory warnings: reads the journal, then writes a record of its own into it.
struct JournalPeek: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .minimum
    let box: PeekBox
    init(context: LifecycleContext) { box = context.launchOptions[PeekBoxKey.self] }

    func didReceiveMemoryWarning(_ context: LifecycleContext) {
        guard let journal = box.host.withLock({ $0 })?.journal else { return }
        let current = journal.entries.filter { $0.event == "didReceiveMemoryWarning" }
        box.seen.withLock { $0 = current.map { "\($0.event) \(shortName($0.participant))" } }
        journal.record(
            DeliveryRecord(
                event: LifecycleEvent(custom: Note.self),
                participant: Participant(name: Self.moduleName, priority: Self.priority, id: 99),
                start: .now,
                duration: .zero,
                result: nil,
                error: nil
            )
        )
    }
}

struct Note: CustomEvent {
    static let name = "note"
}

@Suite("Journal with a warm-up after launch")
struct JournalConcurrentSourcesTests {
    @Test("A warm-up finishing during an event is journaled between that event's calls, where it happened")
    func warmUpDuringAnEvent() async throws {
        let log = StageLog()
        let box = PeekBox()
        var options = LaunchOptions()
        options[StageLogKey.self] = log
        options[ScriptKey.self] = Script()
        options[PeekBoxKey.self] = box
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Sources", [High.self, JournalOpener.self, Low.self, WarmSearch.self]),
            launchOptions: options,
            configuration: .init(didFinishLaunchingWaitsForWarmUp: false, clock: VirtualClock())
        )
        box.host.withLock { $0 = host }
        try await host.launch()  // WarmSearch holds its warm-up
        try await host.receiveMemoryWarning()  // the opener lets it finish, and waits to see it journaled
        try await host.waitUntilReady()
        let journal = try #require(host.journal)
        let rows = journal.entries.filter { ["didReceiveMemoryWarning", "warmUp"].contains($0.event) }
            .map { "\($0.event) \(shortName($0.participant))" }
        #expect(
            rows == [
                "didReceiveMemoryWarning High", "warmUp WarmSearch", "didReceiveMemoryWarning JournalOpener",
                "didReceiveMemoryWarning Low",
            ]
        )
        #expect(journal.entries.map(\.sequence) == Array(journal.entries.indices))
    }
}

/// Lets WarmSearch finish its warm-up from inside a memory warning, and returns once the journal shows it.
struct JournalOpener: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .normal
    let box: PeekBox
    let log: StageLog
    init(context: LifecycleContext) {
        box = context.launchOptions[PeekBoxKey.self]
        log = context.launchOptions[StageLogKey.self]
    }

    func didReceiveMemoryWarning(_ context: LifecycleContext) async {
        guard let journal = box.host.withLock({ $0 })?.journal else { return }
        log.latch("WarmSearch").open()
        for _ in 0..<100_000 {
            if journal.entries.contains(where: { $0.event == "warmUp" }) { return }
            await Task.yield()
        }
    }
}
