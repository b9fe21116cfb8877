import Metrics
import LifecycleCore
import LifecycleProxy
import LifecycleMessaging
import LifecycleTesting
import LifecycleWork
import MetricsTestKit
import Synchronization

/// Holds the tasks that wait on it until it opens, and tells whether one has arrived.
final class Gate: Sendable {
    private struct State {
        var arrived = 0
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits until the gate opens.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let passes = state.withLock { state in
                state.arrived += 1
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }

    /// Waits until a task has arrived at ``wait()``, or ``arrive()`` was called.
    func waitUntilArrived() async {
        while state.withLock({ $0.arrived }) == 0 { try? await Task.sleep(for: .milliseconds(1)) }
    }

    /// Counts an arrival without waiting.
    func arrive() { state.withLock { $0.arrived += 1 } }

    /// Opens the gate: lets every waiting task go on, and every later one pass.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Where the observability fixtures find their gate.
enum GateKey: LaunchOptionKey {
    static let defaultValue = Gate()
}

/// Warms up until its gate opens; handles memory warnings.
struct HeldWarmUpModule: LifecycleModule, WarmUpStage, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .normal
    let gate: Gate
    init(context: LifecycleContext) { gate = context.launchOptions[GateKey.self] }
    func warmUp(_ context: LifecycleContext) async throws { await gate.wait() }
    func didReceiveMemoryWarning(_ context: LifecycleContext) {}
}

/// Its memory warning hook arrives at its gate, then sleeps for 30 s, or until the host abandons it.
struct HangingWarningModule: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .high
    let gate: Gate
    init(context: LifecycleContext) { gate = context.launchOptions[GateKey.self] }
    func didReceiveMemoryWarning(_ context: LifecycleContext) async {
        gate.arrive()
        try? await Task.sleep(for: .seconds(30))
    }
}

/// Its memory warning hook throws.
struct FailingWarningModule: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didReceiveMemoryWarning(_ context: LifecycleContext) throws { throw Boom(reason: "no memory to free") }
}

/// Its work, `poll`, throws at its first attempt; the second reports ready and runs until it is stopped.
/// Restarted without a backoff.
struct FlakyWorkModule: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("poll", policy: WorkPolicy(backoff: .none), reportsReadiness: true) { _, context in
            if context.attempt == 1 { throw Boom(reason: "first attempt") }
            context.reportReady()
            await context.gracefulShutdown()
        }
    }
}

/// Its work, `once`, throws every time; its policy neither restarts it nor does anything more.
struct GivingUpWorkModule: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("once", policy: WorkPolicy(restart: .temporary, escalation: .ignore)) { _, _ in
            throw Boom(reason: "always")
        }
    }
}

/// A message with a reply.
struct Ping: Message {
    typealias Reply = String
}

/// Answers ``Ping``.
struct PingModule: MessageReceiving, DidBecomeActive {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) {}
    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { _, _, _ in "pong" }
    }
}

/// A metrics factory that counts the metrics it is asked to make, and makes them with a `TestMetrics`.
final class CountingFactory: MetricsFactory {
    let metrics = TestMetrics()
    private let made = Mutex(0)

    /// How many counters, recorders and timers were made.
    var madeCount: Int { made.withLock { $0 } }

    private func count() { made.withLock { $0 += 1 } }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        count()
        return metrics.makeCounter(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        count()
        return metrics.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        count()
        return metrics.makeTimer(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { metrics.destroyCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { metrics.destroyRecorder(handler) }
    func destroyTimer(_ handler: any TimerHandler) { metrics.destroyTimer(handler) }
}

/// Hosts whose hooks have a budget of 1 s on a virtual clock, and whose modules share one gate.
struct BudgetedHost {
    let clock = VirtualClock()
    let gate = Gate()
    let instruments: [any LifecycleInstrument]

    /// A host of `modules` with the instruments.
    func host(_ modules: [any LifecycleModule.Type]) throws -> ApplicationHost {
        var options = LaunchOptions()
        options[GateKey.self] = gate
        return try ApplicationHost(
            manifest: ModuleManifest(modules),
            launchOptions: options,
            configuration: ApplicationHost.Configuration(
                clock: clock,
                hookBudget: .seconds(1),
                instruments: instruments
            )
        )
    }

    /// Sends `host` a memory warning and, once `HangingWarningModule`'s hook hangs and the watchdog sleeps,
    /// moves the clock past the budget; returns the request's error.
    func timeOutMemoryWarning(of host: ApplicationHost) async -> LifecycleError? {
        let warning = Task { try await host.receiveMemoryWarning() }
        await gate.waitUntilArrived()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        do {
            try await warning.value
            return nil
        } catch {
            return error as? LifecycleError
        }
    }
}
