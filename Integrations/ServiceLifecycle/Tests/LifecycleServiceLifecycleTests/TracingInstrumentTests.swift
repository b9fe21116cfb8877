import InMemoryTracing
import LifecycleCore
import LifecycleProxy
import LifecycleMessaging
import LifecycleObservability
import LifecycleWork
import Testing
import Tracing

/// The spans of a finished trace, by parent.
struct SpanTree {
    let spans: [FinishedInMemorySpan]

    /// The spans named `name`, in the order they ended.
    func named(_ name: String) -> [FinishedInMemorySpan] { spans.filter { $0.operationName == name } }

    /// The one span named `name`.
    func only(_ name: String) throws -> FinishedInMemorySpan {
        let found = named(name)
        try #require(found.count == 1, "\(found.count) spans named \(name): \(spans.map(\.operationName))")
        return found[0]
    }

    /// The children of `parent`, in the order they ended.
    func children(of parent: FinishedInMemorySpan) -> [FinishedInMemorySpan] {
        spans.filter { $0.parentSpanID == parent.spanID }
    }

    /// The names of the children of `parent`, in the order they ended.
    func childNames(of parent: FinishedInMemorySpan) -> [String] { children(of: parent).map(\.operationName) }
}

/// The string attribute `name` of `attributes`, or `nil` if it is missing or of another type.
func text(_ attributes: SpanAttributes, _ name: String) -> String? {
    if case .string(let value) = attributes.get(name) { value } else { nil }
}

extension FinishedInMemorySpan {
    var start: UInt64 { startInstant.nanosecondsSinceEpoch }
    var end: UInt64 { endInstant.nanosecondsSinceEpoch }

    /// Whether this span starts and ends within `outer`.
    func isWithin(_ outer: FinishedInMemorySpan) -> Bool { outer.start <= start && end <= outer.end }

    /// The string attribute `name`, or `nil` if it is missing or of another type.
    func text(_ name: String) -> String? { LifecycleServiceLifecycleTests.text(attributes, name) }

    /// The integer attribute `name`, or `nil` if it is missing or of another type.
    func number(_ name: String) -> Int64? {
        if case .int64(let value) = attributes.get(name) { value } else { nil }
    }

    /// The Boolean attribute `name`, or `nil` if it is missing or of another type.
    func flag(_ name: String) -> Bool? {
        if case .bool(let value) = attributes.get(name) { value } else { nil }
    }
}

