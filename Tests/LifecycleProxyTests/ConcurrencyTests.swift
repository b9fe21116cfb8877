import LifecycleCore
import LifecycleProxy
import Synchronization
import Testing

/// Records, per module, the sequence of pings it received.
final class PingLog: Sendable {
    private let storage = Mutex<[String: [Int]]>([:])

    func record(_ module: String, _ id: Int) { storage.withLock { $0[module, default: []].append(id) } }

    var sequences: [String: [Int]] { storage.withLock { $0 } }
}

enum PingLogKey: LaunchOptionKey {
    static let defaultValue = PingLog()
}

protocol PingRecorder: LifecycleModule, CustomEventHandling {
    var log: PingLog { get }
}

extension PingRecorder {
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ping.self) { module, ping, _ in
            module.log.record(String(describing: Self.self), ping.id)
            await Task.yield()  // give other tasks every chance to interleave
        }
    }
}

struct PingFirst: PingRecorder {
    static let priority: ModulePriority = .high
    let log: PingLog
    init(context: LifecycleContext) { log = context.launchOptions[PingLogKey.self] }
}

struct PingSecond: PingRecorder {
    let log: PingLog
    init(context: LifecycleContext) { log = context.launchOptions[PingLogKey.self] }
}

struct PingThird: PingRecorder {
    static let priority: ModulePriority = .low
    let log: PingLog
    init(context: LifecycleContext) { log = context.launchOptions[PingLogKey.self] }
}

/// Posts a Ping from inside its memory-warning hook, then checks that nothing was nested.
struct Poster: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .high
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }

    func didReceiveMemoryWarning(_ context: LifecycleContext) {
        script.journal.record("didReceiveMemoryWarning Poster (posting)")
        context.events.post(Ping(id: 99))
        script.journal.record("didReceiveMemoryWarning Poster (posted)")
    }
}

/// Awaits a host method from inside its own hook: the mistake that would deadlock.
struct Reentrant: LifecycleModule, DidBecomeActive {
    let host: HostBox
    init(context: LifecycleContext) { host = context.launchOptions[HostBoxKey.self] }

    func didBecomeActive(_ context: LifecycleContext) async throws {
        guard let host = host.value.withLock({ $0 }) else { return }
        try await host.receiveMemoryWarning()
    }
}

/// Records each Ping in the script's journal, so it interleaves with the other deliveries.
struct PingJournal: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ping.self) { _, ping, context in
            context.launchOptions[ScriptKey.self].journal.record("Ping PingJournal \(ping.id)")
        }
    }
}

final class HostBox: Sendable {
    let value = Mutex<ApplicationHost?>(nil)
}

enum HostBoxKey: LaunchOptionKey {
    static let defaultValue = HostBox()
}

@Suite("Concurrency and queueing")
struct ConcurrencyTests {
    @Test("100 tasks emitting at once: every module sees every event exactly once, all in one global order")
    func concurrentEmittersShareOneOrder() async throws {
        let log = PingLog()
        var options = LaunchOptions()
        options[PingLogKey.self] = log
        let host = try ApplicationHost(
            manifest: ModuleManifest([PingThird.self, PingSecond.self, PingFirst.self]),
            launchOptions: options
        )
        try await host.launch()

        let tasks = 100
        let eventsPerTask = 10
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<eventsPerTask {
                        try await host.send(Ping(id: task * eventsPerTask + index))
                    }
                }
            }
            try await group.waitForAll()
        }

        let sequences = log.sequences
        #expect(sequences.count == 3)
        let reference = try #require(sequences["PingFirst"])
        #expect(reference.count == tasks * eventsPerTask)
        #expect(Set(reference) == Set(0..<(tasks * eventsPerTask)), "lost or duplicated events")
        #expect(sequences["PingSecond"] == reference)
        #expect(sequences["PingThird"] == reference)
        // Each task's own events keep the order that task emitted them in.
        for task in 0..<tasks {
            let mine = reference.filter { $0 / eventsPerTask == task }
            #expect(mine == mine.sorted())
        }
    }

    @Test("An event posted from inside a hook is delivered after the current event reaches everyone")
    func postedEventIsQueuedNotNested() async throws {
        let script = Script()
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        let host = try ApplicationHost(
            manifest: ModuleManifest([Poster.self, PingJournal.self, NormalA.self]),
            delegate: Delegate(script: script),
            launchOptions: options
        )
        try await host.launch()
        let launchEntries = script.journal.entries.count
        try await host.receiveMemoryWarning()
        try await host.waitUntilIdle()

        #expect(
            script.journal.entries.dropFirst(launchEntries) == [
                "didReceiveMemoryWarning Delegate",
                "didReceiveMemoryWarning Poster (posting)",
                "didReceiveMemoryWarning Poster (posted)",
                "didReceiveMemoryWarning NormalA",
                "Ping PingJournal 99",
            ]
        )
    }

    @Test("A posted event joins the queue behind requests emitted before it")
    func postedEventKeepsEmissionOrder() async throws {
        let script = Script()
        let log = PingLog()
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        options[PingLogKey.self] = log
        let host = try ApplicationHost(
            manifest: ModuleManifest([Poster.self, PingSecond.self]),
            launchOptions: options
        )
        try await host.launch()
        try await host.receiveMemoryWarning()
        // Emitted after the memory warning completed, so after Poster's Ping(99) was queued.
        try await host.send(Ping(id: 1))
        #expect(log.sequences["PingSecond"] == [99, 1])
    }

    @Test("Awaiting a host method inside its own hook throws reentrantCall instead of deadlocking")
    func reentrantAwaitIsRefused() async throws {
        let box = HostBox()
        var options = LaunchOptions()
        options[HostBoxKey.self] = box
        let host = try ApplicationHost(manifest: ModuleManifest([Reentrant.self]), launchOptions: options)
        box.value.withLock { $0 = host }

        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.code == .hookFailed)
        let inner = try #require(error?.failures.first?.error as? LifecycleError)
        #expect(inner.code == .reentrantCall)
        #expect(inner.eventInProgress == .didBecomeActive)
        #expect(inner.description.contains("context.events.post"))
        #expect(host.state == .active)
    }

    @Test("A posted request that fails is reported to onUnobservedError, not dropped")
    func postedFailureIsReported() async throws {
        let reported = Mutex<[LifecycleError]>([])
        let host = try makeHost(
            [NormalA.self],
            configuration: .init(onUnobservedError: { error in reported.withLock { $0.append(error) } })
        )
        host.context.events.post(.enterForeground)  // not allowed before launch
        try await host.waitUntilIdle()
        let errors = reported.withLock { $0 }
        #expect(errors.count == 1)
        #expect(errors.first?.code == .invalidTransition)
        #expect(errors.first?.request == .enterForeground)
    }
}
