import Foundation
import LifecycleCore
import LifecycleProxy
import Synchronization
import Testing

// The examples of Docs/Modules.md, compiled and exercised.

// README: custom event
struct ReloadConfiguration: CustomEvent {
    typealias Result = Bool  // "did anything change?": OR-combined over the handlers
    var reason: String
}

struct FeatureFlagsModule: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .normal
    let flags: FlagStore

    init(context: LifecycleContext) {
        flags = context.launchOptions[FlagStoreKey.self]
    }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        handlers.on(ReloadConfiguration.self) { module, event, _ in
            module.flags.reload(because: event.reason)
        }
    }
}
// README: end

// README: async custom event handler
struct RemoteFlagsModule: LifecycleModule, CustomEventHandling {
    static let priority: ModulePriority = .low
    let flags: FlagStore

    init(context: LifecycleContext) {
        flags = context.launchOptions[FlagStoreKey.self]
    }

    static func registerCustomEventHandlers(_ handlers: inout CustomEventHandlers<Self>) {
        // `await` in the closure: the async form.
        handlers.on(ReloadConfiguration.self) { module, event, _ in
            try await Task.sleep(for: .milliseconds(1))  // stands for fetching the remote flags
            return module.flags.reload(because: "remote: \(event.reason)")
        }
    }
}
// README: end

// README: launch option key
enum FlagStoreKey: LaunchOptionKey {
    static let defaultValue = FlagStore(source: "built-in defaults")
}
// README: end

final class FlagStore: Sendable {
    let source: String
    private let reloads = Mutex<[String]>([])
    init(source: String) { self.source = source }

    func reload(because reason: String) -> Bool {
        reloads.withLock { $0.append(reason) }
        return true
    }

    var reasons: [String] { reloads.withLock { $0 } }
}

// README: post from a hook
struct CacheModule: LifecycleModule, DidReceiveMemoryWarning {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    func didReceiveMemoryWarning(_ context: LifecycleContext) {
        // Runs after the memory warning has reached every participant; never nested inside it.
        context.events.post(ReloadConfiguration(reason: "cache purged"))
    }
}
// README: end

// README: synchronous hooks
final class RequestCounterModule: LifecycleModule, DidBecomeActive, WillResignActive, DidEnterBackground {
    static let priority: ModulePriority = .normal
    let counters = Mutex<(active: Bool, flushed: Int)>((false, 0))

    init(context: LifecycleContext) {}

    // Synchronous: a discovered module's are called directly, without an `await`.
    func didBecomeActive(_ context: LifecycleContext) { counters.withLock { $0.active = true } }
    func willResignActive(_ context: LifecycleContext) { counters.withLock { $0.active = false } }

    // An asynchronous hook in the same module: each event picks its own form.
    func didEnterBackground(_ context: LifecycleContext) async throws {
        try await Task.sleep(for: .milliseconds(1))  // stands for flushing to a remote store
        counters.withLock { $0.flushed += 1 }
    }
}
// README: end

// README: environment gating
struct DebugMenuModule: LifecycleModule, EnvironmentGatedModule {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}

    static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        #if DEBUG
        return options.profile == "production" ? .disabled("never in production") : .enabled
        #else
        return .disabled("debug builds only")
        #endif
    }
}
// README: end

@Suite("Docs/Modules.md examples")
struct ModulesGuideTests {
    @Test("Sending a custom event and posting one from a hook both reach the handler, in order")
    func customEventsAndPosting() async throws {
        let store = FlagStore(source: "test")
        // README: fill launch options
        var options = LaunchOptions.current
        options[FlagStoreKey.self] = store
        let host = try ApplicationHost(
            manifest: ModuleManifest([FeatureFlagsModule.self, CacheModule.self]),
            launchOptions: options
        )
        // README: end
        try await host.launch()

        // README: send a custom event
        let changed = try await host.send(ReloadConfiguration(reason: "SIGHUP"))
        // README: end
        #expect(changed)

        try await host.receiveMemoryWarning()
        try await host.waitUntilIdle()
        #expect(store.reasons == ["SIGHUP", "cache purged"])
    }

    @Test("Synchronous and async custom event handlers are delivered in priority order")
    func asyncCustomEventHandler() async throws {
        let store = FlagStore(source: "test")
        var options = LaunchOptions()
        options[FlagStoreKey.self] = store
        let host = try ApplicationHost(
            manifest: ModuleManifest([RemoteFlagsModule.self, FeatureFlagsModule.self]),
            launchOptions: options
        )
        try await host.launch()
        #expect(try await host.send(ReloadConfiguration(reason: "SIGHUP")))
        #expect(store.reasons == ["SIGHUP", "remote: SIGHUP"], "normal priority before low")
    }

