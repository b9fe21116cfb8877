import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// A trace identifier the test sets around a host call, as a tracing library would.
private enum TraceID {
    @TaskLocal static var current: String?
}

/// Writes every call it receives as a line, with the context it was handed.
private final class RecordingInstrument: LifecycleInstrument {
    private let lines = Locked<[String]>([])
    private let summaries = Locked<[EventSummary]>([])

    var calls: [String] { lines.withLock { $0 } }
    var events: [EventSummary] { summaries.withLock { $0 } }

    private func add(_ line: String) { lines.withLock { $0.append(line) } }
    private func show(_ context: (any Sendable)?) -> String { (context as? String) ?? "-" }

    func captureContext() -> (any Sendable)? { TraceID.current }
    func requestStarted(_ request: HostRequest, context: (any Sendable)?) {
        add("request \(request) [\(show(context))]")
    }
    func requestFinished(_ request: HostRequest, error: LifecycleError?) {
        add("finished \(request)" + (error.map { " \($0.code)" } ?? ""))
    }
    func eventStarted(_ event: LifecycleEvent, state: ApplicationState, context: (any Sendable)?) {
        add("event \(event.name) in \(state) [\(show(context))]")
    }
    func delivered(_ record: DeliveryRecord) {
        add(
            "  \(record.event.name) \(record.participant.name.split(separator: ".").last!)"
                + (record.error == nil ? "" : " threw")
        )
    }
    func eventFinished(_ summary: EventSummary, context: (any Sendable)?) {
        summaries.withLock { $0.append(summary) }
        add("end \(summary.event.name) [\(show(context))]")
    }
    func stateChanged(from old: ApplicationState, to new: ApplicationState) { add("state \(old) → \(new)") }
    func moduleChanged(_ change: String, module: String, reason: String) {
        add("\(change) \(module.split(separator: ".").last!)")
    }
}

/// Warms up after launch, in the background.
private struct BackgroundWarm: LifecycleModule, WarmUpStage, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func warmUp(_ context: LifecycleContext) async throws {}
    func didReceiveMemoryWarning(_ context: LifecycleContext) {}
}

@Suite("Instruments", .timeLimit(.minutes(1)))
struct InstrumentTests {
    @Test("A request, its events and its hook calls reach the instrument in order, with the asking task's context")
    func requestEventsAndCalls() async throws {
        let instrument = RecordingInstrument()
        var script = Script()
        script.failing = ["NormalA didEnterBackground"]
        let host = try makeHost(
            [High.self, NormalA.self],
            script: script,
            configuration: .init(instruments: [instrument])
        )
        try await TraceID.$current.withValue("trace-1") { try await host.launch() }
        await #expect(throws: LifecycleError.self) {
            try await TraceID.$current.withValue("trace-2") { try await host.enterBackground() }
        }
        #expect(
            instrument.calls == [
                "request launch() [trace-1]",
                "state notRunning → launching",
                "event willFinishLaunching in launching [trace-1]",
                "  willFinishLaunching High", "  willFinishLaunching NormalA",
                "end willFinishLaunching [trace-1]",
                "event didFinishLaunching in launching [trace-1]",
                "  didFinishLaunching High", "  didFinishLaunching NormalA",
                "end didFinishLaunching [trace-1]",
                "state launching → active",
                "event didBecomeActive in active [trace-1]",
                "  didBecomeActive High", "  didBecomeActive NormalA",
                "end didBecomeActive [trace-1]",
                "finished launch()",
                // Teardown events run in reverse order.
                "request enterBackground() [trace-2]",
                "event willResignActive in active [trace-2]",
                "  willResignActive NormalA", "  willResignActive High",
                "end willResignActive [trace-2]",
                "state active → background",
                "event didEnterBackground in background [trace-2]",
                "  didEnterBackground NormalA threw", "  didEnterBackground High",
                "end didEnterBackground [trace-2]",
                "finished enterBackground() hookFailed",
            ]
        )
        let background = try #require(instrument.events.last)
        #expect(background.event == .didEnterBackground)
        #expect(background.planned == 2)
        #expect(background.failures.map(\.participant.name) == [NormalA.moduleName])
        #expect(background.timeouts == 0)
        #expect(!background.stopped)
    }

    @Test("A timed-out hook is a delivery with a HookTimeout and counts in the summary's timeouts")
    func timeouts() async throws {
        let instrument = RecordingInstrument()
        let clock = VirtualClock()
        let latch = Latch()
        defer { latch.open() }
        var options = LaunchOptions()
        options[LatchKey.self] = latch
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [Hanger.self, NormalA.self]),
            launchOptions: options,
            configuration: .init(clock: clock, hookBudget: .seconds(1), instruments: [instrument])
        )
        try await host.launch()
        let warning = Task { try await host.receiveMemoryWarning() }
        await latch.waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await #expect(throws: LifecycleError.self) { try await warning.value }
        let summary = try #require(instrument.events.last)
        #expect(summary.event == .didReceiveMemoryWarning)
        #expect(summary.timeouts == 1)
        #expect(summary.failures.map(\.participant.name) == [Hanger.moduleName])
        #expect(instrument.calls.contains("  didReceiveMemoryWarning Hanger threw"))
        #expect(instrument.calls.contains("  didReceiveMemoryWarning NormalA"))
    }

    @Test("A background warm-up is one event under the launch's context; a posted request has none")
    func backgroundWarmUpAndPosted() async throws {
        let instrument = RecordingInstrument()
        var configuration = ApplicationHost.Configuration(instruments: [instrument])
        configuration.didFinishLaunchingWaitsForWarmUp = false
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Tests", [BackgroundWarm.self]),
            configuration: configuration
        )
        try await TraceID.$current.withValue("trace-9") { try await host.launch() }
        try await host.waitUntilReady()
        #expect(instrument.calls.contains("event warmUp in active [trace-9]"))
        #expect(instrument.calls.contains("end warmUp [trace-9]"))
        #expect(instrument.events.first { $0.event == .warmUp }?.planned == 1)

        host.context.events.post(.memoryWarning)
        try await host.waitUntilIdle()
        #expect(
            instrument.calls.suffix(5) == [
                "request receiveMemoryWarning() [-]",
                "event didReceiveMemoryWarning in active [-]",
                "  didReceiveMemoryWarning BackgroundWarm",
                "end didReceiveMemoryWarning [-]",
                "finished receiveMemoryWarning()",
            ]
        )
    }

    @Test("Quarantine and reload changes reach the instrument as the journal's notes")
    func moduleChanges() async throws {
        let instrument = RecordingInstrument()
        var script = Script()
        script.failing = ["NormalA didReceiveMemoryWarning"]
        var configuration = ApplicationHost.Configuration(
            quarantine: QuarantinePolicy(failures: 1, within: .seconds(60)),
            instruments: [instrument]
        )
        configuration.onUnobservedError = { _ in }
        let host = try makeHost([High.self, NormalA.self], script: script, configuration: configuration)
        try await host.launch()
        await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        try await host.waitUntilIdle()
        try await host.releaseQuarantine(NormalA.self)
        let changes = instrument.calls.filter {
            $0.hasPrefix("quarantined") || $0.hasPrefix("switched") || $0.hasPrefix("released")
        }
        #expect(changes == ["quarantined NormalA", "switchedOff NormalA", "released NormalA", "switchedOn NormalA"])
    }
}
