import Foundation
import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import LifecycleTesting
import Synchronization
import Testing

/// What the fixtures record, in order, and how they misbehave.
final class Recording: Sendable {
    private let storage = Locked<[String]>([])
    /// "Module event" pairs whose hook throws.
    let failing: Set<String>
    /// "Module event" pairs whose hook waits for `release()`, ignoring cancellation.
    let holding: Set<String>
    private let gate = Locked<(entered: Int, open: Bool, waiters: [CheckedContinuation<Void, Never>])>((0, false, []))

    init(failing: Set<String> = [], holding: Set<String> = []) {
        self.failing = failing
        self.holding = holding
    }

    var entries: [String] { storage.withLock { $0 } }

    func hook(_ module: String, _ event: String) async throws {
        storage.withLock { $0.append("\(event) \(module)") }
        if holding.contains("\(module) \(event)") {
            await withCheckedContinuation { continuation in
                let open = gate.withLock { gate in
                    gate.entered += 1
                    if !gate.open { gate.waiters.append(continuation) }
                    return gate.open
                }
                if open { continuation.resume() }
            }
            storage.withLock { $0.append("finished \(event) \(module)") }
        }
        if failing.contains("\(module) \(event)") { throw Failure(module: module, event: event) }
    }

    /// Polls every millisecond, sleeping rather than yielding (see ``Reports/waitFor(_:)``).
    func waitUntilHeld() async {
        while gate.withLock({ $0.entered }) == 0 {
            do { try await Task.sleep(for: .milliseconds(1)) } catch { return }
        }
    }

    func release() {
        for waiter in gate.withLock({ gate in
            gate.open = true
            defer { gate.waiters.removeAll() }
            return gate.waiters
        }) {
            waiter.resume()
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let module: String
        let event: String
        var description: String { "\(module) failed in \(event)" }
    }
}

enum RecordingKey: LaunchOptionKey {
    static let defaultValue = Recording()
}

/// Records every event a runner can cause.
protocol RecordsRunnerEvents: LifecycleModule, DidFinishLaunching, WillResignActive, DidEnterBackground,
    WillEnterForeground, DidBecomeActive, DidReceiveMemoryWarning, WillTerminate, CustomEventHandling
{
    var recording: Recording { get }
}

extension RecordsRunnerEvents {
    static var name: String { String(describing: Self.self) }
    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        try await recording.hook(Self.name, "didFinishLaunching")
        return true
    }
    func willResignActive(_ context: LifecycleContext) async throws {
        try await recording.hook(Self.name, "willResignActive")
    }
    func didEnterBackground(_ context: LifecycleContext) async throws {
        try await recording.hook(Self.name, "didEnterBackground")
    }
    func willEnterForeground(_ context: LifecycleContext) async throws {
        try await recording.hook(Self.name, "willEnterForeground")
    }
    func didBecomeActive(_ context: LifecycleContext) async throws {
        try await recording.hook(Self.name, "didBecomeActive")
    }
    func didReceiveMemoryWarning(_ context: LifecycleContext) async throws {
        try await recording.hook(Self.name, "didReceiveMemoryWarning")
    }
    func willTerminate(_ context: LifecycleContext) async throws {
        try await recording.hook(Self.name, "willTerminate")
    }
    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(ReloadRequested.self) { module, event, _ in
            try await module.recording.hook(Self.name, "reload(\(event.signal.name))")
            return false
        }
    }
}

struct Store: RecordsRunnerEvents {
    static let priority: ModulePriority = .high
    let recording: Recording
    init(context: LifecycleContext) { recording = context.launchOptions[RecordingKey.self] }
}

struct Server: RecordsRunnerEvents {
    static let priority: ModulePriority = .normal
    let recording: Recording
    init(context: LifecycleContext) { recording = context.launchOptions[RecordingKey.self] }
}

/// Posts terminate once active: a program whose modules decide when it is done.
struct OneShotJob: LifecycleModule, DidBecomeActive {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) { context.events.post(.terminate) }
}

