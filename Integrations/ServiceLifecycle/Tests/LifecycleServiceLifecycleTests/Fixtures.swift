import LifecycleCore
import LifecycleProxy
import LifecycleServiceLifecycle
import Logging
import ServiceLifecycle
import Synchronization

/// An ordered record of what happened, from any task: the host's deliveries as `"event Module"`, and what
/// the test's services and modules write.
final class Timeline: Sendable {
    private let lines = Mutex<[String]>([])

    func write(_ line: String) { lines.withLock { $0.append(line) } }

    var entries: [String] { lines.withLock { $0 } }

    /// The deliveries, `"event Module"`, in order.
    var deliveries: [String] { entries.filter { !$0.contains(":") } }

    /// The index of the first entry equal to `line`, or `nil`.
    func index(of line: String) -> Int? { entries.firstIndex(of: line) }

    /// Waits until `condition` holds, polling; `false` if it still does not after `timeout`.
    func waitUntil(timeout: Duration = .seconds(30), _ condition: ([String]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(entries) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(entries)
    }

    /// Waits until an entry equals `line`.
    func waitFor(_ line: String, timeout: Duration = .seconds(30)) async -> Bool {
        await waitUntil(timeout: timeout) { $0.contains(line) }
    }
}

/// Where modules find the test's timeline and settings.
enum TimelineKey: LaunchOptionKey {
    static let defaultValue = Timeline()
}

/// How long `SlowSetupModule.setUp` takes, ignoring cancellation.
enum SetupDelayKey: LaunchOptionKey {
    static let defaultValue: Duration = .zero
}

struct Boom: Error, CustomStringConvertible {
    let reason: String
    var description: String { "boom: \(reason)" }
}

/// A module that handles every launch and shutdown event, and does nothing.
struct PoolModule: LifecycleModule, SetupStage, DidFinishLaunching, DidBecomeActive, WillResignActive,
    DidEnterBackground, WillTerminate
{
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}
    func setUp(_ context: LifecycleContext) {}
    func didFinishLaunching(_ context: LifecycleContext) -> Bool { true }
    func didBecomeActive(_ context: LifecycleContext) {}
    func willResignActive(_ context: LifecycleContext) {}
    func didEnterBackground(_ context: LifecycleContext) {}
    func willTerminate(_ context: LifecycleContext) {}
}

/// Like ``PoolModule``, at a lower priority.
struct CacheModule: LifecycleModule, SetupStage, DidFinishLaunching, DidBecomeActive, WillResignActive,
    DidEnterBackground, WillTerminate
{
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func setUp(_ context: LifecycleContext) {}
    func didFinishLaunching(_ context: LifecycleContext) -> Bool { true }
    func didBecomeActive(_ context: LifecycleContext) {}
    func willResignActive(_ context: LifecycleContext) {}
    func didEnterBackground(_ context: LifecycleContext) {}
    func willTerminate(_ context: LifecycleContext) {}
}

