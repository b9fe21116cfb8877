import Foundation
import LifecycleCore
import LifecycleTesting
import Testing

// The fixture modules live in a generic namespace on purpose: RuntimeConformancesTests pins the exact module
// types this target declares, and the runtime scan (like the completeness check) skips generic types. A
// generic type cannot have static stored properties, hence the computed `priority` and `dependencies`.

/// The launch option that makes `Second` throw in these events.
private enum FailingEventsKey: LaunchOptionKey {
    static let defaultValue: Set<LifecycleEvent> = []
}

private struct Failure: Error, CustomStringConvertible {
    var description: String { "Second failed" }
}

/// A custom event `Poster` posts from its launch hook.
private struct Ping: CustomEvent {}

/// Holds a hook until opened, ignoring cancellation, like a hook stuck in a blocking call.
private final class Gate: Sendable {
    private let state = Locked<(entered: Bool, open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
        (false, false, [])
    )

    func pass() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                state.entered = true
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }

    func waitUntilEntered() async {
        while !state.withLock({ $0.entered }) { await Task.yield() }
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

private enum GateKey: LaunchOptionKey {
    static let defaultValue = Gate()
}

private struct AppDelegate: ApplicationDelegate, WillFinishLaunching, OpenURL {
    func willFinishLaunching(_ context: LifecycleContext) -> Bool { false }
    func open(_ url: URL, context: LifecycleContext) -> Bool { false }
}

private enum Fixtures<Tag> {
    struct First: LifecycleModule, WillFinishLaunching, DidFinishLaunching, WillTerminate {
        static var priority: ModulePriority { .high }
        init(context: LifecycleContext) {}
        func willFinishLaunching(_ context: LifecycleContext) -> Bool { false }
        func didFinishLaunching(_ context: LifecycleContext) -> Bool { true }
        func willTerminate(_ context: LifecycleContext) {}
    }

    /// Depends on `First`; answers open-URL; throws in the events `FailingEventsKey` names.
    struct Second: LifecycleModule, DependentModule, WillFinishLaunching, DidFinishLaunching, OpenURL, WillTerminate {
        static var priority: ModulePriority { .maximum }
        static var dependencies: [any LifecycleModule.Type] { [First.self] }
        let failing: Set<LifecycleEvent>
        init(context: LifecycleContext) { failing = context.launchOptions[FailingEventsKey.self] }

        func willFinishLaunching(_ context: LifecycleContext) throws -> Bool {
            try fail(in: .willFinishLaunching)
            return true
        }
        func didFinishLaunching(_ context: LifecycleContext) throws -> Bool {
            try fail(in: .didFinishLaunching)
            return false
        }
        func open(_ url: URL, context: LifecycleContext) -> Bool { true }
        func willTerminate(_ context: LifecycleContext) {}

        private func fail(in event: LifecycleEvent) throws {
            if failing.contains(event) { throw Failure() }
        }
    }

    /// Takes part only in the staging profile.
    struct StagingOnly: LifecycleModule, EnvironmentGatedModule, WillFinishLaunching {
        static var priority: ModulePriority { .low }
        init(context: LifecycleContext) {}
        static func enablement(for options: LaunchOptions) -> ModuleEnablement {
            .onlyInProfiles(["staging"], options)
        }
        func willFinishLaunching(_ context: LifecycleContext) -> Bool { true }
    }

    /// Posts `Ping` from its launch hook, and handles it.
    struct Poster: LifecycleModule, DidFinishLaunching, CustomEventHandling {
        static var priority: ModulePriority { .normal }
        init(context: LifecycleContext) {}
        func didFinishLaunching(_ context: LifecycleContext) -> Bool {
            context.events.post(Ping())
            return true
        }
        static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
            handlers.on(Ping.self) { _, _, _ in }
        }
    }

    /// Waits at the gate in its first launch hook.
    struct Stuck: LifecycleModule, WillFinishLaunching {
        static var priority: ModulePriority { .normal }
        let gate: Gate
        init(context: LifecycleContext) { gate = context.launchOptions[GateKey.self] }
        func willFinishLaunching(_ context: LifecycleContext) async -> Bool {
            await gate.pass()
            return true
        }
    }

    /// Depends on `First`, which the manifest below does not list.
    struct Orphan: LifecycleModule, DependentModule {
        static var priority: ModulePriority { .normal }
        static var dependencies: [any LifecycleModule.Type] { [First.self] }
        init(context: LifecycleContext) {}
    }
}

