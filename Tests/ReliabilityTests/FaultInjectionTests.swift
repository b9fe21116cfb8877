import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// What a fault module does in one event, instead of (or after) recording it.
enum Fault: Sendable {
    case `throw`
    /// Waits for the latch, ignoring cancellation: a hook stuck in a blocking call.
    case hang
    /// Spins until its task is cancelled: a hook that stops when told to.
    case spinUntilCancelled
    /// Posts a request from inside the hook.
    case post(HostRequest)
}

struct FaultError: Error, CustomStringConvertible {
    var description: String { "injected failure" }
}

/// The faults of one test, by "Module event", and what happened.
final class FaultPlan: Sendable {
    let faults: [String: Fault]
    let latch = FaultLatch()
    private let log = Locked<[String]>([])
    private let returns = Locked<[String]>([])

    init(_ faults: [String: Fault] = [:]) { self.faults = faults }

    var entries: [String] { log.withLock { $0 } }
    /// Hooks that returned after a fault: "Module event".
    var returned: [String] { returns.withLock { $0 } }

    func receivers(of event: String) -> [String] {
        entries.filter { $0.hasSuffix(" \(event)") }.map { String($0.split(separator: " ")[0]) }
    }

    func run(_ module: String, _ event: String, _ context: LifecycleContext) async throws {
        log.withLock { $0.append("\(module) \(event)") }
        switch faults["\(module) \(event)"] {
        case nil: return
        case .throw: throw FaultError()
        case .hang: await latch.hold()
        case .spinUntilCancelled:
            while !Task.isCancelled { await Task.yield() }
        case .post(let request): context.events.post(request)
        }
        returns.withLock { $0.append("\(module) \(event)") }
    }
}

/// Holds hooks until opened, ignoring cancellation entirely.
final class FaultLatch: Sendable {
    private let state = Locked<(entered: Int, open: Bool, waiters: [CheckedContinuation<Void, Never>])>((0, false, []))

