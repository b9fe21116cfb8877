import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// A work that ends by itself, returning or throwing, under each restart type and each escalation: OTP's
// restart table and swift-service-lifecycle's "service exits early / throws" cases.

/// How the ending fixture's work behaves, per host.
enum Ending: Sendable {
    /// The first attempt returns at once; later ones run until asked to stop.
    case returnsOnce
    /// The first attempt throws at once; later ones run until asked to stop.
    case throwsOnce
    /// Every attempt throws at once, until the gate `healed` is open; then it runs until asked to stop.
    case throwsUntilHealed
}

enum EndingKey: LaunchOptionKey {
    static let defaultValue = Ending.returnsOnce
}

protocol RestartTag: Sendable { static var restart: WorkPolicy.Restart { get } }
protocol EscalationTag: Sendable { static var escalation: WorkPolicy.Escalation { get } }
enum PermanentTag: RestartTag { static var restart: WorkPolicy.Restart { .permanent } }
enum TransientTag: RestartTag { static var restart: WorkPolicy.Restart { .transient } }
enum TemporaryTag: RestartTag { static var restart: WorkPolicy.Restart { .temporary } }
enum IgnoreTag: EscalationTag { static var escalation: WorkPolicy.Escalation { .ignore } }
enum QuarantineTag: EscalationTag { static var escalation: WorkPolicy.Escalation { .quarantineModule } }
enum TerminateTag: EscalationTag { static var escalation: WorkPolicy.Escalation { .terminateApplication } }

/// A module with one work, `job`, whose policy is `R` and `E`: at most 2 restarts within a minute, no
/// backoff. It records its hooks, so a test sees whether it still receives them.
struct Ender<R: RestartTag, E: EscalationTag>: WorkingModule, WillResignActive, DidEnterBackground,
    WillEnterForeground
{
    static var priority: ModulePriority { .normal }
    let recorder: Recorder
    init(context: LifecycleContext) { recorder = context.launchOptions[RecorderKey.self] }

    static var policy: WorkPolicy {
        WorkPolicy(
            restart: R.restart,
            intensity: .init(maxRestarts: 2, within: .seconds(60)),
            backoff: .none,
            escalation: E.escalation
        )
    }

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("job", policy: policy) { _, context in
            let recorder = context.recorder
            recorder.record("job start \(context.attempt)")
            let ending = context.lifecycle.launchOptions[EndingKey.self]
            switch ending {
            case .returnsOnce where context.attempt == 1:
                recorder.record("job returned")
                return
            case .throwsOnce where context.attempt == 1:
                recorder.record("job threw")
                throw WorkFailure(label: "job")
            case .throwsUntilHealed where !context.gates.isOpen("healed"):
                recorder.record("job threw")
                throw WorkFailure(label: "job")
            default:
                await context.gracefulShutdown()
                recorder.record("job stop")
            }
        }
    }

    func willResignActive(_ context: LifecycleContext) async throws { recorder.record("job willResignActive") }
    func didEnterBackground(_ context: LifecycleContext) async throws { recorder.record("job didEnterBackground") }
    func willEnterForeground(_ context: LifecycleContext) async throws {
        recorder.record("job willEnterForeground")
    }
}

/// A module whose work runs all along: it shows the host and the other work going on.
struct Bystander: WorkingModule {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("serve") { _, context in
            context.recorder.record("serve start")
            await context.gracefulShutdown()
            context.recorder.record("serve stop")
        }
    }
}

/// Active work that throws in its first run only; temporary, and left stopped when it fails.
struct ActiveQuitter: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("quitter", .whileActive, policy: WorkPolicy(restart: .temporary, escalation: .ignore)) { _, context in
            context.recorder.record("quitter start")
            if context.recorder.count("quitter start") == 1 { throw WorkFailure(label: "quitter") }
            await context.gracefulShutdown()
            context.recorder.record("quitter stop")
        }
    }
}

