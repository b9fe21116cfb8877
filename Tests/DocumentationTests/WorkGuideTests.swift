import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Synchronization
import Testing

// The examples of Docs/Work.md and the LifecycleWork DocC catalog, compiled and exercised.

/// Jobs for the examples: a queue whose `next()` waits, and which a handler can wake empty-handed.
final class JobQueue: Sendable {
    private let state = Mutex<(jobs: [String], waiter: CheckedContinuation<String?, Never>?)>(([], nil))
    private let done = Mutex<[String]>([])

    func add(_ job: String) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.jobs.append(job)
                return nil as CheckedContinuation<String?, Never>?
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: job)
    }

    /// The next job, or `nil` once `wake()` is called with no job waiting.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let job: String?? = state.withLock { state in
                guard state.jobs.isEmpty else { return .some(state.jobs.removeFirst()) }
                state.waiter = continuation
                return nil
            }
            if let job { continuation.resume(returning: job) }
        }
    }

    func wake() {
        state.withLock { state in
            defer { state.waiter = nil }
            return state.waiter
        }?.resume(returning: nil)
    }

    func process(_ job: String) { done.withLock { $0.append(job) } }
    var processed: [String] { done.withLock { $0 } }
}

enum JobQueueKey: LaunchOptionKey {
    static let defaultValue = JobQueue()
}

// README: a module that owns work
struct QueueConsumer: WorkingModule {
    static let priority: ModulePriority = .normal
    let queue: JobQueue

    init(context: LifecycleContext) { queue = context.launchOptions[JobQueueKey.self] }

    static func declareWork(_ work: inout WorkList<Self>) {
        // While the application is active: stopped before willResignActive, started again after
        // didBecomeActive. The queue keeps what arrives in the background.
        work.run("consume", .whileActive) { module, context in
            await context.withGracefulShutdownHandler {
                while let job = await module.queue.next() {
                    module.queue.process(job)
                }
            } onGracefulShutdown: {
                module.queue.wake()  // `next()` returns nil: the loop ends, the work returns
            }
        }
    }
}
// README: end

/// What the listener example binds: a stand-in for a real socket.
final class Socket: Sendable {
    private let open = Mutex(false)
    static func bind(port: Int) async throws -> Socket {
        let socket = Socket()
        socket.open.withLock { $0 = true }
        return socket
    }
    func close() async { open.withLock { $0 = false } }
    var isOpen: Bool { open.withLock { $0 } }
}

// README: work that reports readiness
struct Listener: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("listen", reportsReadiness: true) { module, context in
            let socket = try await Socket.bind(port: 8080)
            context.reportReady()  // waitUntilReady(), the readiness endpoint and READY=1 waited for this
            await context.gracefulShutdown()
            await socket.close()
        }
    }
}
// README: end

/// Something the refresher example refreshes: it fails when told to.
final class Catalog: Sendable {
    private let failures = Mutex(0)
    private let refreshes = Mutex(0)
    func failNext(_ count: Int) { failures.withLock { $0 = count } }
    func refresh() async throws {
        refreshes.withLock { $0 += 1 }
        let fails = failures.withLock { failures in
            defer { failures = max(0, failures - 1) }
            return failures > 0
        }
        if fails { throw CatalogUnavailable() }
    }
    var refreshCount: Int { refreshes.withLock { $0 } }
}

struct CatalogUnavailable: Error {}

enum CatalogKey: LaunchOptionKey {
    static let defaultValue = Catalog()
}

// README: a restart policy
struct CatalogRefresher: WorkingModule {
    static let priority: ModulePriority = .normal
    let catalog: Catalog

    init(context: LifecycleContext) { catalog = context.launchOptions[CatalogKey.self] }

    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(
            restart: .permanent,  // restarted whether it returns or throws
            intensity: .init(maxRestarts: 5, within: .seconds(60)),
            backoff: .init(initial: .seconds(1), maximum: .seconds(30), jitter: 0),
            escalation: .quarantineModule,  // past 5 restarts a minute, the module is quarantined
            gracePeriod: .seconds(2)
        )
        work.run("refresh", policy: policy) { module, context in
            try await module.catalog.refresh()  // a throw restarts it after the backoff
            await context.gracefulShutdown()
        }
    }
}
// README: end

@Suite("Docs/Work.md")
struct WorkGuideTests {
    @Test("The queue consumer takes jobs while active and leaves them waiting in the background")
    func queueConsumer() async throws {
        let queue = JobQueue()
        var options = LaunchOptions()
        options[JobQueueKey.self] = queue
        // README: enable work
        let manifest = ModuleManifest(name: "App", [QueueConsumer.self]).withWork(stopOrder: .dependentsFirst)
        // README: end
        let host = try ApplicationHost(manifest: manifest, launchOptions: options)
        try await host.launch()
        queue.add("a")
        #expect(await eventually { queue.processed == ["a"] })
        try await host.enterBackground()
        queue.add("b")
        #expect(queue.processed == ["a"])  // paused: the work stopped before willResignActive
        try await host.enterForeground()
        #expect(await eventually { queue.processed == ["a", "b"] })
        try await host.terminate()
        #expect(host.workStatus.map(\.phase) == [.stopped])
    }

    @Test("The listener's readiness holds the host's back until it reported")
    func listenerReadiness() async throws {
        let host = try ApplicationHost(manifest: ModuleManifest(name: "App", [Listener.self]).withWork())
        try await host.launch()
        try await host.waitUntilReady()
        #expect(host.workStatus.first?.phase == .ready)
        #expect((await host.health()).isReady)
        try await host.terminate()
    }

    // README: test work on the virtual clock
    @Test func aFailingRefreshIsRestartedAfterItsBackoff() async throws {
        let clock = VirtualClock()
        var options = LaunchOptions()
        let catalog = Catalog()
        catalog.failNext(1)
        options[CatalogKey.self] = catalog
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "App", [CatalogRefresher.self]).withWork(),
            launchOptions: options,
            configuration: .init(clock: clock)
        )
        try await host.launch()

        await clock.waitForSleepers(1)  // the failed refresh waits its backoff on the host's clock
        #expect(catalog.refreshCount == 1)
        clock.advance(by: .seconds(1))
        try await host.waitUntilIdle()
        #expect(await host.workStatusEventually { $0.first?.attempts == 2 })
        #expect(catalog.refreshCount == 2)

        try await host.terminate()
    }
    // README: end
}

/// Waits, yielding a bounded number of times, until `condition` holds.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

extension ApplicationHost {
    /// Waits, yielding a bounded number of times, until `condition` holds of ``workStatus``.
    nonisolated func workStatusEventually(_ condition: ([WorkStatus]) -> Bool) async -> Bool {
        await eventually { condition(workStatus) }
    }
}
