import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Synchronization

/// What the fixtures' work did, in order, shared by every module of one host.
final class Recorder: Sendable {
    private let lines = Mutex<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }
    func count(_ line: String) -> Int { entries.filter { $0 == line }.count }
    /// Waits, yielding, until `condition` holds of the entries; a bounded number of yields, not a time.
    func wait(until condition: ([String]) -> Bool) async -> Bool {
        for _ in 0..<100_000 {
            if condition(entries) { return true }
            await Task.yield()
        }
        return condition(entries)
    }
}

enum RecorderKey: LaunchOptionKey {
    static let defaultValue = Recorder()
}

extension WorkContext {
    var recorder: Recorder { lifecycle.launchOptions[RecorderKey.self] }
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