/// The `Ender` type for a restart type and an escalation.
func enderType(_ restart: WorkPolicy.Restart, _ escalation: WorkPolicy.Escalation) -> any LifecycleModule.Type {
    func with<R: RestartTag>(_: R.Type) -> any LifecycleModule.Type {
        switch escalation {
        case .ignore: Ender<R, IgnoreTag>.self
        case .quarantineModule: Ender<R, QuarantineTag>.self
        case .terminateApplication: Ender<R, TerminateTag>.self
        }
    }
    switch restart {
    case .permanent: return with(PermanentTag.self)
    case .transient: return with(TransientTag.self)
    case .temporary: return with(TemporaryTag.self)
    }
}

let allRestarts: [WorkPolicy.Restart] = [.permanent, .transient, .temporary]
let allEscalations: [WorkPolicy.Escalation] = [.ignore, .quarantineModule, .terminateApplication]

@Suite("Work: ending by itself under each restart type and escalation")
struct WorkEndingTests {
    func rig(_ type: any LifecycleModule.Type, _ ending: Ending) throws -> WorkRig {
        try workRig([type, Bystander.self], journal: 256, options: { $0[EndingKey.self] = ending })
    }

    /// The host went on as if nothing happened: active, nothing quarantined, no failure, the other work up.
    func expectUndisturbed(_ rig: WorkRig) {
        #expect(rig.host.state == .active)
        #expect(rig.host.quarantinedModules.isEmpty)
        #expect(rig.host.terminationFailure == nil)
        #expect(rig.status(Bystander.self, "serve")?.phase == .ready)
    }

    @Test(
        "A work that returns early: permanent is restarted, transient and temporary finish; no escalation",
        arguments: allRestarts,
        allEscalations
    )
    func returnsEarly(restart: WorkPolicy.Restart, escalation: WorkPolicy.Escalation) async throws {
        let type = enderType(restart, escalation)
        let rig = try rig(type, .returnsOnce)
        try await rig.host.launch()
        #expect(await rig.recorder.wait(for: "serve start"))
        if restart == .permanent {
            #expect(await rig.wait(type, "job") { $0.attempts == 2 && $0.phase == .ready })
            #expect(await rig.recorder.wait(for: "job start 2"))
        } else {
            #expect(await rig.wait(type, "job") { $0.phase == .finished })
        }
        // Nothing more happens: no further attempt, no escalation.
        let attempts = restart == .permanent ? 2 : 1
        #expect(await stillHolds { rig.status(type, "job")?.attempts == attempts })
        #expect(rig.recorder.count("job returned") == 1)
        expectUndisturbed(rig)
        // A run's phase turns just before its note is written: wait for the notes.
        let expected: [Substring] =
            restart == .permanent
            ? ["workStarted", "workRestarting", "workRestarted"] : ["workStarted", "workFinished"]
        func notes() -> [Substring] {
            rig.workNotes.filter { $0.contains("Ender") }.map { $0.prefix { $0 != " " } }
        }
        #expect(await eventually { notes() == expected }, "\(notes())")

        try await rig.host.terminate()
        #expect(rig.status(type, "job")?.phase == (restart == .permanent ? .stopped : .finished))
        #expect(rig.recorder.count("job stop") == (restart == .permanent ? 1 : 0))
        #expect(rig.recorder.contains("serve stop"))
    }

