import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// Records, per module, the sequence of pings it received.
final class PingLog: Sendable {
    private let storage = Locked<[String: [Int]]>([:])

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
    static let priority: ModulePriority = .normal
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
    static let priority: ModulePriority = .normal
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
    let value = Locked<ApplicationHost?>(nil)
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
        let reported = Locked<[LifecycleError]>([])
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

    @Test("A post through the context of a deallocated host is refused (and warned about), not queued forever")
    func postAfterHostIsGone() throws {
        var host: ApplicationHost? = try makeHost([NormalA.self])
        let context = try #require(host?.context)
        host = nil  // never launched, so no drain task holds it
        let mailbox = try #require(context.events.mailbox)
        #expect(mailbox.submit { _ in } == false)
    }

    @Test("Requests posted from a module initializer are processed once the host exists")
    func postFromInitializer() async throws {
        let reported = Locked<[LifecycleError]>([])
        var options = LaunchOptions()
        options[ScriptKey.self] = Script()
        let host = try ApplicationHost(
            manifest: ModuleManifest([EagerPoster.self]),
            launchOptions: options,
            configuration: .init(onUnobservedError: { error in reported.withLock { $0.append(error) } })
        )
        try await host.waitUntilIdle()
        // Posted before launch, so judged against `notRunning`: refused, and reported.
        #expect(reported.withLock { $0.map(\.request) } == [.memoryWarning])
    }

    @Test("Requests posted from many tasks at once are delivered in exactly the order they were queued")
    func postsKeepQueueOrder() async throws {
        let log = PingLog()
        var options = LaunchOptions()
        options[PingLogKey.self] = log
        let host = try ApplicationHost(
            manifest: ModuleManifest([PingFirst.self, PingThird.self]),
            launchOptions: options
        )
        try await host.launch()

        // Each poster queues its pings back to back without waiting, so many requests are pending at once;
        // a LIFO or unordered queue reverses or shuffles each poster's sequence.
        let posters = 16
        let perPoster = 200
        await withTaskGroup(of: Void.self) { group in
            for poster in 0..<posters {
                group.addTask {
                    for index in 0..<perPoster { host.context.events.post(Ping(id: poster * perPoster + index)) }
                }
            }
        }
        try await host.waitUntilIdle()

        let first = try #require(log.sequences["PingFirst"])
        #expect(first.count == posters * perPoster)
        #expect(log.sequences["PingThird"] == first)
        for poster in 0..<posters {
            let mine = first.filter { $0 / perPoster == poster }
            #expect(mine == Array((poster * perPoster)..<((poster + 1) * perPoster)))
        }
    }

    @Test("Deliveries never overlap: each event finishes at every participant before the next starts")
    func deliveriesDoNotOverlap() async throws {
        let journal = Journal()
        var options = LaunchOptions()
        options[OverlapJournalKey.self] = journal
        let host = try ApplicationHost(manifest: ModuleManifest([SlowPing.self]), launchOptions: options)
        try await host.launch()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<50 {
                group.addTask { try await host.send(Ping(id: id)) }
            }
            try await group.waitForAll()
        }
        let entries = journal.entries
        #expect(entries.count == 100)
        for pair in stride(from: 0, to: entries.count, by: 2) {
            let start = entries[pair]
            #expect(start.hasPrefix("start "))
            #expect(entries[pair + 1] == start.replacingOccurrences(of: "start", with: "end"))
        }
    }

    @Test("waitUntilIdle also waits for requests that hooks of earlier requests post")
    func waitUntilIdleCoversHookPosts() async throws {
        let script = Script()
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        let host = try ApplicationHost(
            manifest: ModuleManifest([Poster.self, PingJournal.self]),
            launchOptions: options
        )
        try await host.launch()
        host.context.events.post(.memoryWarning)  // its hook posts Ping(99) later, behind the wait below
        try await host.waitUntilIdle()
        #expect(script.journal.entries.last == "Ping PingJournal 99")
    }

    @Test("A task a hook spawns may await the host once the hook's request has finished")
    func spawnedTaskIsNotReentrant() async throws {
        let record = SpawnRecord()
        var options = LaunchOptions()
        options[SpawnRecordKey.self] = record
        let host = try ApplicationHost(manifest: ModuleManifest([Spawner.self]), launchOptions: options)
        record.host.value.withLock { $0 = host }
        try await host.launch()
        record.gate.open()
        for _ in 0..<1_000 where record.entries.count < 2 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(record.entries == ["memory warning delivered", "awaited"])
    }

    @Test("Cancelling a waiting caller throws `cancelled` at once; the request is still delivered")
    func cancellationStopsWaitingOnly() async throws {
        let gate = Gate()
        var options = LaunchOptions()
        options[GateKey.self] = gate
        let host = try ApplicationHost(manifest: ModuleManifest([GatedTerminate.self]), launchOptions: options)
        try await host.launch()
        let waiter = Task { try await host.terminate() }
        await gate.waitUntilEntered()
        waiter.cancel()
        let result = await waiter.result
        #expect(throws: LifecycleError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error as LifecycleError) = result { #expect(error.code == .cancelled) }
        gate.open()
        try await host.waitUntilIdle()
        #expect(host.state == .terminated)
    }

    @Test("Posting a refused custom request back is a typed invalidRequest, not a silent no-op")
    func postingCustomRequestIsInvalid() async throws {
        let reported = Locked<[LifecycleError]>([])
        let host = try makeHost(
            [NormalA.self],
            configuration: .init(onUnobservedError: { error in reported.withLock { $0.append(error) } })
        )
        let refused = await #expect(throws: LifecycleError.self) { try await host.send(Ping(id: 1)) }
        host.context.events.post(try #require(refused?.request))
        try await host.waitUntilIdle()
        #expect(reported.withLock { $0.map(\.code) } == [.invalidRequest])
    }

    @Test("Posted transitions are processed in order, like awaited ones")
    func postedTransitions() async throws {
        let script = Script()
        let host = try makeHost([NormalA.self], script: script)
        host.context.events.post(.launch)
        host.context.events.post(.enterBackground)
        host.context.events.post(.enterForeground)
        try await host.waitUntilIdle()
        #expect(host.state == .active)
        #expect(script.journal.receivers(of: "didEnterBackground") == ["NormalA"])
        #expect(script.journal.receivers(of: "willEnterForeground") == ["NormalA"])
    }
}