@Suite("TracingInstrument", .timeLimit(.minutes(1)))
struct TracingInstrumentTests {
    @Test("A launch is a request span under the caller's span, with a span per event and one per hook call")
    func launchSpanTree() async throws {
        let tracer = InMemoryTracer()
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, CacheModule.self, FailingLaunchModule.self]),
            configuration: ApplicationHost.Configuration(instruments: [TracingInstrument(tracer: tracer)])
        )
        let launch = await #expect(throws: LifecycleError.self) {
            try await tracer.withSpan("deploy") { _ in try await host.launch() }
        }
        #expect(launch?.code == .hookFailed)
        #expect(host.state == .active)

        let tree = SpanTree(spans: tracer.finishedSpans)
        let caller = try tree.only("deploy")
        let request = try tree.only("launch()")
        #expect(request.parentSpanID == caller.spanID)
        #expect(request.traceID == caller.traceID)
        #expect(request.isWithin(caller))
        #expect(request.text("lifecycle.request") == "launch()")
        #expect(request.status == SpanStatus(code: .error, message: "hookFailed"))
        #expect(request.errors.count == 1)
        #expect(request.errors.first?.error is LifecycleError)
        let changes = request.events.map { event -> String in
            let from = text(event.attributes, "lifecycle.from") ?? "-"
            let to = text(event.attributes, "lifecycle.to") ?? "-"
            return "\(event.name) \(from) → \(to)"
        }
        #expect(
            changes == ["lifecycle.state_changed notRunning → launching", "lifecycle.state_changed launching → active"]
        )

        // The events of the launch that someone implements, in order, each within the request.
        #expect(tree.childNames(of: request) == ["setup", "didFinishLaunching", "didBecomeActive"])
        let events = tree.children(of: request)
        #expect(events.allSatisfy { $0.isWithin(request) && $0.traceID == caller.traceID })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.end <= $1.start })
        #expect(events.map { $0.text("lifecycle.state") } == ["launching", "launching", "active"])
        #expect(events.map { $0.number("lifecycle.planned") } == [2, 3, 2])
        #expect(events.map { $0.number("lifecycle.failures") } == [0, 1, 0])
        #expect(events.map { $0.flag("lifecycle.stopped") } == [false, false, false])
        #expect(events.map { $0.status?.code } == [nil, .error, nil])

        // Each hook call under its event, in delivery order, within it.
        let pool = PoolModule.moduleName
        let cache = CacheModule.moduleName
        let failing = FailingLaunchModule.moduleName
        #expect(tree.childNames(of: events[0]) == [pool, cache])
        #expect(tree.childNames(of: events[1]) == [pool, cache, failing])
        #expect(tree.childNames(of: events[2]) == [pool, cache])
        for event in events {
            let calls = tree.children(of: event)
            #expect(calls.allSatisfy { $0.isWithin(event) && $0.start < $0.end }, "\(event.operationName)")
            #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.end <= $1.start }, "\(event.operationName)")
            #expect(calls.allSatisfy { $0.text("lifecycle.event") == event.operationName })
            #expect(calls.allSatisfy { $0.text("lifecycle.module") == $0.operationName })
        }
        let names = tree.spans.map(\.operationName)
        #expect(names.count == 12, "the caller, the request, 3 events and 7 calls: \(names)")

        let finishing = tree.children(of: events[1])
        #expect(finishing.map { $0.number("lifecycle.priority") } == [10_000, 5_000, 1_000])
        #expect(finishing.map { $0.flag("lifecycle.result") } == [true, true, nil])
        #expect(finishing.map { $0.status?.code } == [nil, nil, .error])
        let thrown = try #require(finishing[2].errors.first)
        #expect((thrown.error as? Boom)?.reason == "no feature flags")
        #expect(thrown.instant.nanosecondsSinceEpoch == finishing[2].end)
        #expect(finishing[2].flag("lifecycle.timed_out") == nil)
    }

    @Test("Without a span in the asking task a request is a root span, and so is a request a module posted")
    func rootSpans() async throws {
        let tracer = InMemoryTracer()
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, BackgroundingModule.self]),
            configuration: ApplicationHost.Configuration(
                instruments: [TracingInstrument(tracer: tracer)],
                onUnobservedError: { _ in }
            )
        )
        _ = try await tracer.withSpan("deploy") { _ in try await host.launch() }
        try await host.waitUntilIdle()
        #expect(host.state == .background)

        let tree = SpanTree(spans: tracer.finishedSpans)
        let posted = try tree.only("enterBackground()")
        #expect(posted.parentSpanID == nil)
        #expect(posted.traceID != (try tree.only("deploy")).traceID)
        #expect(tree.childNames(of: posted) == ["willResignActive", "didEnterBackground"])
        #expect(tree.childNames(of: try tree.only("launch()")) == ["setup", "didFinishLaunching", "didBecomeActive"])
    }

    @Test("A background warm-up stays under the launch's span while a later request's event runs")
    func backgroundWarmUp() async throws {
        let tracer = InMemoryTracer()
        let gate = Gate()
        var options = LaunchOptions()
        options[GateKey.self] = gate
        var configuration = ApplicationHost.Configuration(instruments: [TracingInstrument(tracer: tracer)])
        configuration.didFinishLaunchingWaitsForWarmUp = false
        let host = try ApplicationHost(
            manifest: ModuleManifest([HeldWarmUpModule.self]),
            launchOptions: options,
            configuration: configuration
        )
        try await host.launch()
        await gate.waitUntilArrived()
        // The warm-up is held: the memory warning runs while it is in progress.
        _ = try await tracer.withSpan("pressure") { _ in try await host.receiveMemoryWarning() }
        gate.open()
        try await host.waitUntilReady()

        let tree = SpanTree(spans: tracer.finishedSpans)
        let launch = try tree.only("launch()")
        let warning = try tree.only("receiveMemoryWarning()")
        let warmUp = try tree.only("warmUp")
        #expect(warmUp.parentSpanID == launch.spanID)
        #expect(warmUp.start < warning.start && warning.end < warmUp.end, "the warm-up overlapped the request")
        #expect(tree.childNames(of: warmUp) == [HeldWarmUpModule.moduleName])
        #expect(tree.children(of: warmUp).allSatisfy { $0.isWithin(warmUp) })
        #expect(tree.childNames(of: warning) == ["didReceiveMemoryWarning"])
        let memory = try tree.only("didReceiveMemoryWarning")
        #expect(tree.childNames(of: memory) == [HeldWarmUpModule.moduleName])
        #expect(warning.parentSpanID == (try tree.only("pressure")).spanID)
    }

    /// Sends ``Ping`` to ``PingModule`` synchronously, as a hook without `await` would.
    static func ping(_ messenger: Messenger) throws -> String {
        try messenger.sendSynchronously(Ping(), to: PingModule.self)
    }

    @Test("A message is a span under the sending task's span, and is not traced without one")
    func messages() async throws {
        let tracer = InMemoryTracer()
        let host = try ApplicationHost(
            manifest: ModuleManifest([PingModule.self]).withMessages(),
            configuration: ApplicationHost.Configuration(instruments: [TracingInstrument(tracer: tracer)])
        )
        try await host.launch()
        let messenger = host.context.messages
        #expect(try Self.ping(messenger) == "pong")
        // Only its didBecomeActive: the message sent outside any span left none.
        #expect(tracer.finishedSpans.filter { $0.operationName == PingModule.moduleName }.count == 1)

        let reply = try tracer.withSpan("checkout") { _ in try Self.ping(messenger) }
        #expect(reply == "pong")
        let tree = SpanTree(spans: tracer.finishedSpans)
        let checkout = try tree.only("checkout")
        let call = try #require(tree.children(of: checkout).first)
        #expect(tree.children(of: checkout).count == 1)
        #expect(call.operationName == PingModule.moduleName)
        #expect(call.text("lifecycle.module") == PingModule.moduleName)
        #expect(call.text("lifecycle.event") == "Ping")
        #expect(call.isWithin(checkout))
    }

    @Test("A hook that timed out is a span with a HookTimeout error, lifecycle.timed_out and an error status")
    func timeout() async throws {
        let tracer = InMemoryTracer()
        let budgeted = BudgetedHost(instruments: [TracingInstrument(tracer: tracer)])
        let host = try budgeted.host([HangingWarningModule.self, PoolModule.self])
        try await host.launch()
        let error = await budgeted.timeOutMemoryWarning(of: host)
        #expect(error?.code == .hookFailed)

        let tree = SpanTree(spans: tracer.finishedSpans)
        let event = try tree.only("didReceiveMemoryWarning")
        #expect(event.number("lifecycle.timeouts") == 1)
        #expect(event.status?.code == .error)
        let call = try #require(tree.children(of: event).first)
        #expect(call.operationName == HangingWarningModule.moduleName)
        #expect(call.flag("lifecycle.timed_out") == true)
        #expect(call.errors.first?.error is HookTimeout)
        #expect(call.status?.code == .error)
    }

    @Test("With a NoOpTracer the instrument captures nothing and the host runs as with none")
    func noOpTracer() async throws {
        let instrument = TracingInstrument(tracer: NoOpTracer())
        let tracer = InMemoryTracer()
        let captured = tracer.withSpan("deploy") { _ in instrument.captureContext() }
        #expect(captured == nil)
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, CacheModule.self]),
            configuration: ApplicationHost.Configuration(instruments: [instrument])
        )
        try await host.launch()
        try await host.terminate()
        #expect(host.state == .terminated)
        #expect(tracer.finishedSpans.map(\.operationName) == ["deploy"])
    }

    @Test("A span per run of a work's body under the launch's span: a failed run errs, a restart links to it")
    func workRuns() async throws {
        let tracer = InMemoryTracer()
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, FlakyWorkModule.self, GivingUpWorkModule.self]).withWork(),
            configuration: ApplicationHost.Configuration(instruments: [TracingInstrument(tracer: tracer)])
        )
        try await host.launch()
        try await host.waitUntilReady()
        try await host.terminate()

        let tree = SpanTree(spans: tracer.finishedSpans)
        let launch = try tree.only("launch()")
        func changes(_ span: FinishedInMemorySpan) -> [String] {
            span.events.filter { $0.name == "lifecycle.work_changed" }.map {
                text($0.attributes, "lifecycle.change") ?? "?"
            }
        }

        // FlakyWorkModule's work: the first run threw and was restarted; the second ran until termination.
        let runs = tree.named("\(FlakyWorkModule.moduleName).poll")
        try #require(runs.count == 2, "\(tree.spans.map(\.operationName))")
        let (first, second) = (runs[0], runs[1])
        #expect(runs.allSatisfy { $0.parentSpanID == launch.spanID && $0.traceID == launch.traceID })
        #expect(runs.allSatisfy { $0.text("lifecycle.module") == FlakyWorkModule.moduleName })
        #expect(runs.allSatisfy { $0.text("lifecycle.work") == "poll" })
        #expect(runs.map { $0.number("lifecycle.attempt") } == [1, 2])
        #expect(changes(first) == ["workStarted", "workFailed", "workRestarting"])
        #expect(first.status == SpanStatus(code: .error, message: "boom: first attempt"))
        #expect(changes(second) == ["workRestarted", "workReady", "workStopped"])
        #expect(second.status == nil)
        #expect(second.links.map { $0.context.inMemorySpanContext?.spanID } == [first.spanID], "follows the first")
        #expect(first.links.isEmpty)
        #expect(first.end <= second.start)

        // GivingUpWorkModule's work threw once and was given up: its one run errs with the reason.
        let gaveUp = try tree.only("\(GivingUpWorkModule.moduleName).once")
        #expect(gaveUp.parentSpanID == launch.spanID)
        #expect(changes(gaveUp) == ["workStarted", "workFailed", "workGaveUp"])
        #expect(gaveUp.status?.code == .error)
        #expect(
            gaveUp.status?.message?.contains("its restart type is .temporary") == true,
            "\(String(describing: gaveUp.status))"
        )
        let failed = try #require(gaveUp.events.first { text($0.attributes, "lifecycle.change") == "workFailed" })
        #expect(text(failed.attributes, "lifecycle.detail") == "boom: always")

        // The termination's span tells which work it stopped.
        let terminate = try tree.only("terminate()")
        let stopped = terminate.events.filter { $0.name == "lifecycle.work_changed" }
        #expect(stopped.map { text($0.attributes, "lifecycle.change") } == ["workStopped"])
        #expect(stopped.map { text($0.attributes, "lifecycle.work") } == ["poll"])
        #expect(stopped.map { text($0.attributes, "lifecycle.module") } == [FlakyWorkModule.moduleName])
    }
}