/// Its setup takes `SetupDelayKey`, and cancellation does not shorten it. Writes `"setup: started"` first.
struct SlowSetupModule: LifecycleModule, SetupStage, WillTerminate {
    static let priority: ModulePriority = .low
    let timeline: Timeline
    let delay: Duration
    init(context: LifecycleContext) {
        timeline = context.launchOptions[TimelineKey.self]
        delay = context.launchOptions[SetupDelayKey.self]
    }
    func setUp(_ context: LifecycleContext) async {
        timeline.write("setup: started")
        let end = ContinuousClock.now + delay
        while ContinuousClock.now < end {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
    func willTerminate(_ context: LifecycleContext) {}
}

/// Its setup throws, and it aborts the launch whatever the host's policy.
struct AbortingSetupModule: LifecycleModule, FailurePolicyModule, SetupStage {
    static let priority: ModulePriority = .low
    static let failurePolicy: ModuleFailurePolicy = .abort
    init(context: LifecycleContext) {}
    func setUp(_ context: LifecycleContext) throws { throw Boom(reason: "no database") }
}

/// Its `didFinishLaunching` throws; under the host's `.continue` the launch completes anyway.
struct FailingLaunchModule: LifecycleModule, DidFinishLaunching, WillTerminate {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didFinishLaunching(_ context: LifecycleContext) throws -> Bool { throw Boom(reason: "no feature flags") }
    func willTerminate(_ context: LifecycleContext) {}
}

/// Its `willResignActive` throws.
struct FailingResignModule: LifecycleModule, WillResignActive, WillTerminate {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func willResignActive(_ context: LifecycleContext) throws { throw Boom(reason: "cannot flush") }
    func willTerminate(_ context: LifecycleContext) {}
}

/// Its `willTerminate` waits 30 s, or until the host abandons it.
struct HangingTerminateModule: LifecycleModule, WillTerminate {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func willTerminate(_ context: LifecycleContext) async {
        try? await Task.sleep(for: .seconds(30))
    }
}

/// Posts `enterBackground` once active, so the host is in the background before any shutdown.
struct BackgroundingModule: LifecycleModule, DidBecomeActive, DidEnterBackground, WillTerminate {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) {
        if context.applicationState == .active { context.events.post(.enterBackground) }
    }
    func didEnterBackground(_ context: LifecycleContext) {}
    func willTerminate(_ context: LifecycleContext) {}
}

/// Posts `enterForeground` while active, which the host refuses: an error nobody awaits.
struct InvalidPostModule: LifecycleModule, DidBecomeActive {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) { context.events.post(.enterForeground) }
}

/// The short name of a participant: `LifecycleServiceLifecycleTests.PoolModule` → `PoolModule`.
func shortName(_ participant: Participant) -> String {
    participant.name.split(separator: ".").last.map(String.init) ?? participant.name
}

/// A host over `modules` whose deliveries go to `timeline` as `"event Module"`.
func makeHost(
    _ modules: [any LifecycleModule.Type],
    timeline: Timeline,
    setupDelay: Duration = .zero,
    configure: (inout ApplicationHost.Configuration) -> Void = { _ in }
) throws -> ApplicationHost {
    var options = LaunchOptions()
    options[TimelineKey.self] = timeline
    options[SetupDelayKey.self] = setupDelay
    var configuration = ApplicationHost.Configuration(
        onDelivery: { record in timeline.write("\(record.event.name) \(shortName(record.participant))") },
        onUnobservedError: { error in timeline.write("unobserved: \(error.code)") }
    )
    configure(&configuration)
    return try ApplicationHost(manifest: ModuleManifest(modules), launchOptions: options, configuration: configuration)
}

/// A logger that drops everything.
let quietLogger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

/// The launch deliveries of `PoolModule` then `CacheModule`.
let launchOfPoolAndCache = [
    "setup PoolModule", "setup CacheModule",
    "didFinishLaunching PoolModule", "didFinishLaunching CacheModule",
    "didBecomeActive PoolModule", "didBecomeActive CacheModule",
]

/// A stand-in for an HTTP server: on graceful shutdown it drains for `drain`, which cancellation of the
/// shutdown does not shorten, and writes when it started and finished draining.
struct DrainingServer: Service {
    let timeline: Timeline
    let drain: Duration

    func run() async throws {
        timeline.write("server: started")
        do {
            try await gracefulShutdown()
        } catch {
            timeline.write("server: cancelled")
            return
        }
        timeline.write("server: draining")
        let end = ContinuousClock.now + drain
        while ContinuousClock.now < end {
            try? await Task.sleep(for: .milliseconds(10))
        }
        timeline.write("server: drained")
    }
}

/// A service that starts only once the host is ready, as an HTTP server should.
struct GatedService: Service {
    let hostService: ApplicationHostService
    let timeline: Timeline

    func run() async throws {
        do {
            try await hostService.waitUntilReady()
        } catch {
            timeline.write("gated: \(error.code)")
            throw error
        }
        timeline.write("gated: started")
        try? await gracefulShutdown()
        timeline.write("gated: stopped")
    }
}

/// Runs `group` in a task of its own and returns it, so the test can drive the group meanwhile.
func start(_ group: ServiceGroup) -> Task<Void, any Error> {
    Task { try await group.run() }
}