/// Posts a memory warning from its initializer, before the host has launched.
struct EagerPoster: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) { context.events.post(.memoryWarning) }
}

/// Records start and end of every Ping around a suspension point.
struct SlowPing: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(Ping.self) { _, ping, context in
            let journal = context.launchOptions[OverlapJournalKey.self]
            journal.record("start \(ping.id)")
            await Task.yield()
            journal.record("end \(ping.id)")
        }
    }
}

enum OverlapJournalKey: LaunchOptionKey {
    static let defaultValue = Journal()
}

final class SpawnRecord: Sendable {
    let host = HostBox()
    let gate = Gate()
    private let log = Locked<[String]>([])
    func record(_ text: String) { log.withLock { $0.append(text) } }
    var entries: [String] { log.withLock { $0 } }
}

enum SpawnRecordKey: LaunchOptionKey {
    static let defaultValue = SpawnRecord()
}

/// Spawns a task from `didBecomeActive` that later awaits the host — the way a server module starts a
/// long-running task that ends the application when it finishes. The task inherits the hook's task-locals.
struct Spawner: LifecycleModule, DidBecomeActive, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .normal
    let record: SpawnRecord
    init(context: LifecycleContext) { record = context.launchOptions[SpawnRecordKey.self] }

    func didBecomeActive(_ context: LifecycleContext) {
        let record = self.record
        Task {
            await record.gate.enter()  // opened by the test once launch() has returned
            guard let host = record.host.value.withLock({ $0 }) else { return }
            do {
                try await host.receiveMemoryWarning()
                record.record("awaited")
            } catch {
                record.record("threw \((error as? LifecycleError)?.code.description ?? "\(error)")")
            }
        }
    }

    func didReceiveMemoryWarning(_ context: LifecycleContext) {
        record.record("memory warning delivered")
    }
}

/// Blocks `willTerminate` until the test opens the gate.
final class Gate: Sendable {
    private let state = Locked<(entered: Bool, open: Bool)>((false, false))

    func enter() async {
        state.withLock { $0.entered = true }
        while !state.withLock({ $0.open }) { try? await Task.sleep(for: .milliseconds(1)) }
    }

    func waitUntilEntered() async {
        while !state.withLock({ $0.entered }) { try? await Task.sleep(for: .milliseconds(1)) }
    }

    func open() { state.withLock { $0.open = true } }
}

enum GateKey: LaunchOptionKey {
    static let defaultValue = Gate()
}

struct GatedTerminate: LifecycleModule, WillTerminate {
    static let priority: ModulePriority = .normal
    let gate: Gate
    init(context: LifecycleContext) { gate = context.launchOptions[GateKey.self] }
    func willTerminate(_ context: LifecycleContext) async { await gate.enter() }
}