private enum Kit {}
private typealias First = Fixtures<Kit>.First
private typealias Second = Fixtures<Kit>.Second
private typealias StagingOnly = Fixtures<Kit>.StagingOnly
private typealias Poster = Fixtures<Kit>.Poster
private typealias Stuck = Fixtures<Kit>.Stuck
private typealias Orphan = Fixtures<Kit>.Orphan

@Suite("Recorder")
struct RecorderTests {
    @Test("Every delivery is recorded in order, with its participant, result and error")
    func recordsEveryDelivery() async throws {
        var options = LaunchOptions()
        options[FailingEventsKey.self] = [.didFinishLaunching]
        let launch = try await launchManifest(
            ModuleManifest([Second.self, First.self]),
            delegate: AppDelegate(),
            launchOptions: options
        )
        let delegate = String(reflecting: AppDelegate.self)
        let rows = launch.recorder.deliveries.map { delivery in
            "\(delivery.event) \(delivery.participant.name) \(delivery.result.map { "\($0)" } ?? "-") "
                + (delivery.error.map { "\($0)" } ?? "ok")
        }
        #expect(
            rows == [
                "willFinishLaunching \(delegate) false ok",
                "willFinishLaunching \(First.moduleName) false ok",
                "willFinishLaunching \(Second.moduleName) true ok",
                "didFinishLaunching \(First.moduleName) true ok",
                "didFinishLaunching \(Second.moduleName) - Second failed",
            ]
        )
        #expect(launch.deliveries.count == rows.count)
    }

    @Test("Receivers and events are read per event and per participant; reset forgets everything")
    func queries() async throws {
        let launch = try await launchManifest(ModuleManifest([Second.self, First.self]), delegate: AppDelegate())
        let delegate = String(reflecting: AppDelegate.self)
        try await launch.host.terminate()
        let recorder = launch.recorder
        #expect(recorder.receivers(of: .willTerminate) == [Second.moduleName, First.moduleName])
        #expect(recorder.events(of: First.self) == [.willFinishLaunching, .didFinishLaunching, .willTerminate])
        #expect(recorder.events(of: delegate) == [.willFinishLaunching])
        #expect(recorder.events(of: StagingOnly.self) == [])

        recorder.reset()
        #expect(recorder.deliveries.isEmpty)
        #expect(launch.deliveries.count == 5, "what launch recorded is kept with the launch")
    }

    @Test("Assertions given module types check a real host's deliveries, and fail when they are wrong")
    func assertionsWithModuleTypes() async throws {
        let launch = try await launchManifest(ModuleManifest([Second.self, First.self]))
        try await launch.host.terminate()
        expectReceivers(of: .willTerminate, in: launch.recorder, [Second.self, First.self])
        expectDelivery(of: .willTerminate, to: Second.self, before: First.self, in: launch.recorder)

        withKnownIssue {
            expectReceivers(of: .willTerminate, in: launch.recorder, [First.self, Second.self])
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix(
                "Receivers of willTerminate differ at index 0: expected \(First.moduleName), received "
            ) == true
        }
        withKnownIssue {
            expectDelivery(of: .willFinishLaunching, to: Second.self, before: First.self, in: launch.recorder)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix(
                "Expected \(Second.moduleName) to receive willFinishLaunching before \(First.moduleName), but "
                    + "\(Second.moduleName) received it after \(First.moduleName)."
            ) == true
        }
    }

    @Test("Deliveries recorded from many tasks at once are all kept")
    func concurrentRecording() async {
        let recorder = LifecycleRecorder()
        let participant = Participant(name: "A", priority: .normal, id: 1)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    recorder.observer(
                        DeliveryRecord(
                            event: .openURL,
                            participant: participant,
                            start: .now,
                            duration: .zero,
                            result: true,
                            error: nil
                        )
                    )
                }
            }
        }
        #expect(recorder.deliveries.count == 100)
    }
}

