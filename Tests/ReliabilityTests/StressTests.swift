import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// One event of the stress run. Ids below ``StressEvent/followUpBase`` come from the emitting tasks; a
/// hook answers every tenth of those by posting `followUpBase + id` from inside its hook.
struct StressEvent: CustomEvent {
    typealias Result = Bool
    static let followUpBase = 1_000_000
    let id: Int
}

/// What every stress module received, in order, per module.
final class StressLog: Sendable {
    private let storage = Locked<[String: [Int]]>([:])

    func record(_ module: String, _ id: Int) { storage.withLock { $0[module, default: []].append(id) } }

    var sequences: [String: [Int]] { storage.withLock { $0 } }
}

enum StressLogKey: LaunchOptionKey {
    static let defaultValue = StressLog()
}

protocol StressModule: LifecycleModule, CustomEventHandling, DidReceiveMemoryWarning {
    var log: StressLog { get }
    /// Whether this module posts the follow-ups.
    static var postsFollowUps: Bool { get }
}

extension StressModule {
    static var postsFollowUps: Bool { false }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(StressEvent.self) { module, event, context in
            module.log.record(String(describing: Self.self), event.id)
            if Self.postsFollowUps, event.id < StressEvent.followUpBase, event.id % 10 == 0 {
                context.events.post(StressEvent(id: StressEvent.followUpBase + event.id))
            }
            if event.id % 7 == 0 { await Task.yield() }  // let the emitters interleave with delivery
            return event.id % 2 == 0
        }
    }

    func didReceiveMemoryWarning(_ context: LifecycleContext) {
        log.record(String(describing: Self.self), -1)
    }
}

struct StressHigh: StressModule {
    static let priority: ModulePriority = .high
    static let postsFollowUps = true
    let log: StressLog
    init(context: LifecycleContext) { log = context.launchOptions[StressLogKey.self] }
}

struct StressNormal: StressModule {
    static let priority: ModulePriority = .normal
    let log: StressLog
    init(context: LifecycleContext) { log = context.launchOptions[StressLogKey.self] }
}

struct StressLow: StressModule, DependentModule {
    static let priority: ModulePriority = .low
    static let dependencies: [any LifecycleModule.Type] = [StressNormal.self]
    let log: StressLog
    init(context: LifecycleContext) { log = context.launchOptions[StressLogKey.self] }
}

@Suite("Concurrency stress", .timeLimit(.minutes(2)))
struct StressTests {
    static let emitters = 16
    static let eventsPerEmitter = 625  // 16 × 625 = 10,000

    @Test(
        "16 tasks emit 10,000 events while hooks emit more: every module sees each exactly once, in one order",
        arguments: [true, false]
    )
    func everyEventOnceInOneOrder(supervised: Bool) async throws {
        let log = StressLog()
        var options = LaunchOptions()
        options[StressLogKey.self] = log
        // Supervised: every hook under a budget, so each event also runs the watchdog path.
        let configuration = ApplicationHost.Configuration(
            hookBudget: supervised ? .seconds(30) : nil,
            terminateDeadline: supervised ? .seconds(60) : nil,
            journalCapacity: supervised ? 1_024 : 0
        )
        let host = try ApplicationHost(
            manifest: ModuleManifest([StressLow.self, StressNormal.self, StressHigh.self]),
            launchOptions: options,
            configuration: configuration
        )
        try await host.launch()

        let start = ContinuousClock.now
        // Each emitter awaits its own sends in order; one in eight of its requests is a memory warning.
        let results = try await withThrowingTaskGroup(of: (emitter: Int, sent: [Int], warnings: Int).self) { group in
            for emitter in 0..<Self.emitters {
                group.addTask {
                    var sent: [Int] = []
                    var warnings = 0
                    for step in 0..<Self.eventsPerEmitter {
                        let id = emitter * Self.eventsPerEmitter + step
                        if step % 8 == 7 {
                            try await host.receiveMemoryWarning()
                            warnings += 1
                        }
                        let answer = try await host.send(StressEvent(id: id))
                        #expect(answer == (id % 2 == 0))  // OR of three equal answers
                        sent.append(id)
                    }
                    return (emitter, sent, warnings)
                }
            }
            var all: [(emitter: Int, sent: [Int], warnings: Int)] = []
            for try await result in group { all.append(result) }
            return all
        }
        try await host.waitUntilIdle()
        let elapsed = ContinuousClock.now - start
        try await host.terminate()

        let emitted = results.flatMap(\.sent)
        let warnings = results.map(\.warnings).reduce(0, +)
        #expect(emitted.count == 10_000)
        let followUps = emitted.filter { $0 % 10 == 0 }.map { StressEvent.followUpBase + $0 }
        let expected = Set(emitted + followUps)

        let sequences = log.sequences
        #expect(sequences.count == 3)
        let reference = try #require(sequences["StressHigh"])
        for (module, sequence) in sequences {
            // One global order, shared by every module.
            #expect(sequence == reference, "\(module) saw a different order than StressHigh")
            let ids = sequence.filter { $0 >= 0 }
            // Exactly once: nothing lost, nothing duplicated.
            #expect(ids.count == expected.count, "\(module): \(ids.count) deliveries for \(expected.count) events")
            #expect(Set(ids) == expected, "\(module) lost or invented events")
            #expect(sequence.count(where: { $0 == -1 }) == warnings)
        }
        // Each emitter's events arrive in the order it emitted them, and every follow-up after its cause.
        let position = Dictionary(
            uniqueKeysWithValues: reference.enumerated().filter { $0.element >= 0 }.map {
                ($0.element, $0.offset)
            }
        )
        for result in results {
            let positions = result.sent.compactMap { position[$0] }
            #expect(positions == positions.sorted(), "emitter \(result.emitter) was reordered")
        }
        for followUp in followUps {
            let cause = followUp - StressEvent.followUpBase
            #expect((position[cause] ?? .max) < (position[followUp] ?? .min))
        }
        let delivered = reference.count * sequences.count
        print(
            "reliability: stress supervised=\(supervised) delivered \(delivered) hook calls "
                + "(\(expected.count) events + \(warnings) memory warnings × 3 modules) in \(elapsed)"
        )
    }
}
