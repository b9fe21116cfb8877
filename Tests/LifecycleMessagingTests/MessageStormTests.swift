import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import Synchronization
import Testing

/// Asks a module its name, and counts the asking in the module's tally.
struct StormHit: Message {
    typealias Reply = String
}

/// What the storm's two modules counted: each delivery of ``StormHit`` they handled.
final class StormTallies: Sendable {
    let anchor = Atomic<Int>(0)
    let churner = Atomic<Int>(0)

    /// Counts a delivery to the module called `name`.
    func count(_ name: String) {
        if name == StormAnchor.name {
            anchor.add(1, ordering: .relaxed)
        } else {
            churner.add(1, ordering: .relaxed)
        }
    }
}

/// How many of the storm's disturbances (the churn, the moves) are still running.
final class StormDisturbances: Sendable {
    let running = Atomic(2)
    var done: Bool { running.load(ordering: .acquiring) == 0 }
    func finish() { running.subtract(1, ordering: .releasing) }
}

enum StormTalliesKey: LaunchOptionKey {
    static let defaultValue = StormTallies()
}

/// A storm module: answers ``StormHit`` with its name, counting each delivery in its tally.
protocol StormModule: MessageReceiving {
    static var name: String { get }
    var tallies: StormTallies { get }
}

extension StormModule {
    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(StormHit.self) { module, _, _ in
            module.tallies.count(Self.name)
            return Self.name
        }
    }
}

/// In the host from launch to terminate.
struct StormAnchor: StormModule {
    static let priority: ModulePriority = .normal
    static let name = "anchor"
    let tallies: StormTallies
    init(context: LifecycleContext) { tallies = context.launchOptions[StormTalliesKey.self] }
}

/// Registered and removed again and again while the storm runs.
struct StormChurner: StormModule {
    static let priority: ModulePriority = .high
    static let name = "churner"
    let tallies: StormTallies
    init(context: LifecycleContext) { tallies = context.launchOptions[StormTalliesKey.self] }
}

/// What one sending task saw.
struct StormSenderReport: Sendable {
    var rounds = 0
    var anchorSends = 0
    var churnerSends = 0
    var churnerRefusals = 0
    var broadcasts = 0
    var churnerInBroadcasts = 0
    var unexpected: [String] = []
}

@Suite("Messages: a storm under load", .timeLimit(.minutes(1)))
struct MessageStormTests {
    static let senders = 8
    /// Each sender sends until the churn and the moves are done, and at least this many rounds.
    static let minimumRounds = 100
    static let churns = 100
    static let moves = 50

    @Test(
        """
        Sends and broadcasts from 8 tasks while a receiver is registered and removed 100 times and the host moves \
        50 times: each delivery is counted once, by the receiver and by the sender, and the only refusal is noReceiver
        """
    )
    func stormUnderChurn() async throws {
        let tallies = StormTallies()
        var options = LaunchOptions()
        options[StormTalliesKey.self] = tallies
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Storm", [StormAnchor.self]).withMessages(),
            launchOptions: options,
            configuration: .init(hookBudget: nil, terminateDeadline: nil, journalCapacity: 0)
        )
        try await host.launch()

        let disturbances = StormDisturbances()
        let reports = try await withThrowingTaskGroup(of: StormSenderReport?.self) { group in
            for _ in 0..<Self.senders {
                group.addTask { await Self.send(through: host.context.messages, until: disturbances) }
            }
            group.addTask {
                defer { disturbances.finish() }
                for _ in 0..<Self.churns {
                    _ = try await host.register(StormChurner.self)
                    _ = try await host.remove(StormChurner.self)
                }
                return nil
            }
            group.addTask {
                defer { disturbances.finish() }
                for _ in 0..<Self.moves {
                    try await host.enterBackground()
                    try await host.enterForeground()
                }
                return nil
            }
            return try await group.reduce(into: [StormSenderReport]()) { if let report = $1 { $0.append(report) } }
        }
        try await host.waitUntilIdle()
        #expect(host.state == .active)
        #expect(host.participant(for: StormChurner.self) == nil)
        try await host.terminate()

        #expect(reports.count == Self.senders)
        #expect(reports.flatMap(\.unexpected) == [])
        let total = { (field: KeyPath<StormSenderReport, Int>) in reports.map { $0[keyPath: field] }.reduce(0, +) }
        #expect(reports.allSatisfy { $0.rounds >= Self.minimumRounds })
        #expect(total(\.anchorSends) == total(\.rounds))
        #expect(total(\.broadcasts) == total(\.rounds))
        #expect(total(\.churnerSends) + total(\.churnerRefusals) == total(\.rounds))
        // Nothing lost, nothing repeated: every delivery a module counted is one a sender was told of.
        #expect(tallies.anchor.load(ordering: .relaxed) == total(\.anchorSends) + total(\.broadcasts))
        #expect(tallies.churner.load(ordering: .relaxed) == total(\.churnerSends) + total(\.churnerInBroadcasts))
        // The storm reached the churner while it was in, and met its absence too: both paths ran.
        #expect(total(\.churnerSends) + total(\.churnerInBroadcasts) > 0)
        #expect(total(\.churnerRefusals) > 0)
    }

    /// One sending task: per round, a send to the anchor, a send to the churner, and a broadcast; until
    /// `disturbances` are done, and at least ``minimumRounds`` rounds.
    static func send(through messages: Messenger, until disturbances: StormDisturbances) async -> StormSenderReport {
        var report = StormSenderReport()
        while report.rounds < minimumRounds || !disturbances.done {
            report.rounds += 1
            await Task.yield()  // lets the churn and the moves interleave with the sends
            do {
                let reply = try await messages.send(StormHit(), to: StormAnchor.self)
                if reply == "anchor" { report.anchorSends += 1 } else { report.unexpected.append("anchor: \(reply)") }
            } catch {
                report.unexpected.append("send to the anchor: \(error)")
            }
            do {
                let reply = try await messages.send(StormHit(), to: StormChurner.self)
                if reply == "churner" {
                    report.churnerSends += 1
                } else {
                    report.unexpected.append("churner: \(reply)")
                }
            } catch {
                // `send` throws only `MessageError`; while the churner is out, a send is refused as `noReceiver`.
                if error.code == .noReceiver {
                    report.churnerRefusals += 1
                } else {
                    report.unexpected.append("send to the churner: \(error)")
                }
            }
            do {
                let replies = try await messages.broadcast(StormHit(), combining: .collect)
                report.broadcasts += 1
                if replies.filter({ $0 == "anchor" }).count != 1 { report.unexpected.append("broadcast: \(replies)") }
                let churner = replies.filter { $0 == "churner" }.count
                if churner > 1 { report.unexpected.append("broadcast: \(replies)") }
                report.churnerInBroadcasts += churner
            } catch {
                report.unexpected.append("broadcast: \(error)")
            }
        }
        return report
    }
}