/// The reports of one run, in order.
final class Reports: Sendable {
    private let storage = Locked<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    func append(_ report: HostRunner.Report) { storage.withLock { $0.append(report.description) } }

    /// Polls every millisecond: a `Task.yield()` loop would keep a cooperative thread busy and slow the
    /// timing tests running beside it.
    func waitFor(_ prefix: String) async {
        while !lines.contains(where: { $0.hasPrefix(prefix) }) {
            do { try await Task.sleep(for: .milliseconds(1)) } catch { return }
        }
    }
}

@Suite("HostRunner: signals to lifecycle events, exit codes", .timeLimit(.minutes(1)))
struct HostRunnerTests {
    struct Run {
        let runner: HostRunner
        let host: ApplicationHost
        let recording: Recording
        let reports: Reports
        let signals: AsyncStream<UnixSignal>.Continuation
        let stream: AsyncStream<UnixSignal>

        func run() async -> HostRunner.Exit { await runner.run(signals: stream) }
    }

    func setup(
        _ modules: [any LifecycleModule.Type] = [Store.self, Server.self],
        recording: Recording = Recording(),
        arguments: [String] = [],
        host configure: (inout ApplicationHost.Configuration) -> Void = { _ in },
        runner: (inout HostRunner.Configuration) -> Void = { _ in }
    ) throws -> Run {
        var options = LaunchOptions(arguments: arguments)
        options[RecordingKey.self] = recording
        var hostConfiguration = ApplicationHost.Configuration(onUnobservedError: { _ in })
        configure(&hostConfiguration)
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", modules),
            launchOptions: options,
            configuration: hostConfiguration
        )
        let reports = Reports()
        var configuration = HostRunner.Configuration(report: { reports.append($0) })
        runner(&configuration)
        let (stream, signals) = AsyncStream<UnixSignal>.makeStream()
        return Run(
            runner: HostRunner(host: host, configuration: configuration),
            host: host,
            recording: recording,
            reports: reports,
            signals: signals,
            stream: stream
        )
    }

    @Test("USR1, USR2, HUP, TERM: background, foreground, reload, terminate, in that order; exit 0")
    func standardMapping() async throws {
        let run = try setup()
        for signal in [UnixSignal.sigusr1, .sigusr2, .sighup, .sigterm] { run.signals.yield(signal) }
        let status = await run.run()

        #expect(status.reason == .clean)
        #expect(status.code == 0)
        #expect(
            run.recording.entries == [
                "didFinishLaunching Store", "didFinishLaunching Server", "didBecomeActive Store",
                "didBecomeActive Server",
                // SIGUSR1
                "willResignActive Server", "willResignActive Store", "didEnterBackground Server",
                "didEnterBackground Store",
                // SIGUSR2
                "willEnterForeground Store", "willEnterForeground Server", "didBecomeActive Store",
                "didBecomeActive Server",
                // SIGHUP
                "reload(HUP) Store", "reload(HUP) Server",
                // SIGTERM
                "willTerminate Server", "willTerminate Store",
            ]
        )
        // Signals are received as they come, even during launch; their requests complete in that order.
        #expect(
            run.reports.lines.filter { $0.hasPrefix("received") } == [
                "received SIGUSR1: background", "received SIGUSR2: foreground", "received SIGHUP: reload",
                "received SIGTERM: terminate",
            ]
        )
        #expect(
            run.reports.lines.filter { $0.hasPrefix("handled") || $0.hasPrefix("launched") } == [
                "launched; serving", "handled SIGUSR1: background", "handled SIGUSR2: foreground",
                "handled SIGHUP: reload",
            ]
        )
        #expect(run.reports.lines.last == "exit 0 (clean)")
        #expect(run.host.state == .terminated)
    }

    @Test("SIGHUP reads the modules file again: a module switched off is torn down, then the rest reload")
    func reloadSwitchesModules() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("modules-\(UUID()).conf").path
        try "Server = on\n".write(toFile: file, atomically: true, encoding: .utf8)
        let run = try setup(arguments: ["test", "--modules-file", file])
        let running = Task { await run.run() }
        await run.reports.waitFor("launched")

        try "Server = off\n".write(toFile: file, atomically: true, encoding: .utf8)
        let before = run.recording.entries.count
        run.signals.yield(.sighup)
        await run.reports.waitFor("handled SIGHUP")
        #expect(
            Array(run.recording.entries.dropFirst(before)) == [
                "willResignActive Server", "didEnterBackground Server", "willTerminate Server", "reload(HUP) Store",
            ]
        )
        #expect(run.reports.lines.contains("modules changed: off: \(Server.moduleName) (switched off by \(file):1)"))

        // A broken file changes nothing, is reported, and the modules that are on still reload.
        try "Server maybe\n".write(toFile: file, atomically: true, encoding: .utf8)
        let beforeBroken = run.recording.entries.count
        run.signals.yield(.sighup)
        await run.reports.waitFor("handled SIGHUP: reload failed")
        #expect(Array(run.recording.entries.dropFirst(beforeBroken)) == ["reload(HUP) Store"])
        #expect(
            run.reports.lines.contains {
                $0.hasPrefix("handled SIGHUP: reload failed: reloadModules() was refused: \(file):1")
            }
        )
        #expect(run.host.participants.map(\.name) == [Store.moduleName])

        run.signals.yield(.sigterm)
        #expect(await running.value.reason == .clean)
    }

    @Test("With readiness to drain, SIGTERM turns it unready first, and terminates after the drain delay")
    func drainsBeforeTerminating() async throws {
        let recording = Recording()
        let run = try setup(recording: recording)
        let readiness = HostReadiness(host: run.host)
        var configuration = run.runner.configuration
        configuration.readiness = readiness
        configuration.drainDelay = .milliseconds(300)
        let runner = HostRunner(host: run.host, configuration: configuration)
        let running = Task { await runner.run(signals: run.stream) }
        await run.reports.waitFor("launched")
        #expect(await readiness.health().isReady)

        run.signals.yield(.sigterm)
        await run.reports.waitFor("received SIGTERM")
        let draining = await readiness.health()
        #expect(draining.isDraining && !draining.isReady)
        // Still serving during the delay: the modules have not been told anything.
        #expect(run.host.state == .active)
        #expect(!recording.entries.contains { $0.hasPrefix("willTerminate") })

        #expect(await running.value.reason == .clean)
        #expect(recording.entries.suffix(2) == ["willTerminate Server", "willTerminate Store"])
    }

    @Test("The mapping is configuration: job control moves the host with TSTP and CONT; USR1 is not handled")
    func jobControlMapping() async throws {
        let run = try setup(runner: { $0.signals = .jobControl })
        for signal in [UnixSignal.sigusr1, .sigtstp, .sigcont, .sigint] { run.signals.yield(signal) }
        let status = await run.run()

        #expect(status.code == 0)
        #expect(
            run.recording.entries.filter { $0.hasSuffix("Store") }.map { $0.split(separator: " ")[0] }.dropFirst(2) == [
                "willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive", "willTerminate",
            ]
        )
        #expect(!run.reports.lines.contains { $0.contains("SIGUSR1") })
    }

    @Test("A second SIGINT cuts termination short: the running hook finishes, the rest are skipped; exit 130")
    func secondInterrupt() async throws {
        let recording = Recording(holding: ["Server willTerminate"])
        let run = try setup(recording: recording)
        run.signals.yield(.sigint)
        let running = Task { await run.run() }
        await recording.waitUntilHeld()
        run.signals.yield(.sigint)
        await run.reports.waitFor("received SIGINT: interrupt")
        while run.reports.lines.count(where: { $0 == "received SIGINT: interrupt" }) < 2 { await Task.yield() }
        recording.release()
        let status = await running.value

        #expect(status.reason == .interrupted(.sigint))
        #expect(status.code == 130)
        #expect(status.error?.code == .interrupted)
        #expect(status.error?.abandoned.map(\.name) == ["LifecycleHostingTests.Store"])
        #expect(recording.entries.suffix(2) == ["willTerminate Server", "finished willTerminate Server"])
        #expect(run.reports.lines.last?.hasPrefix("exit 130 (interrupted by SIGINT)") == true)
    }

    @Test("SIGTERM again during termination is reported and ignored; termination completes; exit 0")
    func repeatedTerminate() async throws {
        let recording = Recording(holding: ["Server willTerminate"])
        let run = try setup(recording: recording)
        run.signals.yield(.sigterm)
        let running = Task { await run.run() }
        await recording.waitUntilHeld()
        run.signals.yield(.sigterm)
        await run.reports.waitFor("ignored SIGTERM")
        recording.release()
        let status = await running.value

        #expect(status.code == 0)
        #expect(recording.entries.suffix(2) == ["finished willTerminate Server", "willTerminate Store"])
        #expect(run.reports.lines.contains("ignored SIGTERM: termination is already in progress"))
    }

    @Test("A willTerminate that hangs is abandoned at the terminate deadline; exit 4 within it")
    func hungTerminate() async throws {
        let clock = VirtualClock()
        let recording = Recording(holding: ["Server willTerminate"])
        defer { recording.release() }
        let run = try setup(
            recording: recording,
            host: {
                $0.clock = clock
                $0.terminateDeadline = .milliseconds(300)
            }
        )
        run.signals.yield(.sigterm)
        let running = Task { await run.run() }
        await recording.waitUntilHeld()
        // The host's deadline (300 ms) and the runner's shutdown limit (1.3 s) are on one watchdog, one clock.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(299))
        #expect(!(await hasFinished(running)), "299 ms: before the deadline")
        clock.advance(by: .milliseconds(1))
        let status = await running.value

        #expect(status.reason == .deadlineExceeded)
        #expect(status.code == 4)
        // The abandoned list shows the deadline ended it, not the runner's shutdown limit.
        #expect(status.error?.abandoned.map(\.name) == ["LifecycleHostingTests.Server", "LifecycleHostingTests.Store"])
        #expect(!run.reports.lines.contains { $0.hasPrefix("shutdown limit") })
    }

    @Test("Termination stuck behind a hanging request ends at the runner's shutdown limit; exit 4")
    func shutdownLimit() async throws {
        let clock = VirtualClock()
        let recording = Recording(holding: ["Store didEnterBackground"])
        defer { recording.release() }
        let run = try setup(
            recording: recording,
            host: {
                $0.clock = clock
                $0.hookBudget = nil
            },
            runner: { $0.shutdownLimit = .milliseconds(200) }
        )
        run.signals.yield(.sigusr1)
        run.signals.yield(.sigterm)
        let running = Task { await run.run() }
        await recording.waitUntilHeld()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(199))
        #expect(!(await hasFinished(running)), "199 ms: within the shutdown limit")
        clock.advance(by: .milliseconds(1))
        let status = await running.value

        #expect(status.reason == .deadlineExceeded)
        #expect(status.error == nil)
        #expect(status.detail?.contains("shutdown limit of 0.2 seconds") == true)
        #expect(run.reports.lines.contains("shutdown limit of 0.2 seconds passed"))
        #expect(!recording.entries.contains { $0.hasPrefix("willTerminate") })
    }

    @Test("The default shutdown limit is the terminate deadline plus one second, or 30 s without one")
    func defaultShutdownLimit() async throws {
        let run = try setup(host: { $0.terminateDeadline = .seconds(5) })
        #expect(run.runner.configuration.shutdownLimit == nil)
        let without = try setup(host: { $0.terminateDeadline = nil })
        let set = try setup(runner: { $0.shutdownLimit = .seconds(2) })
        #expect(run.runner.effectiveShutdownLimit == .seconds(6))
        #expect(without.runner.effectiveShutdownLimit == .seconds(30))
        #expect(set.runner.effectiveShutdownLimit == .seconds(2))
    }

    @Test("A launch that aborts exits 3, with the host's error")
    func launchAborted() async throws {
        let run = try setup(
            recording: Recording(failing: ["Server didFinishLaunching"]),
            host: { $0.launchFailurePolicy = .abort }
        )
        let status = await run.run()
        #expect(status.reason == .launchFailed)
        #expect(status.code == 3)
        #expect(status.error?.code == .launchAborted)
    }

    @Test("A launch with failing hooks under .continue is reported, and the runner serves on")
    func launchFailuresReported() async throws {
        let run = try setup(recording: Recording(failing: ["Server didFinishLaunching"]))
        run.signals.yield(.sigterm)
        let status = await run.run()
        #expect(status.code == 0)
        let launched = try #require(run.reports.lines.first { $0.hasPrefix("launched") })
        #expect(launched.hasPrefix("launched with failures; serving: 1 hook failed during launch()"))
    }

    @Test("A host that terminates itself ends the run: exit 0")
    func selfTermination() async throws {
        let run = try setup([Store.self, OneShotJob.self])
        let status = await run.run()
        #expect(status.reason == .clean)
        #expect(status.detail == "the host terminated itself (a terminate request from a module)")
        #expect(run.recording.entries.last == "willTerminate Store")
    }

    @Test("willTerminate hooks that throw: the host terminates and the runner exits 1")
    func terminateFailed() async throws {
        let run = try setup(recording: Recording(failing: ["Store willTerminate"]))
        run.signals.yield(.sigterm)
        let status = await run.run()
        #expect(status.reason == .terminateFailed)
        #expect(status.code == 1)
        #expect(
            status.error?.failures.map(\.description) == [
                "`LifecycleHostingTests.Store` threw in willTerminate: Store failed in willTerminate"
            ]
        )
    }

    @Test("A request the state refuses is reported with its error; the runner serves on")
    func refusedRequest() async throws {
        let run = try setup()
        run.signals.yield(.sigusr2)  // foreground while active
        run.signals.yield(.sigterm)
        let status = await run.run()
        #expect(status.code == 0)
        let handled = try #require(run.reports.lines.first { $0.hasPrefix("handled SIGUSR2") })
        #expect(
            handled.hasPrefix("handled SIGUSR2: foreground failed: Cannot enterForeground() while the host is active")
        )
    }

    @Test("An ignored signal is received and nothing is delivered; signals after termination are dropped")
    func ignoredSignals() async throws {
        let recording = Recording(holding: ["Server willTerminate"])
        let run = try setup(recording: recording, runner: { $0.signals[.sighup] = .ignore })
        run.signals.yield(.sighup)
        run.signals.yield(.sigterm)
        let running = Task { await run.run() }
        await recording.waitUntilHeld()
        run.signals.yield(.sigusr1)
        await run.reports.waitFor("ignored SIGUSR1")
        recording.release()
        _ = await running.value

        #expect(!recording.entries.contains { $0.hasPrefix("reload") || $0.hasPrefix("didEnterBackground") })
        #expect(run.reports.lines.contains("received SIGHUP: ignore"))
        #expect(run.reports.lines.contains("ignored SIGUSR1: the host is terminating"))
    }

    @Test("A host already launched is served as it is; a terminated one cannot be run (exit 3)")
    func hostStates() async throws {
        let run = try setup()
        try await run.host.launch()
        run.signals.yield(.sigterm)
        #expect(await run.run().code == 0)
        #expect(run.recording.entries.count(where: { $0.hasPrefix("didFinishLaunching") }) == 2)

        let again = await HostRunner(host: run.host, configuration: .init(report: { _ in })).run(
            signals: AsyncStream { $0.finish() }
        )
        #expect(again.reason == .launchFailed)
        #expect(again.detail?.contains("the host was terminated when the runner started") == true)
    }
}
