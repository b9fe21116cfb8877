import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// Graceful shutdown: the order works are asked to stop in, a work that throws or returns meanwhile, the
// climb from graceful to cancelled to abandoned, and hosts inside work. swift-service-lifecycle's
// ServiceGroupTests check the same cases for a ServiceGroup.

/// The labels of works that throw once they have been let go after being asked to stop.
enum StopThrowsKey: LaunchOptionKey {
    static let defaultValue: Set<String> = []
}

/// A work that records its start; returns by itself if the gate `<label> return` opens first; else, asked
/// to stop, records `<label> asked` and stops only once the gate `<label> stop` opens (throwing then if
/// its label is in ``StopThrowsKey``).
func held<Module>(_ label: String) -> @Sendable (Module, WorkContext) async throws -> Void {
    { _, context in
        let recorder = context.recorder
        recorder.record("\(label) start")
        if await context.pass("\(label) return") {
            recorder.record("\(label) returned")
            return
        }
        recorder.record("\(label) asked")
        _ = await context.gates.wait("\(label) stop")
        if context.lifecycle.launchOptions[StopThrowsKey.self].contains(label) {
            recorder.record("\(label) threw")
            throw WorkFailure(label: label)
        }
        recorder.record("\(label) stop")
    }
}

struct OrderA: WorkingModule, WillTerminate {
    static let priority: ModulePriority = .normal
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.launchOptions[RecorderKey.self] }
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("a1", .application(), held("a1"))
        work.run("a2", .application(), held("a2"))
    }
    func willTerminate(_ context: LifecycleContext) async throws { recorder.record("A willTerminate") }
}

struct OrderB: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        // Permanent: even so, a throw while stopping is a stop, not a restart.
        work.run("b1", .application(), policy: WorkPolicy(restart: .permanent, backoff: .none), held("b1"))
    }
}

struct OrderC: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("c1", .application(), held("c1"))
        work.run("c2", .application(), held("c2"))
    }
}

struct DepBase: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("base1", .application(), held("base1"))
        work.run("base2", .application(), held("base2"))
    }
}

/// No work of its own: the dependency of `DepTop` on `DepBase` goes through it.
struct DepLink: DependentModule {
    static let priority: ModulePriority = .normal
    static var dependencies: [any LifecycleModule.Type] { [DepBase.self] }
    init(context: LifecycleContext) {}
}

struct DepTop: WorkingModule, DependentModule {
    static let priority: ModulePriority = .normal
    static var dependencies: [any LifecycleModule.Type] { [DepLink.self] }
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) { work.run("top", .application(), held("top")) }
}

/// Independent of the others.
struct DepSide: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) { work.run("side", .application(), held("side")) }
}

/// Ignores the graceful signal (it only records it) and honours cancellation.
struct Stubborn: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        let policy = WorkPolicy(gracePeriod: .seconds(5), cancellationGrace: .seconds(5))
        work.run("stubborn", policy: policy) { _, context in
            let recorder = context.recorder
            recorder.record("stubborn start")
            await context.withGracefulShutdownHandler {
                await untilCancelled()
            } onGracefulShutdown: {
                recorder.record("stubborn asked")
            }
            recorder.record(Task.isCancelled ? "stubborn cancelled" : "stubborn ended")
        }
    }
}

/// Ignores the graceful signal and cancellation: it returns only once the test opens `stuck release`.
struct Stuck: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("stuck", policy: WorkPolicy(gracePeriod: .seconds(1), cancellationGrace: .seconds(2))) { _, context in
            context.recorder.record("stuck start")
            await context.gates.waitIgnoringCancellation("stuck release")
            context.recorder.record("stuck released")
        }
    }
}

/// Early in delivery order, so its work stops after the others'.
struct Anchor: WorkingModule {
    static let priority: ModulePriority = .high
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("anchor") { _, context in
            context.recorder.record("anchor start")
            await context.gracefulShutdown()
            context.recorder.record("anchor stop")
        }
    }
}

