import LifecycleCore
import LifecycleProxy
import LifecycleWork
import ServiceLifecycle
import Synchronization
import SyntheticModules

// The work rows: N works started, each reporting ready, then all stopped gracefully, by
// `ApplicationHost` with LifecycleWork, by swift-service-lifecycle's `ServiceGroup`, and by a task group
// written by hand. Every system's work has the same body (`WorkingNumbered`): count the start, report ready,
// wait for graceful shutdown, count the stop. Each repetition checks that N works started and N stopped.

/// Every system's part of a repetition that is measured: from the moment the works are started until every
/// one has stopped. What a system needs before it can start them (a host, a group and its services, the
/// tasks' signals) is built before, outside the measured region, and released after it.
///
/// `quick` (CI's smoke run) keeps only the rows of the smoke checks: the host in both stop orders and the
/// sharded hand-written groups they are judged against (``workSmokeSystems``).
func workCases(_ n: Int, quick: Bool = false) -> [BenchCase] {
    let all = allWorkCases(n)
    guard quick else { return all }
    return all.filter { workSmokeSystems.contains($0.system) }
}

private func allWorkCases(_ n: Int) -> [BenchCase] {
    let types = Array(SyntheticCatalog.workers.prefix(n))
    let plain = ModuleManifest(name: "Working", types)
    let reverse = plain.withWork(stopOrder: .reverse)
    let dependentsFirst = plain.withWork(stopOrder: .dependentsFirst)
    let lean = ApplicationHost.Configuration(hookBudget: nil, terminateDeadline: nil, journalCapacity: 0)
    return [
        hostWorkCase(.workHostReverse, n, reverse, ApplicationHost.Configuration()),
        hostWorkCase(.workHostDependentsFirst, n, dependentsFirst, ApplicationHost.Configuration()),
        hostWorkCase(.workHostReverseLean, n, reverse, lean),
        hostWorkCase(.workHostDependentsFirstLean, n, dependentsFirst, lean),
        hostWorkCase(.workHostNone, n, plain, ApplicationHost.Configuration(), works: 0),
        BenchCase(system: .workServiceGroup, modules: n, expectedTicks: nil) { meter, iterations in
            for _ in 0..<iterations {
                WorkTally.reset()
                await serviceGroupWork(count: n, meter: meter)
                checkWorks(.workServiceGroup, n)
            }
        },
        handWorkCase(.workHandReverseSharded, n, stop: .reverse, sharded: true),
        handWorkCase(.workHandReverseFlat, n, stop: .reverse, sharded: false),
        handWorkCase(.workHandTogetherSharded, n, stop: .together, sharded: true),
        handWorkCase(.workHandTogetherFlat, n, stop: .together, sharded: false),
    ]
}

/// A host of `n` ``WorkingNumbered`` modules from `manifest`: `launch()` (which starts the works after
/// `didFinishLaunching`), `waitUntilReady()` (every work has reported ready), `terminate()` (every work
/// stopped, in the manifest's stop order, before `willTerminate`). The host is created before
/// `meter.begin()`: its proxy build (N types, their declared work checked) is not measured, as a
/// `ServiceGroup` and its services are created before their run is.
private func hostWorkCase(
    _ system: System,
    _ n: Int,
    _ manifest: ModuleManifest,
    _ configuration: ApplicationHost.Configuration,
    works: Int? = nil
) -> BenchCase {
    BenchCase(system: system, modules: n, expectedTicks: nil) { meter, iterations in
        for _ in 0..<iterations {
            let host = freshHost(manifest, configuration, "the host of \(n) working modules")
            WorkTally.reset()
            meter.begin()
            do {
                try await host.launch()
                try await host.waitUntilReady()
                try await host.terminate()
            } catch {
                fatalError("\(system.id): \(error)")
            }
            meter.end()
            if host.state != .terminated { fatalError("\(system.id) ended \(host.state), not terminated") }
            checkWorks(system, works ?? n)
        }
    }
}