@Suite("Launching a manifest", .timeLimit(.minutes(1)))
struct ManifestLaunchTests {
    @Test("The plan lists participants in order, each event's receivers, and disabled modules with reasons")
    func plan() async throws {
        let launch = try await launchManifest(
            ModuleManifest([Second.self, First.self, StagingOnly.self]),
            delegate: AppDelegate()
        )
        let delegate = String(reflecting: AppDelegate.self)
        #expect(launch.plan.participants.map(\.name) == [delegate, First.moduleName, Second.moduleName])
        #expect(launch.plan.receivers(of: .willTerminate).map(\.name) == [Second.moduleName, First.moduleName])
        #expect(launch.plan.receivers(of: .openURL).map(\.name) == [delegate, Second.moduleName])
        #expect(launch.plan.disabledModules.map(\.name) == [StagingOnly.moduleName])
        #expect(
            launch.plan.disabledReason(for: StagingOnly.self)
                == "enabled only in profile staging; the launch profile is not set"
        )
        #expect(launch.plan.disabledReason(for: First.self) == nil)
        #expect(launch.result == LaunchResult(willFinishLaunching: true, didFinishLaunching: true))
        #expect(launch.error == nil)
        #expect(launch.host.state == .active)
    }

    @Test("The profile argument selects the profile, over what the launch options say")
    func profile() async throws {
        let options = LaunchOptions(arguments: ["shop", "--profile", "production"])
        let launch = try await launchManifest(
            ModuleManifest([First.self, StagingOnly.self]),
            launchOptions: options,
            profile: "staging"
        )
        #expect(launch.plan.disabledModules.isEmpty)
        #expect(launch.recorder.receivers(of: .willFinishLaunching) == [First.moduleName, StagingOnly.moduleName])
        #expect(launch.host.context.launchOptions.arguments == options.arguments)
    }

    @Test("A failed launch is returned, not thrown: its error, and the rollback in the deliveries")
    func failedLaunch() async throws {
        var options = LaunchOptions()
        options[FailingEventsKey.self] = [.willFinishLaunching]
        let launch = try await launchManifest(
            ModuleManifest([First.self, Second.self]),
            launchOptions: options,
            configuration: .init(launchFailurePolicy: .abort)
        )
        #expect(launch.result == nil)
        #expect(launch.error?.code == .launchAborted)
        #expect(launch.error?.rolledBack.map(\.name) == [First.moduleName])
        #expect(launch.host.state == .terminated)
        expectReceivers(of: .willTerminate, in: launch.recorder, [First.self])
    }

    @Test("A manifest the host cannot be built from throws the ManifestError")
    func manifestError() async {
        await #expect {
            try await launchManifest(ModuleManifest(name: "Partial", [Orphan.self]))
        } throws: { error in
            "\(error)".contains("depends on `\(First.moduleName)`, which is not in manifest `Partial`")
        }
    }

    @Test("Requests that launch hooks post are delivered and recorded before the helper returns")
    func postedRequests() async throws {
        let launch = try await launchManifest(ModuleManifest([Poster.self]))
        #expect(launch.deliveries.map(\.event) == [.didFinishLaunching, LifecycleEvent(custom: Ping.self)])
    }

    @Test("The configuration's own observer still sees every delivery")
    func configuredObserver() async throws {
        let own = LifecycleRecorder()
        let launch = try await launchManifest(
            ModuleManifest([First.self, Second.self]),
            configuration: .init(onDelivery: own.observer)
        )
        #expect(own.deliveries.count == 4)
        #expect(own.deliveries.map(\.participant) == launch.deliveries.map(\.participant))
    }

    @Test("Budgets run on the virtual clock: the default 30 s budget expires only when the test advances it")
    func virtualClock() async throws {
        let clock = VirtualClock()
        let gate = Gate()
        var options = LaunchOptions()
        options[GateKey.self] = gate
        let launchOptions = options
        let launching = Task {
            try await launchManifest(ModuleManifest([Stuck.self]), launchOptions: launchOptions, clock: clock)
        }
        await gate.waitUntilEntered()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1, "29 s in, the watchdog is still waiting for the budget to run out")

        clock.advance(by: .seconds(2))
        let launch = try await launching.value
        gate.open()
        #expect(launch.clock === clock)
        #expect(launch.error?.code == .hookFailed)
        let timeout = try #require(launch.error?.failures.first?.error as? HookTimeout)
        #expect(timeout.participant == Stuck.moduleName)
        #expect(timeout.budget == .seconds(30))
        #expect(launch.deliveries.first?.error is HookTimeout)
    }
}