    @Test(
        "A work that throws once: permanent and transient are restarted and run on; no escalation",
        arguments: [WorkPolicy.Restart.permanent, .transient],
        allEscalations
    )
    func throwsOnce(restart: WorkPolicy.Restart, escalation: WorkPolicy.Escalation) async throws {
        let type = enderType(restart, escalation)
        let rig = try rig(type, .throwsOnce)
        try await rig.host.launch()
        #expect(await rig.wait(type, "job") { $0.attempts == 2 && $0.phase == .ready })
        #expect(await stillHolds { rig.status(type, "job")?.attempts == 2 })
        #expect(await rig.recorder.wait(for: "serve start"))
        expectUndisturbed(rig)
        try await rig.host.terminate()
        #expect(
            rig.recorder.entries.filter { $0.hasPrefix("job") } == [
                "job start 1", "job threw", "job start 2", "job stop",
            ]
        )
        #expect(rig.status(type, "job")?.phase == .stopped)
    }

    @Test(
        "A work that keeps throwing escalates: temporary at once, the others past 2 restarts",
        arguments: allRestarts,
        allEscalations
    )
    func keepsThrowing(restart: WorkPolicy.Restart, escalation: WorkPolicy.Escalation) async throws {
        let type = enderType(restart, escalation)
        let rig = try rig(type, .throwsUntilHealed)
        try await rig.host.launch()
        #expect(await rig.recorder.wait(for: "serve start"))
        let attempts = restart == .temporary ? 1 : 3
        let cause: WorkError.Cause =
            restart == .temporary ? .failedTemporary : .restartsExhausted(restarts: 2, within: .seconds(60))

        switch escalation {
        case .ignore:
            // Left stopped; the host and the other work go on.
            #expect(await rig.wait(type, "job") { $0.phase == .gaveUp })
            #expect(rig.status(type, "job")?.attempts == attempts)
            #expect(await stillHolds { rig.status(type, "job")?.phase == .gaveUp })
            expectUndisturbed(rig)
            try await rig.host.terminate()
            #expect(rig.status(type, "job")?.phase == .gaveUp)

        case .quarantineModule:
            #expect(await eventually { rig.host.quarantinedModules.map(\.module) == [type.moduleName] })
            #expect(rig.recorder.count("job threw") == attempts)
            let reason = rig.host.quarantinedModules.first?.reason ?? ""
            #expect(reason.contains("work `job`"), "\(reason)")
            // Taken down and out (its teardown is its last delivery): its hooks are no longer delivered, and
            // it lists no work.
            try await rig.host.waitUntilIdle()
            let teardown = ["job willResignActive", "job didEnterBackground"]
            #expect(rig.recorder.entries.filter { $0.hasPrefix("job w") || $0.hasPrefix("job d") } == teardown)
            try await rig.host.enterBackground()
            try await rig.host.enterForeground()
            #expect(rig.recorder.entries.filter { $0.hasPrefix("job w") || $0.hasPrefix("job d") } == teardown)
            #expect(!rig.host.participants.contains { $0.name == type.moduleName })
            #expect(rig.status(type, "job") == nil)
            #expect(rig.host.state == .active)
            #expect(rig.host.terminationFailure == nil)
            // Released, healed: it comes back with its hooks and its work, from attempt 1.
            rig.gates.open("healed")
            try await rig.host.releaseQuarantine(type)
            #expect(rig.host.quarantinedModules.isEmpty)
            #expect(await rig.wait(type, "job") { $0.phase == .ready && $0.attempts == 1 })
            #expect(await rig.recorder.wait(for: "job start 1", times: 2))
            try await rig.host.enterBackground()
            #expect(rig.recorder.count("job willResignActive") == 2)
            try await rig.host.terminate()
            #expect(rig.recorder.count("job stop") == 1)

        case .terminateApplication:
            try await rig.host.waitUntilTerminated()
            #expect(rig.host.state == .terminated)
            #expect(rig.recorder.count("job threw") == attempts)
            let failure = try #require(rig.host.terminationFailure)
            #expect(failure.code == .workFailed)
            let error = try #require(failure.underlyingError as? WorkError)
            #expect(error.module == type.moduleName)
            #expect(error.work == "job")
            #expect(error.cause == cause)
            #expect(error.failure is WorkFailure)
            // Graceful: the other work was asked to stop, and stopped.
            #expect(rig.recorder.contains("serve stop"))
            #expect(rig.status(Bystander.self, "serve")?.phase == .stopped)
            #expect(rig.status(type, "job")?.phase == .gaveUp)
        }
    }

    @Test("Active work that gave up (escalation .ignore) starts again the next time the application is active")
    func gaveUpActiveWorkComesBack() async throws {
        let rig = try workRig([ActiveQuitter.self])
        try await rig.host.launch()
        #expect(await rig.wait(ActiveQuitter.self, "quitter") { $0.phase == .gaveUp })
        try await rig.host.resignActive()
        #expect(rig.status(ActiveQuitter.self, "quitter")?.phase == .gaveUp)
        try await rig.host.becomeActive()
        #expect(await rig.wait(ActiveQuitter.self, "quitter") { $0.phase == .ready && $0.attempts == 1 })
        try await rig.host.terminate()
        #expect(rig.recorder.entries == ["quitter start", "quitter start", "quitter stop"])
    }
}
