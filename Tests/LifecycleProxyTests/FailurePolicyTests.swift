import LifecycleCore
import LifecycleProxy
import Testing

/// A recording module that aborts launch when it fails, whatever the host's policy.
struct Critical: RecordingModule, FailurePolicyModule {
    static let priority: ModulePriority = .normal
    static let failurePolicy: ModuleFailurePolicy = .abort
    let script: Script
}

/// A recording module whose failures never stop launch, whatever the host's policy.
struct NiceToHave: RecordingModule, FailurePolicyModule {
    static let priority: ModulePriority = .normal - 1
    static let failurePolicy: ModuleFailurePolicy = .isolate
    let script: Script
}

@Suite("Per-module failure policy")
struct FailurePolicyTests {
    @Test("A module declaring .abort aborts launch, with rollback, even when the host continues")
    func moduleAbortsUnderContinue() async throws {
        let script = Script(failing: ["Critical willFinishLaunching"])
        let host = try makeHost([High.self, Critical.self, Low.self], script: script)  // host policy: .continue
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.code == .launchAborted)
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["High", "Critical"])
        #expect(script.journal.receivers(of: "willTerminate") == ["High"])
        #expect(host.state == .terminated)
    }

    @Test("A module declaring .isolate does not abort launch, even when the host aborts; others still do")
    func moduleIsolatesUnderAbort() async throws {
        let script = Script(failing: ["NiceToHave willFinishLaunching"])
        let host = try makeHost(
            [High.self, NiceToHave.self, Low.self],
            script: script,
            configuration: .init(launchFailurePolicy: .abort)
        )
        let error = await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(error?.code == .hookFailed)
        #expect(error?.failures.map(\.participant.name) == [NiceToHave.moduleName])
        #expect(script.journal.receivers(of: "willFinishLaunching") == ["High", "NiceToHave", "Low"])
        #expect(host.state == .active)

        let second = Script(failing: ["NiceToHave willFinishLaunching", "Low didFinishLaunching"])
        let strict = try makeHost(
            [High.self, NiceToHave.self, Low.self],
            script: second,
            configuration: .init(launchFailurePolicy: .abort)
        )
        let aborted = await #expect(throws: LifecycleError.self) { try await strict.launch() }
        #expect(aborted?.code == .launchAborted, "Low has no policy of its own, so the host's .abort applies")
    }
}