    func hold() async {
        await withCheckedContinuation { continuation in
            let resume = state.withLock { state in
                state.entered += 1
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    func waitUntilEntered() async {
        while state.withLock({ $0.entered }) == 0 { await Task.yield() }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

enum FaultPlanKey: LaunchOptionKey {
    static let defaultValue = FaultPlan()
}

protocol FaultModule: LifecycleModule, DidBecomeActive, DidReceiveMemoryWarning, WillTerminate {
    var plan: FaultPlan { get }
}

extension FaultModule {
    var name: String { String(describing: Self.self) }
    func didBecomeActive(_ context: LifecycleContext) async throws {
        try await plan.run(name, "didBecomeActive", context)
    }
    func didReceiveMemoryWarning(_ context: LifecycleContext) async throws {
        try await plan.run(name, "didReceiveMemoryWarning", context)
    }
    func willTerminate(_ context: LifecycleContext) async throws { try await plan.run(name, "willTerminate", context) }
}

struct FaultA: FaultModule {
    static let priority: ModulePriority = .high
    let plan: FaultPlan
    init(context: LifecycleContext) { plan = context.launchOptions[FaultPlanKey.self] }
}

struct FaultB: FaultModule {
    static let priority: ModulePriority = .normal
    let plan: FaultPlan
    init(context: LifecycleContext) { plan = context.launchOptions[FaultPlanKey.self] }
}

struct FaultC: FaultModule {
    static let priority: ModulePriority = .low
    let plan: FaultPlan
    init(context: LifecycleContext) { plan = context.launchOptions[FaultPlanKey.self] }
}

/// Registered at run time by FaultA in one test.
struct FaultLate: FaultModule {
    static let priority: ModulePriority = .normal + 1
    let plan: FaultPlan
    init(context: LifecycleContext) { plan = context.launchOptions[FaultPlanKey.self] }
}

struct FaultInitError: Error, CustomStringConvertible {
    var description: String { "the vault is sealed" }
}

struct FaultThrowingInit: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) throws { throw FaultInitError() }
}

/// Every fault the reliability suite injects, with the outcome Docs/Reliability.md documents.
@Suite("Fault injection", .timeLimit(.minutes(1)))
struct FaultInjectionTests {
    struct Rig {
        let host: ApplicationHost
        let plan: FaultPlan
        let clock: VirtualClock

        /// Once the faulty hook is held and the watchdog sleeps, moves the clock past the budget.
        func passBudget(by duration: Duration = .seconds(2)) async {
            await clock.waitForSleepers(1)
            clock.advance(by: duration)
        }
    }

    func rig(
        _ faults: [String: Fault],
        _ modules: [any LifecycleModule.Type] = [FaultA.self, FaultB.self, FaultC.self],
        configure: (inout ApplicationHost.Configuration) -> Void = { _ in }
    ) throws -> Rig {
        let plan = FaultPlan(faults)
        let clock = VirtualClock()
        var options = LaunchOptions()
        options[FaultPlanKey.self] = plan
        var configuration = ApplicationHost.Configuration(clock: clock, hookBudget: .seconds(1))
        configure(&configuration)
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Faults", modules),
            launchOptions: options,
            configuration: configuration
        )
        return Rig(host: host, plan: plan, clock: clock)
    }

    @Test("A hook that throws: the others still receive the event; one hookFailed names module and event")
    func throwingHook() async throws {
        let rig = try rig(["FaultB didReceiveMemoryWarning": .throw])
        try await rig.host.launch()
        let error = try await #require(throws: LifecycleError.self) { try await rig.host.receiveMemoryWarning() }
        #expect(error.code == .hookFailed)
        #expect(error.failures.map(\.participant.name) == [FaultB.moduleName])
        #expect(error.failures.map(\.event) == [.didReceiveMemoryWarning])
        #expect(error.failures.first?.error is FaultError)
        #expect(rig.plan.receivers(of: "didReceiveMemoryWarning") == ["FaultA", "FaultB", "FaultC"])
        #expect(rig.host.state == .active)
    }

    @Test("A hook that hangs past its budget: abandoned, its module degraded, the others served")
    func hangingHook() async throws {
        let rig = try rig(["FaultB didReceiveMemoryWarning": .hang])
        defer { rig.plan.latch.open() }
        try await rig.host.launch()
        let warning = Task { try await rig.host.receiveMemoryWarning() }
        await rig.plan.latch.waitUntilEntered()
        await rig.passBudget()
        let error = try await #require(throws: LifecycleError.self) { try await warning.value }
        #expect(error.code == .hookFailed)
        let timeout = try #require(error.failures.first?.error as? HookTimeout)
        #expect(timeout.participant == FaultB.moduleName)
        #expect(timeout.event == .didReceiveMemoryWarning)
        #expect(rig.plan.receivers(of: "didReceiveMemoryWarning") == ["FaultA", "FaultB", "FaultC"])
        #expect(await rig.host.degradedModules.map(\.name) == [FaultB.moduleName])
    }

    @Test("A hook that ignores cancellation: when it finally returns, nothing is delivered twice or reported late")
    func ignoresCancellation() async throws {
        let rig = try rig(["FaultB didReceiveMemoryWarning": .hang])
        try await rig.host.launch()
        let warning = Task { try await rig.host.receiveMemoryWarning() }
        await rig.plan.latch.waitUntilEntered()
        await rig.passBudget()
        _ = await warning.result
        let recordsBefore = rig.host.journal?.entries.count
        #expect(rig.plan.returned.isEmpty)  // still stuck, though its task was cancelled

        rig.plan.latch.open()  // the abandoned hook returns now
        while rig.plan.returned.isEmpty { await Task.yield() }
        try await rig.host.receiveMemoryWarning()  // and the host goes on normally
        #expect(
            rig.plan.receivers(of: "didReceiveMemoryWarning") == ["FaultA", "FaultB", "FaultC"] + [
                "FaultA", "FaultB", "FaultC",
            ]
        )
        // The late return added no journal record: only the next warning's three.
        #expect(rig.host.journal?.entries.count == recordsBefore.map { $0 + 3 })
    }

    @Test("A hook that stops when cancelled is abandoned the same way, and its task really is cancelled")
    func cooperativeHang() async throws {
        let rig = try rig(["FaultB didReceiveMemoryWarning": .spinUntilCancelled])
        try await rig.host.launch()
        let warning = Task { try await rig.host.receiveMemoryWarning() }
        await rig.passBudget()
        let error = try await #require(throws: LifecycleError.self) { try await warning.value }
        #expect(error.failures.first?.error is HookTimeout)
        while rig.plan.returned.isEmpty { await Task.yield() }  // the cancellation reached the hook
        #expect(rig.plan.returned == ["FaultB didReceiveMemoryWarning"])
    }

    @Test("A willTerminate that hangs: terminate() ends at its deadline, terminated, naming what was abandoned")
    func hangingTerminate() async throws {
        let rig = try rig(["FaultB willTerminate": .hang]) {
            $0.hookBudget = nil
            $0.terminateDeadline = .seconds(5)
        }
        defer { rig.plan.latch.open() }
        try await rig.host.launch()
        let terminate = Task { try await rig.host.terminate() }
        await rig.plan.latch.waitUntilEntered()
        await rig.passBudget(by: .seconds(6))
        let error = try await #require(throws: LifecycleError.self) { try await terminate.value }
        #expect(error.code == .deadlineExceeded)
        // Reverse order: C, then B hangs; A is never reached.
        #expect(error.abandoned.map(\.name) == [FaultB.moduleName, FaultA.moduleName])
        #expect(rig.host.state == .terminated)
    }

    @Test("A hook that emits events: they are delivered after the request in progress, never nested")
    func emitsFromHook() async throws {
        let rig = try rig(["FaultA didBecomeActive": .post(.enterBackground)])
        try await rig.host.launch()
        #expect(rig.host.state == .active || rig.host.state == .background)
        try await rig.host.waitUntilIdle()
        #expect(rig.host.state == .background)
        // launch finished (didBecomeActive reached everyone) before the posted transition began.
        #expect(rig.plan.receivers(of: "didBecomeActive") == ["FaultA", "FaultB", "FaultC"])
    }

    @Test("A module that removes itself during a hook: the event completes, then its teardown; then it is gone")
    func removesItself() async throws {
        let rig = try rig(["FaultB didReceiveMemoryWarning": .post(.remove(FaultB.self))])
        try await rig.host.launch()
        try await rig.host.receiveMemoryWarning()
        try await rig.host.waitUntilIdle()
        #expect(rig.plan.receivers(of: "didReceiveMemoryWarning") == ["FaultA", "FaultB", "FaultC"])
        #expect(rig.plan.receivers(of: "willTerminate") == ["FaultB"])
        #expect(!rig.host.participants.map(\.name).contains(FaultB.moduleName))
        try await rig.host.receiveMemoryWarning()
        #expect(rig.plan.receivers(of: "didReceiveMemoryWarning").suffix(2) == ["FaultA", "FaultC"])
    }

    @Test("A module that adds another during a hook: the newcomer catches up after the event, then joins in place")
    func addsAnother() async throws {
        let rig = try rig(["FaultA didReceiveMemoryWarning": .post(.register(FaultLate.self))])
        try await rig.host.launch()
        try await rig.host.receiveMemoryWarning()
        try await rig.host.waitUntilIdle()
        #expect(
            rig.plan.entries.suffix(4) == [
                "FaultA didReceiveMemoryWarning", "FaultB didReceiveMemoryWarning", "FaultC didReceiveMemoryWarning",
                "FaultLate didBecomeActive",
            ]
        )
        #expect(
            rig.host.participants.map(\.name) == [
                FaultA.moduleName, FaultLate.moduleName, FaultB.moduleName, FaultC.moduleName,
            ]
        )
    }

    @Test("A module whose initializer throws: no host is built; registered late, the host is unchanged")
    func throwingInitializer() async throws {
        let built = #expect(throws: ManifestError.self) { try self.rig([:], [FaultA.self, FaultThrowingInit.self]) }
        #expect(built?.code == .moduleInitializationFailed)
        #expect(built?.modules == [FaultThrowingInit.moduleName])
        #expect(built?.description.contains("the vault is sealed") == true)
        #expect(built?.underlyingErrors.first is FaultInitError)

        let rig = try rig([:])
        try await rig.host.launch()
        let late = try await #require(throws: LifecycleError.self) {
            try await rig.host.register(FaultThrowingInit.self)
        }
        #expect(late.code == .registrationFailed)
        #expect((late.underlyingError as? ManifestError)?.code == .moduleInitializationFailed)
        #expect(rig.host.participants.count == 3)
    }

    @Test("A request posted from a hook that fails is reported to onUnobservedError, not dropped")
    func failedPostIsReported() async throws {
        let unobserved = Locked<[LifecycleError]>([])
        let rig = try rig(["FaultA didReceiveMemoryWarning": .post(.launch)]) { configuration in
            configuration.onUnobservedError = { error in unobserved.withLock { $0.append(error) } }
        }
        try await rig.host.launch()
        try await rig.host.receiveMemoryWarning()
        try await rig.host.waitUntilIdle()
        let errors = unobserved.withLock { $0 }
        #expect(errors.map(\.code) == [.invalidTransition])
        #expect(errors.first?.request == .launch)
    }
}