/// Runs an inner host with work of its own, and terminates it when asked to stop.
struct NestOuter: WorkingModule, WillTerminate {
    static let priority: ModulePriority = .normal
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.launchOptions[RecorderKey.self] }
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("first") { _, context in
            context.recorder.record("first start")
            await context.gracefulShutdown()
            context.recorder.record("first stop")
        }
        work.run("nested") { _, context in
            let recorder = context.recorder
            var options = LaunchOptions()
            options[RecorderKey.self] = recorder
            let inner = try ApplicationHost(
                manifest: ModuleManifest(name: "Inner", [NestInner.self]).withWork(),
                launchOptions: options,
                configuration: .init(clock: VirtualClock(), hookBudget: nil, terminateDeadline: nil)
            )
            try await inner.launch()
            recorder.record("nested launched")
            await context.gracefulShutdown()
            recorder.record("nested asked")
            try await inner.terminate()
            let innerStopped = inner.state == .terminated && inner.workStatus.map(\.phase) == [.stopped]
            recorder.record(innerStopped ? "nested stop" : "nested stop, inner not stopped")
        }
    }
    func willTerminate(_ context: LifecycleContext) async throws { recorder.record("outer willTerminate") }
}

struct NestInner: WorkingModule, WillTerminate {
    static let priority: ModulePriority = .normal
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.launchOptions[RecorderKey.self] }
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("inner") { _, context in
            context.recorder.record("inner start")
            await context.gracefulShutdown()
            context.recorder.record("inner stop")
        }
    }
    func willTerminate(_ context: LifecycleContext) async throws { recorder.record("inner willTerminate") }
}

/// Waits until the watchdog watches `armed` deadlines and sleeps on the clock: what the test armed is in
/// place, and the clock may be advanced.
func settled(_ rig: WorkRig, armed: Int) async -> Bool {
    await eventually { rig.armedDeadlines == armed && rig.clock.sleeperCount == 1 }
}

@Suite("Work: graceful shutdown, its order and its escalation")
struct WorkShutdownTests {
    /// The `asked` lines, in order.
    func asked(_ recorder: Recorder) -> [String] {
        recorder.entries.filter { $0.hasSuffix(" asked") }.map { String($0.dropLast(6)) }
    }

