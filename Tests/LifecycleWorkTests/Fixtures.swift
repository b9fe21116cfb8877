import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// The fixtures lock with the package's `Locked`, not `Mutex`: a Thread Sanitizer build swaps it for a
// lock the sanitizer sees (Scripts/test-thread-sanitizer.sh), and works write here concurrently.

/// What the fixtures' work did, in order, shared by every module of one host.
final class Recorder: Sendable {
    private let lines = Locked<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
    func count(_ line: String) -> Int { entries.filter { $0 == line }.count }
    func contains(_ line: String) -> Bool { entries.contains(line) }
    /// The position of the `occurrence`th `line` (from 0), or `nil`.
    func position(_ line: String, occurrence: Int = 0) -> Int? {
        let positions = entries.indices.filter { entries[$0] == line }
        return occurrence < positions.count ? positions[occurrence] : nil
    }
    /// Waits, yielding, until `condition` holds of the entries; a bounded number of yields, not a time.
    func wait(until condition: ([String]) -> Bool) async -> Bool {
        for _ in 0..<100_000 {
            if condition(entries) { return true }
            await Task.yield()
        }
        return condition(entries)
    }
    /// Waits until `line` has been recorded (at least `times` times).
    func wait(for line: String, times: Int = 1) async -> Bool {
        await wait { $0.filter { $0 == line }.count >= times }
    }
}

enum RecorderKey: LaunchOptionKey {
    static let defaultValue = Recorder()
}

/// Waits, yielding, until `condition` holds; a bounded number of yields, not a time.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Lets every other task run a while, then says whether `condition` still holds: for checks that something
/// has *not* happened (yet), as `hasFinished` does for a task.
func stillHolds(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<200 {
        guard condition() else { return false }
        await Task.yield()
    }
    return condition()
}

/// Gates by label that the test opens and the works wait at: how a test decides when a work reports
/// ready, fails, or stops, instead of waiting for time to pass.
final class Gates: Sendable {
    private struct Waiter {
        let label: String
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var open: Set<String> = []
        var permits: [String: Int] = [:]
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        var cancelledEarly: Set<Int> = []

        /// Passes `label` if it is open or has a permit, which it uses up.
        mutating func take(_ label: String) -> Bool {
            if open.contains(label) { return true }
            guard let permits = permits[label], permits > 0 else { return false }
            self.permits[label] = permits - 1
            return true
        }
    }

    private let state = Locked(State())

    /// Opens `label` for good: every waiter passes, now and later.
    func open(_ label: String) {
        let due = state.withLock { state in
            state.open.insert(label)
            let due = state.waiters.filter { $0.value.label == label }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume(returning: true) }
    }

    /// Lets one waiter of `label` pass: the longest waiting, or the next to come.
    func release(_ label: String) {
        let due: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let id = state.waiters.filter({ $0.value.label == label }).keys.min() else {
                state.permits[label, default: 0] += 1
                return nil
            }
            return state.waiters.removeValue(forKey: id)?.continuation
        }
        due?.resume(returning: true)
    }

    /// Whether `label` is open for good.
    func isOpen(_ label: String) -> Bool { state.withLock { $0.open.contains(label) } }

    /// How many wait at `label` now.
    func waiting(_ label: String) -> Int { state.withLock { $0.waiters.values.filter { $0.label == label }.count } }

    /// Waits until `label` lets the caller pass; `false` if the task is cancelled first.
    func wait(_ label: String) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return false }
                    if state.take(label) { return true }
                    state.waiters[id] = Waiter(label: label, continuation: continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return nil as Waiter?
                }
                return waiter
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// Waits until `label` lets the caller pass, whatever cancellation says: a work that ignores it.
    func waitIgnoringCancellation(_ label: String) async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now = state.withLock { state in
                defer { state.nextID += 1 }
                if state.take(label) { return true }
                state.waiters[state.nextID] = Waiter(label: label, continuation: continuation)
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }
}

enum GatesKey: LaunchOptionKey {
    static let defaultValue = Gates()
}

extension WorkContext {
    var recorder: Recorder { lifecycle.launchOptions[RecorderKey.self] }
    var gates: Gates { lifecycle.launchOptions[GatesKey.self] }