    @Test("A module mixes synchronous and asynchronous hooks; each is delivered in its event")
    func synchronousHooks() async throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest([RequestCounterModule.self]),
            launchOptions: LaunchOptions()
        )
        try await host.launch()
        let module = try #require(host.plan(for: .didBecomeActive).first)
        #expect(module.name.hasSuffix("RequestCounterModule"))
        #expect(host.plan(for: .willResignActive) == [module])
        #expect(host.plan(for: .didEnterBackground) == [module])
        try await host.enterBackground()
        #expect(host.state == .background)
    }

    @Test("The error-handling example reports each failure")
    func errorHandling() async throws {
        let host = try ApplicationHost(manifest: ModuleManifest([CacheModule.self]), launchOptions: LaunchOptions())
        let messages = await report(host)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("refused: Cannot enterBackground() while the host is notRunning") == true)
    }

    func report(_ host: ApplicationHost) async -> [String] {
        var messages: [String] = []
        // README: handle errors
        do {
            try await host.enterBackground()
        } catch let error where error.code == .invalidTransition {
            messages.append("refused: \(error)")  // nothing was delivered
        } catch let error where error.code == .hookFailed {
            for failure in error.failures {
                messages.append("\(failure.participant.name) failed in \(failure.event): \(failure.error)")
            }
        } catch {
            messages.append("\(error)")
        }
        // README: end
        return messages
    }

    @Test("The journal example reads the launch profile and exports JSON")
    func journalExample() async throws {
        let host = try ApplicationHost(manifest: ModuleManifest([CacheModule.self]), launchOptions: LaunchOptions())
        try await host.launch()
        try await host.receiveMemoryWarning()  // CacheModule's only hook
        try await host.waitUntilIdle()  // and the event it posts, which nobody handles
        // README: read the journal
        guard let journal = host.journal else { return }  // nil when journalCapacity is 0
        for row in journal.profile(for: [.willFinishLaunching, .didFinishLaunching]) {
            print("\(row.participant): \(row.total) in \(row.calls) call(s)")  // slowest first
        }
        let json = try journal.exportJSON()  // {"capacity":…,"dropped":…,"entries":[…]}
        // README: end
        #expect(String(decoding: json, as: UTF8.self).contains(#""event" : "didReceiveMemoryWarning""#))
        #expect(journal.entries.map(\.event) == ["didReceiveMemoryWarning"])
    }

    @Test("The late-registration example adds a module to a running host and removes it again")
    func lateRegistrationExample() async throws {
        let host = try ApplicationHost(manifest: ModuleManifest([CacheModule.self]), launchOptions: LaunchOptions())
        try await host.launch()
        // README: register and remove at run time
        // Catch-up: the new module alone receives launch, the stages, then didBecomeActive (host is active).
        try await host.register(FeatureFlagsModule.self)
        #expect(host.participants.count == 2)
        // Teardown: willResignActive, didEnterBackground, willTerminate, to that module alone.
        try await host.remove(FeatureFlagsModule.self)
        // README: end
        #expect(host.participants.map(\.name) == [CacheModule.moduleName])
    }

    @Test("The gating example is disabled in production, with its reason")
    func gatingExample() throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest([DebugMenuModule.self]),
            launchOptions: LaunchOptions(arguments: ["app", "--profile", "production"])
        )
        #expect(host.disabledModules.map(\.reason) == ["never in production"])
    }

    @Test("The time-limit configuration example builds a host with those limits")
    func timeLimitExample() throws {
        // README: time limits
        let configuration = ApplicationHost.Configuration(
            hookBudget: .seconds(10),  // every hook, unless its event or module says otherwise
            eventBudgets: [.didFinishLaunching: .seconds(60)],  // migrations may take a while
            timeoutPolicy: .degrade,  // abandon the slow hook, mark its module degraded, go on
            terminateDeadline: .seconds(30)  // terminate() never takes longer than this in all
        )
        // README: end
        let host = try ApplicationHost(manifest: ModuleManifest([CacheModule.self]), configuration: configuration)
        #expect(host.configuration.eventBudgets[.didFinishLaunching] == .seconds(60))
        #expect(host.configuration.timeoutPolicy == .degrade)
    }
}

// README: quarantine policy
struct PaymentsModule: LifecycleModule, QuarantinePolicyModule {
    static let priority: ModulePriority = .high
    static let quarantinePolicy: QuarantinePolicy? = nil  // never quarantined: the service needs it
    init(context: LifecycleContext) {}
}
// README: end

@Suite("Docs/Modules.md and Docs/Failures.md: switches and quarantine")
struct SwitchesGuideTests {
    @Test("The reload example turns a module off and says why")
    func reloadExample() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("modules-\(UUID()).conf").path
        try "# nothing off\n".write(toFile: file, atomically: true, encoding: .utf8)
        let host = try ApplicationHost(
            manifest: ModuleManifest([CacheModule.self, PaymentsModule.self]),
            launchOptions: LaunchOptions(arguments: ["app", "--modules-file", file])
        )
        try await host.launch()
        try "\n\(PaymentsModule.moduleName) = off\n".write(toFile: file, atomically: true, encoding: .utf8)
        // README: reload modules
        let changes = try await host.reloadModules()
        print(changes)  // "off: ReportExporterModule (switched off by /etc/my-server/modules.conf:2)"
        // README: end
        #expect(changes.turnedOff.map(\.reason) == ["switched off by \(file):2"])
        #expect(host.participants.map(\.name) == [CacheModule.moduleName])
    }

    @Test("The quarantine configuration example sets the policy")
    func quarantineExample() throws {
        // README: quarantine configuration
        var configuration = ApplicationHost.Configuration()
        configuration.quarantine = QuarantinePolicy(failures: 3, within: .seconds(30))  // nil: never
        // README: end
        #expect(configuration.quarantine == QuarantinePolicy(failures: 3, within: .seconds(30)))
        #expect(PaymentsModule.quarantinePolicy == nil)
    }
}
