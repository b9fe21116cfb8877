import Logging
import ServiceLifecycle
import Synchronization
import SyntheticModules

/// A trivial service: it records that it started, then waits for graceful shutdown.
///
/// It does the same work per start and per stop as a module's hook (``HookTally/tick()``), so the
/// comparison with the host measures the two orchestrators, not the services.
struct IdleService: Service {
    let startLine: StartLine

    func run() async throws {
        HookTally.tick()
        startLine.arrive()
        // Returns on graceful shutdown; throws only on cancellation, which ends the service just the same.
        try? await gracefulShutdown()
        HookTally.tick()
    }
}

/// Lets the benchmark wait until every service of a group has started, the point where a host would
/// be `active`.
final class StartLine: Sendable {
    private struct State {
        var arrived = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let expected: Int
    private let state = Mutex(State())

    init(expected: Int) { self.expected = expected }

    /// One service has started.
    func arrive() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.arrived += 1
            guard state.arrived == expected else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once every service has started.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.arrived == expected { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// swift-service-lifecycle's whole lifecycle for `count` services: run the group, wait until every service
/// has started, trigger graceful shutdown, and wait for `run()` to return. The group and its services are
/// created before `meter.begin()`, as a host is built before its lifecycle is measured.
func serviceGroupLifecycle(count: Int, meter: Meter) async {
    await serviceGroupRun(count: count, meter: meter) { IdleService(startLine: $0) }
}

/// Runs a group of `count` services that `makeService` makes, each told the one ``StartLine``: run, wait
/// until every service has started, trigger graceful shutdown, wait for `run()`. Only the run is metered.
func serviceGroupRun(count: Int, meter: Meter, makeService: (StartLine) -> any Service) async {
    let logger = Logger(label: "lifecycle-bench") { _ in SwiftLogNoOpLogHandler() }
    let startLine = StartLine(expected: count)
    let services: [any Service] = (0..<count).map { _ in makeService(startLine) }
    let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))

    meter.begin()
    let running = Task { try await group.run() }
    await startLine.wait()
    await group.triggerGracefulShutdown()
    do {
        try await running.value
    } catch {
        fatalError("ServiceGroup.run() threw \(error)")
    }
    meter.end()
}