/// Fails the run unless `expected` works started and as many stopped in the repetition just measured.
private func checkWorks(_ system: System, _ expected: Int) {
    let counts = WorkTally.counts
    guard counts.started == expected, counts.stopped == expected else {
        fatalError("\(system.id): \(counts.started) works started and \(counts.stopped) stopped, expected \(expected)")
    }
}

// MARK: - ServiceGroup

/// A service with the work rows' body: count the start, report ready, wait for graceful shutdown, count the
/// stop.
struct WorkingService: Service {
    let startLine: StartLine

    func run() async throws {
        WorkTally.started()
        startLine.arrive()
        // Returns on graceful shutdown; throws only on cancellation, which ends the service just the same.
        try? await gracefulShutdown()
        WorkTally.stopped()
    }
}

/// swift-service-lifecycle 2.13 running `count` ``WorkingService``s: `run()`, wait until every service has
/// reported ready (a shared counter and one continuation, ``StartLine``), `triggerGracefulShutdown()`, and
/// wait for `run()` to return. The group stops its services one at a time, in reverse order, as the host's
/// `.reverse` does. The group and its services are created before `meter.begin()`.
func serviceGroupWork(count: Int, meter: Meter) async {
    await serviceGroupRun(count: count, meter: meter) { WorkingService(startLine: $0) }
}

// MARK: - By hand

/// A hand-written work's graceful-shutdown signal: asked once, awaited once. What the host's
/// `WorkContext.gracefulShutdown()` is, less its cancellation handler and handler registry.
final class HandShutdown: Sendable {
    private struct State {
        var requested = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Asks the work to stop: resumes its wait, or lets it return at once.
    func request() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.requested = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once the work is asked to stop.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.requested { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// The order the hand-written group stops its works in.
enum HandStopOrder: Sendable {
    /// One at a time, the last first: each work asks the one before it to stop when it has stopped, as
    /// the host's `.reverse` and `ServiceGroup` do.
    case reverse
    /// All asked at once, in order: the host's `.dependentsFirst` when no work's module depends on another.
    case together
}

/// The same run written by hand: `count` child tasks of a task group, each with the work rows' body and a
/// ``HandShutdown``; wait until every one has reported ready (``StartLine``), ask them to stop in `stop`
/// order, and wait for the group. `sharded` nests them as the host's work group does (more than 64: a child
/// per 64, each a group of its own); otherwise one flat group of `count` children. No restarts, no grace
/// period, no journal, no readiness per module, no status: what the host adds on top.
private func handWorkCase(_ system: System, _ n: Int, stop: HandStopOrder, sharded: Bool) -> BenchCase {
    BenchCase(system: system, modules: n, expectedTicks: nil) { meter, iterations in
        for _ in 0..<iterations {
            WorkTally.reset()
            await handWrittenWork(count: n, stop: stop, sharded: sharded, meter: meter)
            checkWorks(system, n)
        }
    }
}

/// The host's shard size (`WorkGroup.shardSize`).
private let handShardSize = 64

func handWrittenWork(count: Int, stop: HandStopOrder, sharded: Bool, meter: Meter) async {
    let startLine = StartLine(expected: count)
    let signals = (0..<count).map { _ in HandShutdown() }
    @Sendable func body(_ index: Int) async {
        WorkTally.started()
        startLine.arrive()
        await signals[index].wait()
        WorkTally.stopped()
        if stop == .reverse, index > 0 { signals[index - 1].request() }
    }

    meter.begin()
    await withDiscardingTaskGroup { group in
        if sharded, count > handShardSize {
            var start = 0
            while start < count {
                let shard = start..<min(start + handShardSize, count)
                group.addTask {
                    await withDiscardingTaskGroup { inner in
                        for index in shard { inner.addTask { await body(index) } }
                    }
                }
                start = shard.upperBound
            }
        } else {
            for index in 0..<count { group.addTask { await body(index) } }
        }
        await startLine.wait()
        switch stop {
        case .reverse: signals[count - 1].request()
        case .together: for signal in signals { signal.request() }
        }
    }
    meter.end()
}