    /// Terminates, letting each work stop only once it is the one asked, and checks that nobody else is
    /// asked meanwhile: `order` exactly, one at a time.
    func stopOneAtATime(_ rig: WorkRig, _ order: [String]) async throws {
        let terminating = Task { try await rig.host.terminate() }
        for (index, label) in order.enumerated() {
            #expect(await rig.recorder.wait(for: "\(label) asked"), "\(label) is asked")
            #expect(
                await stillHolds { asked(rig.recorder).count == index + 1 },
                "nobody after \(label) is asked before it stops: \(asked(rig.recorder))"
            )
            #expect(!(await hasFinished(terminating)))
            rig.gates.open("\(label) stop")
        }
        try await terminating.value
        #expect(asked(rig.recorder) == order)
    }

    @Test("Graceful shutdown asks one work at a time, in the exact reverse of module then declaration order")
    func reverseOrder() async throws {
        let rig = try workRig([OrderA.self, OrderB.self, OrderC.self])
        try await rig.host.launch()
        let order = ["c2", "c1", "b1", "a2", "a1"]
        #expect(await rig.recorder.wait { entries in order.allSatisfy { entries.contains("\($0) start") } })
        try await stopOneAtATime(rig, order)
        let entries = rig.recorder.entries
        // Each is asked only after the one before it stopped.
        for (earlier, later) in zip(order, order.dropFirst()) {
            #expect(rig.recorder.position("\(earlier) stop")! < rig.recorder.position("\(later) asked")!)
        }
        #expect(entries.last == "A willTerminate", "work stops before willTerminate: \(entries)")
        #expect(rig.host.workStatus.map(\.phase) == Array(repeating: .stopped, count: 5))
        #expect(rig.host.state == .terminated)
    }

    @Test("dependentsFirst: a module's work stops after its dependents' (through a module without work)")
    func dependentsFirst() async throws {
        let rig = try workRig(
            [DepTop.self, DepSide.self, DepLink.self, DepBase.self],
            stopOrder: .dependentsFirst
        )
        try await rig.host.launch()
        let labels = ["base1", "base2", "top", "side"]
        #expect(await rig.recorder.wait { entries in labels.allSatisfy { entries.contains("\($0) start") } })
        let terminating = Task { try await rig.host.terminate() }
        // Top and Side depend on nothing that runs work after them: both are asked at once.
        #expect(await rig.recorder.wait { $0.contains("top asked") && $0.contains("side asked") })
        #expect(await stillHolds { asked(rig.recorder).count == 2 })
        // Side stopping does not release Base: Base waits for Top, its dependent through DepLink.
        rig.gates.open("side stop")
        #expect(await rig.recorder.wait(for: "side stop"))
        #expect(await stillHolds { asked(rig.recorder).count == 2 })
        rig.gates.open("top stop")
        #expect(await rig.recorder.wait(for: "base2 asked"))
        #expect(await stillHolds { !rig.recorder.contains("base1 asked") })
        rig.gates.open("base2 stop")
        #expect(await rig.recorder.wait(for: "base1 asked"))
        rig.gates.open("base1 stop")
        try await terminating.value
        let recorder = rig.recorder
        #expect(recorder.position("top stop")! < recorder.position("base2 asked")!)
        #expect(recorder.position("base2 stop")! < recorder.position("base1 asked")!)
        #expect(rig.host.workStatus.allSatisfy { $0.phase == .stopped })
    }

    @Test("A work that throws while stopping: the others still stop in order, terminate completes, no restart")
    func throwDuringShutdown() async throws {
        let rig = try workRig(
            [OrderA.self, OrderB.self, OrderC.self],
            journal: 256,
            options: { $0[StopThrowsKey.self] = ["b1"] }
        )
        try await rig.host.launch()
        let order = ["c2", "c1", "b1", "a2", "a1"]
        #expect(await rig.recorder.wait { entries in order.allSatisfy { entries.contains("\($0) start") } })
        try await stopOneAtATime(rig, order)
        #expect(rig.recorder.contains("b1 threw"))
        #expect(rig.recorder.count("b1 start") == 1, "not restarted")
        #expect(rig.recorder.entries.last == "A willTerminate")
        let b1 = try #require(rig.status(OrderB.self, "b1"))
        #expect(b1.phase == .stopped)
        #expect(b1.attempts == 1)
        let notes = rig.workNotes.filter { $0.contains("OrderB") }
        #expect(notes.count == 2, "\(notes)")
        #expect(notes.first?.hasPrefix("workStarted") == true)
        #expect(notes.last?.hasPrefix("workStopped") == true)
        #expect(notes.last?.contains("b1: threw while stopping: b1 failed") == true, "\(notes)")
        #expect(rig.host.terminationFailure == nil)
    }

    @Test("A work that returns by itself while others stop is finished, not waited for, and the order goes on")
    func returnDuringShutdown() async throws {
        let rig = try workRig([OrderA.self, OrderB.self, OrderC.self])
        try await rig.host.launch()
        let all = ["a1", "a2", "b1", "c1", "c2"]
        #expect(await rig.recorder.wait { entries in all.allSatisfy { entries.contains("\($0) start") } })
        let terminating = Task { try await rig.host.terminate() }
        #expect(await rig.recorder.wait(for: "c2 asked"))
        // a2 ends by itself while c2 is still stopping.
        rig.gates.open("a2 return")
        #expect(await rig.wait(OrderA.self, "a2") { $0.phase == .finished })
        for label in ["c2", "c1", "b1"] {
            #expect(await rig.recorder.wait(for: "\(label) asked"))
            rig.gates.open("\(label) stop")
        }
        // a2 is not asked: it had finished; a1 follows b1.
        #expect(await rig.recorder.wait(for: "a1 asked"))
        rig.gates.open("a1 stop")
        try await terminating.value
        #expect(asked(rig.recorder) == ["c2", "c1", "b1", "a1"])
        #expect(rig.recorder.count("a2 start") == 1)
        #expect(rig.status(OrderA.self, "a2")?.phase == .finished)
    }

    @Test("A work that ignores the graceful signal is cancelled after its grace period, not before")
    func gracefulThenCancelled() async throws {
        let rig = try workRig([Stubborn.self], journal: 64)
        try await rig.host.launch()
        #expect(await rig.recorder.wait(for: "stubborn start"))
        let terminating = Task { try await rig.host.terminate() }
        #expect(await rig.recorder.wait(for: "stubborn asked"))
        #expect(await settled(rig, armed: 1))
        rig.clock.advance(by: .seconds(5) - .milliseconds(1))
        #expect(!(await hasFinished(terminating)), "4.999 s: within the grace period")
        #expect(!rig.recorder.contains("stubborn cancelled"))
        #expect(rig.status(Stubborn.self, "stubborn")?.phase == .stopping)
        rig.clock.advance(by: .milliseconds(1))
        // Cancelled, it returns at once: no abandonment, terminate succeeds.
        try await terminating.value
        #expect(rig.recorder.entries == ["stubborn start", "stubborn asked", "stubborn cancelled"])
        #expect(rig.status(Stubborn.self, "stubborn")?.phase == .stopped)
        #expect(rig.workNotes.map { $0.prefix { $0 != " " } } == ["workStarted", "workCancelled", "workStopped"])
        #expect(rig.armedDeadlines == 0)
    }

    @Test("A work that ignores cancellation is abandoned after the cancellation grace: deadlineExceeded names it")
    func cancellationIgnored() async throws {
        let rig = try workRig([Stuck.self, Anchor.self], journal: 64)
        defer { rig.gates.open("stuck release") }
        try await rig.host.launch()
        #expect(await rig.recorder.wait { $0.contains("stuck start") && $0.contains("anchor start") })
        let terminating = Task { try await rig.host.terminate() }
        #expect(await rig.wait(Stuck.self, "stuck") { $0.phase == .stopping })
        #expect(await settled(rig, armed: 1))
        rig.clock.advance(by: .seconds(1))
        // Cancelled now; the cancellation grace is armed.
        #expect(await settled(rig, armed: 1))
        #expect(rig.workNotes.contains { $0.hasPrefix("workCancelled") })
        rig.clock.advance(by: .seconds(2) - .milliseconds(1))
        #expect(!(await hasFinished(terminating)), "within the cancellation grace")
        rig.clock.advance(by: .milliseconds(1))
        let error = await #expect(throws: LifecycleError.self) { try await terminating.value }
        #expect(error?.code == .deadlineExceeded)
        #expect(error?.abandonedWork == ["\(Stuck.moduleName).stuck"])
        #expect(rig.host.state == .terminated)
        #expect(rig.status(Stuck.self, "stuck")?.phase == .abandoned)
        // Anchor stops after Stuck (reverse order): abandoning Stuck let it stop.
        #expect(rig.recorder.contains("anchor stop"))
        #expect(!rig.recorder.contains("stuck released"))
        #expect(rig.workNotes.contains { $0.hasPrefix("workAbandoned") })
        // Let go at the end, it returns: no task is left behind.
        rig.gates.open("stuck release")
        #expect(await rig.recorder.wait(for: "stuck released"))
    }

    @Test("HostRunner exits with code 4 when work is abandoned at termination")
    func runnerExitCodeForAbandonedWork() async throws {
        let rig = try workRig([Stuck.self], journal: 64)
        defer { rig.gates.open("stuck release") }
        let (signals, input) = AsyncStream.makeStream(of: UnixSignal.self)
        let runner = HostRunner(host: rig.host, configuration: .init(systemd: nil, report: { _ in }))
        let running = Task { await runner.run(signals: signals) }
        #expect(await rig.recorder.wait(for: "stuck start"))
        input.yield(.sigterm)
        #expect(await rig.wait(Stuck.self, "stuck") { $0.phase == .stopping })
        // The grace period and the runner's shutdown limit (30 s) are armed.
        #expect(await settled(rig, armed: 2))
        rig.clock.advance(by: .seconds(1))
        #expect(await eventually { rig.host.journal?.entries.contains { $0.event == "workCancelled" } == true })
        #expect(await settled(rig, armed: 2))
        rig.clock.advance(by: .seconds(2))
        let exit = await running.value
        #expect(exit.code == 4)
        #expect(exit.reason == .deadlineExceeded)
        #expect(exit.error?.abandonedWork == ["\(Stuck.moduleName).stuck"])
        #expect(rig.host.state == .terminated)
        input.finish()
    }

    @Test("HostRunner exits with code 6 when work fails past its policy and terminates the application")
    func runnerExitCodeForFailedWork() async throws {
        let type = enderType(.temporary, .terminateApplication)
        let rig = try workRig([type], options: { $0[EndingKey.self] = .throwsUntilHealed })
        let (signals, input) = AsyncStream.makeStream(of: UnixSignal.self)
        let runner = HostRunner(host: rig.host, configuration: .init(systemd: nil, report: { _ in }))
        let exit = await runner.run(signals: signals)
        #expect(exit.code == 6)
        #expect(exit.reason == .workFailed)
        #expect(exit.error?.code == .workFailed)
        #expect((exit.error?.underlyingError as? WorkError)?.work == "job")
        input.finish()
    }

    @Test("Nested hosts: the outer host's termination stops the inner host's work before the outer work stops")
    func nestedHosts() async throws {
        let rig = try workRig([NestOuter.self])
        try await rig.host.launch()
        #expect(await rig.recorder.wait { $0.contains("inner start") && $0.contains("first start") })
        #expect(await rig.recorder.wait(for: "nested launched"))
        try await rig.host.terminate()
        #expect(
            rig.recorder.entries.filter { !$0.hasSuffix("start") && $0 != "nested launched" } == [
                "nested asked", "inner stop", "inner willTerminate", "nested stop", "first stop",
                "outer willTerminate",
            ]
        )
        #expect(rig.host.workStatus.map(\.phase) == [.stopped, .stopped])
    }
}