    /// Waits until the gate `label` lets the work pass (`true`) or the host asks it to stop, or it is
    /// cancelled (`false`), whichever comes first.
    func pass(_ label: String) async -> Bool {
        let gates = self.gates
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await gates.wait(label) }
            group.addTask {
                await self.gracefulShutdown()
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}

/// Errors nobody awaited (posted requests that failed), as the host reported them.
final class ErrorLog: Sendable {
    private let errors = Locked<[LifecycleError]>([])
    func append(_ error: LifecycleError) { errors.withLock { $0.append(error) } }
    var all: [LifecycleError] { errors.withLock { $0 } }
}

/// A host with work, and what a test drives and reads it with.
struct WorkRig {
    let host: ApplicationHost
    let recorder: Recorder
    let gates: Gates
    let clock: VirtualClock
    let unobserved: ErrorLog

    /// The status of the work `name` of `module`, if the host lists it.
    func status(_ module: any LifecycleModule.Type, _ name: String) -> WorkStatus? {
        host.workStatus.first { $0.module == module.moduleName && $0.name == name }
    }

    /// Waits until the status of `module`'s work `name` satisfies `condition`.
    func wait(
        _ module: any LifecycleModule.Type,
        _ name: String,
        until condition: (WorkStatus) -> Bool
    ) async -> Bool {
        await eventually { status(module, name).map(condition) ?? false }
    }

    /// How many deadlines the host's watchdog is watching: grace periods, backoffs, the runner's limits.
    var armedDeadlines: Int { host.context.watchdog.base.armedCount }

    /// The journal's work notes (`workStarted`, …), as `event module-name note`.
    var workNotes: [String] {
        (host.journal?.entries ?? []).filter { $0.event.hasPrefix("work") }.map {
            "\($0.event) \($0.participant) \($0.note ?? "")"
        }
    }
}

/// A host of `modules` with work, on a virtual clock, with a recorder and gates in its launch options.
func workRig(
    _ modules: [any LifecycleModule.Type],
    stopOrder: WorkStopOrder = .reverse,
    journal: Int = 0,
    options: (inout LaunchOptions) -> Void = { _ in },
    configure: (inout ApplicationHost.Configuration) -> Void = { _ in }
) throws -> WorkRig {
    let recorder = Recorder()
    let gates = Gates()
    let clock = VirtualClock()
    let unobserved = ErrorLog()
    var launchOptions = LaunchOptions()
    launchOptions[RecorderKey.self] = recorder
    launchOptions[GatesKey.self] = gates
    options(&launchOptions)
    var configuration = ApplicationHost.Configuration(
        clock: clock,
        hookBudget: nil,
        terminateDeadline: nil,
        journalCapacity: journal,
        onUnobservedError: { unobserved.append($0) }
    )
    configure(&configuration)
    let host = try ApplicationHost(
        manifest: ModuleManifest(name: "Work", modules).withWork(stopOrder: stopOrder),
        launchOptions: launchOptions,
        configuration: configuration
    )
    return WorkRig(host: host, recorder: recorder, gates: gates, clock: clock, unobserved: unobserved)
}

/// A host of `modules` with work, on `clock`, and the recorder its work writes to.
func workHost(
    _ modules: [any LifecycleModule.Type],
    stopOrder: WorkStopOrder = .reverse,
    clock: VirtualClock = VirtualClock(),
    journal: Int = 0
) throws -> (ApplicationHost, Recorder) {
    let recorder = Recorder()
    var options = LaunchOptions()
    options[RecorderKey.self] = recorder
    let host = try ApplicationHost(
        manifest: ModuleManifest(name: "Work", modules).withWork(stopOrder: stopOrder),
        launchOptions: options,
        configuration: .init(clock: clock, hookBudget: nil, terminateDeadline: nil, journalCapacity: journal)
    )
    return (host, recorder)
}

/// A work body that records its start, waits to be asked to stop, and records its stop.
func untilShutdown(_ label: String) -> @Sendable (any LifecycleModule, WorkContext) async throws -> Void {
    { _, context in
        context.recorder.record("\(label) start")
        await context.gracefulShutdown()
        context.recorder.record("\(label) stop")
    }
}

/// What a fixture's work throws.
struct WorkFailure: Error, CustomStringConvertible {
    let label: String
    var description: String { "\(label) failed" }
}

/// A wait that never ends by itself but ends when its task is cancelled: a work that ignores the graceful
/// signal and honours cancellation.
func untilCancelled() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    for await _ in stream {}
    withExtendedLifetime(continuation) {}
}
