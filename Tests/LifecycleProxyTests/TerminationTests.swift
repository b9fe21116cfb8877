import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Posts terminate when it becomes active: a program whose modules decide when to stop.
struct StopsItself: LifecycleModule, DidBecomeActive {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) { context.events.post(.terminate) }
}

/// Awaits `waitUntilTerminated()` from inside its own hook (`HostBox` is in ConcurrencyTests).
struct WaitsForTermination: LifecycleModule, DidBecomeActive {
    static let priority: ModulePriority = .normal
    let host: HostBox
    init(context: LifecycleContext) { host = context.launchOptions[HostBoxKey.self] }
    func didBecomeActive(_ context: LifecycleContext) async throws {
        guard let host = host.value.withLock({ $0 }) else { return }
        try await host.waitUntilTerminated()
    }
}

@Suite("Termination: waiting for it and interrupting it", .timeLimit(.minutes(1)))
struct TerminationTests {
    func setup(
        _ modules: [any LifecycleModule.Type],
        deadline: Duration? = .seconds(60),
        box: HostBox = HostBox()
    ) throws -> (host: ApplicationHost, latch: Latch, script: Script) {
        let latch = Latch()
        let script = Script()
        var options = LaunchOptions()
        options[LatchKey.self] = latch
        options[ScriptKey.self] = script
        options[HostBoxKey.self] = box
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", modules),
            launchOptions: options,
            configuration: .init(terminateDeadline: deadline)
        )
        box.value.withLock { $0 = host }
        return (host, latch, script)
    }

    // MARK: - waitUntilTerminated

    @Test("waitUntilTerminated returns once terminate() has delivered willTerminate, and at once afterwards")
    func waitsForTerminate() async throws {
        let (host, _, script) = try setup([NormalA.self])
        try await host.launch()
        let waiter = Task { () async throws(LifecycleError) -> [String] in
            try await host.waitUntilTerminated()
            return script.journal.receivers(of: "willTerminate")
        }
        try await host.terminate()
        // The waiter saw the hooks' effects: the state changes only after willTerminate was delivered.
        #expect(try await waiter.value == ["NormalA"])
        try await host.waitUntilTerminated()
        #expect(host.state == .terminated)
    }

    @Test("waitUntilTerminated notices a host whose module posted terminate")
    func noticesSelfTermination() async throws {
        let (host, _, _) = try setup([StopsItself.self, NormalA.self])
        try await host.launch()
        try await host.waitUntilTerminated()
        #expect(host.state == .terminated)
    }

    @Test("waitUntilTerminated returns when launch aborts and the host ends terminated")
    func noticesAbortedLaunch() async throws {
        var script = Script()
        script.failing = ["NormalA didFinishLaunching"]
        var options = LaunchOptions()
        options[ScriptKey.self] = script
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [NormalA.self]),
            launchOptions: options,
            configuration: .init(launchFailurePolicy: .abort)
        )
        let waiter = Task { try await host.waitUntilTerminated() }
        await #expect(throws: LifecycleError.self) { try await host.launch() }
        try await waiter.value
        #expect(host.state == .terminated)
    }

    @Test("A cancelled waitUntilTerminated throws cancelled; the host goes on")
    func cancelledWait() async throws {
        let (host, _, _) = try setup([NormalA.self])
        try await host.launch()
        let waiter = Task { try await host.waitUntilTerminated() }
        waiter.cancel()
        let error = await #expect(throws: LifecycleError.self) { try await waiter.value }
        #expect(error?.code == .cancelled)
        #expect(error?.request.description == "waitUntilTerminated()")
        #expect(host.state == .active)
        try await host.terminate()
    }

    @Test("waitUntilTerminated inside a hook of the same host throws reentrantCall instead of deadlocking")
    func reentrantWait() async throws {
        let (host, _, _) = try setup([WaitsForTermination.self])
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.code == .hookFailed)
        let inner = try #require(error?.failures.first?.error as? LifecycleError)
        #expect(inner.code == .reentrantCall)
        #expect(inner.description.contains("waitUntilTerminated() was awaited from inside a hook"))
    }

    // MARK: - interruptTermination

    @Test(
        "Interrupting termination lets the running willTerminate finish and skips the rest",
        arguments: [Duration?.some(.seconds(60)), nil]
    )
    func interruptDuringTermination(deadline: Duration?) async throws {
        let (host, latch, script) = try setup([High.self, NormalA.self, HangerLow.self], deadline: deadline)
        #expect(host.plan(for: .willTerminate).map(\.name).map(shortName) == ["HangerLow", "NormalA", "High"])
        try await host.launch()
        let termination = Task { try await host.terminate() }
        await latch.waitUntilEntered()
        host.interruptTermination()
        latch.open()

        let error = await #expect(throws: LifecycleError.self) { try await termination.value }
        #expect(error?.code == .interrupted)
        #expect(error?.abandoned.map(\.name).map(shortName) == ["NormalA", "High"])
        #expect(error?.description.contains("willTerminate was skipped for: ") == true)
        // The hook that was running finished; nobody after it was called.
        #expect(script.journal.entries.suffix(2) == ["willTerminate HangerLow", "finished HangerLow"])
        #expect(script.journal.receivers(of: "willTerminate") == ["HangerLow"])
        #expect(host.state == .terminated)
    }

    @Test("An interruption before termination starts skips every willTerminate hook")
    func interruptBeforeTermination() async throws {
        let (host, _, script) = try setup([High.self, NormalA.self])
        try await host.launch()
        host.interruptTermination()
        #expect(host.state == .active)

        let error = await #expect(throws: LifecycleError.self) { try await host.terminate() }
        #expect(error?.code == .interrupted)
        #expect(error?.abandoned.map(\.name).map(shortName) == ["NormalA", "High"])
        #expect(script.journal.receivers(of: "willTerminate").isEmpty)
        #expect(host.state == .terminated)
    }

    @Test("An interruption while the last willTerminate runs skips nothing: terminate succeeds")
    func interruptTooLateToSkip() async throws {
        let (host, latch, script) = try setup([HangerLow.self])
        try await host.launch()
        let termination = Task { try await host.terminate() }
        await latch.waitUntilEntered()
        host.interruptTermination()
        latch.open()
        try await termination.value
        #expect(script.journal.entries.last == "finished HangerLow")
        #expect(host.state == .terminated)
    }

    @Test("The deadline still bounds a hook that hangs after an interruption")
    func interruptedHookStillBoundedByDeadline() async throws {
        let (host, latch, _) = try setup([NormalA.self, HangerLow.self], deadline: .milliseconds(200))
        defer { latch.open() }
        try await host.launch()
        let termination = Task { try await host.terminate() }
        await latch.waitUntilEntered()
        host.interruptTermination()

        let error = await #expect(throws: LifecycleError.self) { try await termination.value }
        #expect(error?.code == .deadlineExceeded)
        #expect(error?.abandoned.map(\.name).map(shortName) == ["HangerLow", "NormalA"])
        #expect(host.state == .terminated)
    }

    private func shortName(_ name: String) -> String { String(name.split(separator: ".").last ?? "") }
}
