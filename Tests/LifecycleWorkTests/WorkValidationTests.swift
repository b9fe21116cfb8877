import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// Work that cannot be run is refused before anything is created: at the host's creation, or at
// registration.

struct TwoNames: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) { context.launchOptions[RecorderKey.self].record("created") }
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("dup") { _, _ in }
        work.run("dup") { _, _ in }
    }
}

struct NegativeGrace: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) { context.launchOptions[RecorderKey.self].record("created") }
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("bad", policy: WorkPolicy(gracePeriod: .seconds(-1))) { _, _ in }
    }
}

struct WideJitter: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) { context.launchOptions[RecorderKey.self].record("created") }
    static func declareWork(_ work: inout WorkList<Self>) {
        let backoff = WorkPolicy.Backoff(initial: .seconds(1), maximum: .seconds(2), jitter: 2)
        work.run("bad", policy: WorkPolicy(backoff: backoff)) { _, _ in }
    }
}

struct ShrinkingBackoff: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) { context.launchOptions[RecorderKey.self].record("created") }
    static func declareWork(_ work: inout WorkList<Self>) {
        let backoff = WorkPolicy.Backoff(initial: .seconds(1), maximum: .seconds(2), multiplier: 0.5)
        work.run("bad", policy: WorkPolicy(backoff: backoff)) { _, _ in }
    }
}

struct Unnamed: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) { context.launchOptions[RecorderKey.self].record("created") }
    static func declareWork(_ work: inout WorkList<Self>) { work.run("") { _, _ in } }
}

/// Each invalid module, and what its error must say.
let invalidWork: [(type: any LifecycleModule.Type, says: String)] = [
    (TwoNames.self, "two works named `dup`"),
    (NegativeGrace.self, "gracePeriod"),
    (WideJitter.self, "jitter"),
    (ShrinkingBackoff.self, "multiplier"),
    (Unnamed.self, "empty name"),
]

@Suite("Work: invalid declarations")
struct WorkValidationTests {
    @Test(
        "An invalid work makes the host's creation throw invalidWork naming the module; nothing is created",
        arguments: 0..<invalidWork.count
    )
    func refusedAtCreation(_ index: Int) throws {
        let (type, says) = invalidWork[index]
        let recorder = Recorder()
        var options = LaunchOptions()
        options[RecorderKey.self] = recorder
        let error = #expect(throws: ManifestError.self) {
            _ = try ApplicationHost(
                manifest: ModuleManifest(name: "Work", [Bystander.self, type]).withWork(),
                launchOptions: options,
                configuration: .init(hookBudget: nil, terminateDeadline: nil)
            )
        }
        #expect(error?.code == .invalidWork)
        #expect(error?.modules == [type.moduleName])
        #expect(error?.description.contains(says) == true, "\(String(describing: error))")
        #expect(recorder.entries.isEmpty)
    }

    @Test("Every problem is listed at once")
    func allProblems() throws {
        let error = #expect(throws: ManifestError.self) {
            _ = try ApplicationHost(
                manifest: ModuleManifest(name: "Work", invalidWork.map(\.type)).withWork(),
                configuration: .init(hookBudget: nil, terminateDeadline: nil)
            )
        }
        #expect(Set(error?.modules ?? []) == Set(invalidWork.map { $0.type.moduleName }))
    }

    @Test(
        "Registering a module with invalid work at run time fails with registrationFailed; nothing changes",
        arguments: 0..<invalidWork.count
    )
    func refusedAtRegistration(_ index: Int) async throws {
        let (type, says) = invalidWork[index]
        let rig = try workRig([Bystander.self])
        try await rig.host.launch()
        let participants = rig.host.participants
        let error = await #expect(throws: LifecycleError.self) { try await rig.host.register(type) }
        #expect(error?.code == .registrationFailed)
        let cause = error?.underlyingError as? ManifestError
        #expect(cause?.code == .invalidWork)
        #expect(cause?.modules == [type.moduleName])
        #expect(cause?.description.contains(says) == true)
        #expect(rig.host.participants == participants)
        #expect(!rig.recorder.contains("created"))
        #expect(rig.host.workStatus.count == 1)
        #expect(rig.host.state == .active)
        try await rig.host.terminate()
    }
}
