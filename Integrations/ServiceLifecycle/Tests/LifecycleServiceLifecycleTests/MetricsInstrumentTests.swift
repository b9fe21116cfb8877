import LifecycleCore
import LifecycleProxy
import LifecycleObservability
import LifecycleWork
import Metrics
import MetricsTestKit
import Testing

@Suite("MetricsInstrument", .timeLimit(.minutes(1)))
struct MetricsInstrumentTests {
    static let names = MetricsInstrument.Names()

    static func call(_ event: LifecycleEvent, _ module: any LifecycleModule.Type) -> [(String, String)] {
        [("event", event.name), ("module", module.moduleName)]
    }

    @Test("Names follow Prometheus's style under the prefix; an empty prefix adds nothing")
    func names() {
        let names = MetricsInstrument.Names(prefix: "shop")
        #expect(names.deliveries == "shop_deliveries_total")
        #expect(names.failures == "shop_delivery_failures_total")
        #expect(names.timeouts == "shop_delivery_timeouts_total")
        #expect(names.deliveryDuration == "shop_delivery_duration_seconds")
        #expect(names.eventDuration == "shop_event_duration_seconds")
        #expect(names.quarantines == "shop_quarantines_total")
        #expect(names.state == "shop_state")
        #expect(names.workChanges == "shop_work_changes_total")
        #expect(names.workRunning == "shop_work_running")
        #expect(MetricsInstrument.Names(prefix: "").deliveries == "deliveries_total")
        #expect(MetricsInstrument.Names().state == "lifecycle_state")
        #expect(ApplicationState.allCases.map(MetricsInstrument.stateCode) == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test("Deliveries, failures, durations and the state, through a launch and a termination")
    func launchAndTerminate() async throws {
        let metrics = TestMetrics()
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, CacheModule.self, FailingLaunchModule.self]),
            configuration: ApplicationHost.Configuration(instruments: [MetricsInstrument(factory: metrics)])
        )
        let names = Self.names
        let state = try metrics.expectGauge(names.state)
        #expect(state.lastValue == nil, "made at once, set at the first change")

        await #expect(throws: LifecycleError.self) { try await host.launch() }
        #expect(state.values == [1, 2], "launching, then active")

        // One count per hook call, by event and module.
        for event in [LifecycleEvent.setup, .didFinishLaunching, .didBecomeActive] {
            for module in [PoolModule.self, CacheModule.self] as [any LifecycleModule.Type] {
                #expect(try metrics.expectCounter(names.deliveries, Self.call(event, module)).totalValue == 1)
                #expect(try metrics.expectCounter(names.failures, Self.call(event, module)).totalValue == 0)
            }
        }
        let failing = Self.call(.didFinishLaunching, FailingLaunchModule.self)
        #expect(try metrics.expectCounter(names.deliveries, failing).totalValue == 1)
        #expect(try metrics.expectCounter(names.failures, failing).totalValue == 1)
        #expect(try metrics.expectCounter(names.timeouts, failing).totalValue == 0)
        #expect(metrics.counterTotal(label: names.deliveries) == 7)
        #expect(metrics.counterTotal(label: names.failures) == 1)
        #expect(metrics.counterTotal(label: names.timeouts) == 0)

        // A duration per call and per event; an event takes at least as long as its calls together.
        let finishing = [PoolModule.self, CacheModule.self, FailingLaunchModule.self] as [any LifecycleModule.Type]
        let calls = try finishing.map {
            try metrics.expectTimer(names.deliveryDuration, Self.call(.didFinishLaunching, $0)).values
        }
        #expect(calls.map(\.count) == [1, 1, 1])
        let event = try metrics.expectTimer(names.eventDuration, [("event", "didFinishLaunching")]).values
        #expect(event.count == 1)
        #expect(calls.map { $0[0] }.reduce(0, +) <= event[0])
        #expect(metrics.timers(label: names.eventDuration).count == 3, "setup, didFinishLaunching, didBecomeActive")

        try await host.terminate()
        #expect(state.lastValue == 6, "terminated")
        #expect(state.values.first == 1)
        #expect(
            try metrics.expectCounter(names.deliveries, Self.call(.willTerminate, FailingLaunchModule.self)).totalValue
                == 1
        )
        #expect(try metrics.expectTimer(names.eventDuration, [("event", "willTerminate")]).values.count == 1)
    }

    @Test("Each metric is made once: later calls find it in the cache")
    func metricsAreMadeOnce() async throws {
        let factory = CountingFactory()
        let host = try ApplicationHost(
            manifest: ModuleManifest([HeldWarmUpModule.self, FailingWarningModule.self]),
            launchOptions: {
                var options = LaunchOptions()
                let gate = Gate()
                gate.open()
                options[GateKey.self] = gate
                return options
            }(),
            configuration: ApplicationHost.Configuration(
                quarantine: nil,
                instruments: [MetricsInstrument(factory: factory)]
            )
        )
        try await host.launch()
        await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        let made = factory.madeCount
        // The state gauge, 4 per call (warm-up and 2 memory warnings) and 1 timer per event.
        #expect(made == 1 + 4 * 3 + 2)
        for _ in 1...3 {
            await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        }
        #expect(factory.madeCount == made)
        let warned = Self.call(.didReceiveMemoryWarning, FailingWarningModule.self)
        #expect(try factory.metrics.expectCounter(Self.names.deliveries, warned).totalValue == 4)
        #expect(try factory.metrics.expectCounter(Self.names.failures, warned).totalValue == 4)
        #expect(try factory.metrics.expectTimer(Self.names.deliveryDuration, warned).values.count == 4)
    }

    @Test("A module registered and removed again and again keeps one set of metrics: nothing grows per registration")
    func registrationsShareTheirModulesMetrics() async throws {
        let factory = CountingFactory()
        let host = try ApplicationHost(
            manifest: ModuleManifest([StayingModule.self]),
            launchOptions: LaunchOptions(),
            configuration: ApplicationHost.Configuration(instruments: [MetricsInstrument(factory: factory)])
        )
        try await host.launch()
        try await host.register(RejoiningModule.self)
        try await host.remove(RejoiningModule.self)
        let made = factory.madeCount
        for _ in 1...20 {
            try await host.register(RejoiningModule.self)
            try await host.remove(RejoiningModule.self)
        }
        // Each registration is a new participant, whose calls are labelled by its module's name, as before.
        #expect(factory.madeCount == made, "no new metric after the first registration")
        for event in [LifecycleEvent.didBecomeActive, .willTerminate] {
            let calls = Self.call(event, RejoiningModule.self)
            #expect(try factory.metrics.expectCounter(Self.names.deliveries, calls).totalValue == 21)
            #expect(try factory.metrics.expectTimer(Self.names.deliveryDuration, calls).values.count == 21)
        }
    }

    @Test("A hook that times out counts as a failure and a timeout")
    func timeouts() async throws {
        let metrics = TestMetrics()
        let budgeted = BudgetedHost(instruments: [MetricsInstrument(factory: metrics, prefix: "shop")])
        let host = try budgeted.host([HangingWarningModule.self, PoolModule.self])
        try await host.launch()
        let error = await budgeted.timeOutMemoryWarning(of: host)
        #expect(error?.code == .hookFailed)

        let names = MetricsInstrument.Names(prefix: "shop")
        let hanging = Self.call(.didReceiveMemoryWarning, HangingWarningModule.self)
        #expect(try metrics.expectCounter(names.deliveries, hanging).totalValue == 1)
        #expect(try metrics.expectCounter(names.failures, hanging).totalValue == 1)
        #expect(try metrics.expectCounter(names.timeouts, hanging).totalValue == 1)
        #expect(metrics.counterTotal(label: names.timeouts) == 1)
        #expect(try metrics.expectTimer(names.deliveryDuration, hanging).values.count == 1)
        #expect(metrics.counters(label: Self.names.deliveries).isEmpty, "every label has the prefix")
    }

    @Test("A quarantine is counted, by module")
    func quarantines() async throws {
        let metrics = TestMetrics()
        var configuration = ApplicationHost.Configuration(
            quarantine: QuarantinePolicy(failures: 1, within: .seconds(60)),
            instruments: [MetricsInstrument(factory: metrics)]
        )
        configuration.onUnobservedError = { _ in }
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, FailingWarningModule.self]),
            configuration: configuration
        )
        try await host.launch()
        #expect(metrics.counters(label: Self.names.quarantines).isEmpty)
        await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        try await host.waitUntilIdle()

        let quarantined = try metrics.expectCounter(
            Self.names.quarantines,
            [("module", FailingWarningModule.moduleName)]
        )
        #expect(quarantined.totalValue == 1)
        #expect(metrics.counterTotal(label: Self.names.quarantines) == 1)
        let warned = Self.call(.didReceiveMemoryWarning, FailingWarningModule.self)
        #expect(try metrics.expectCounter(Self.names.failures, warned).totalValue == 1)
        #expect(try metrics.expectCounter(Self.names.timeouts, warned).totalValue == 0)
    }

    @Test("Work: each change counted by change, module and work; the running gauge follows the body")
    func work() async throws {
        let metrics = TestMetrics()
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, FlakyWorkModule.self, GivingUpWorkModule.self]).withWork(),
            configuration: ApplicationHost.Configuration(instruments: [MetricsInstrument(factory: metrics)])
        )
        try await host.launch()
        try await host.waitUntilReady()
        try await host.terminate()

        let names = Self.names
        func changes(_ change: String, _ module: any LifecycleModule.Type, _ work: String) throws -> Int64 {
            let dimensions = [("change", change), ("module", module.moduleName), ("work", work)]
            return try metrics.expectCounter(names.workChanges, dimensions).totalValue
        }
        // FlakyWorkModule's work threw, was restarted, became ready and was stopped at termination.
        for change in ["workStarted", "workFailed", "workRestarting", "workRestarted", "workReady", "workStopped"] {
            #expect(try changes(change, FlakyWorkModule.self, "poll") == 1, "\(change)")
        }
        // GivingUpWorkModule's work threw and was given up.
        for change in ["workStarted", "workFailed", "workGaveUp"] {
            #expect(try changes(change, GivingUpWorkModule.self, "once") == 1, "\(change)")
        }
        #expect(metrics.counterTotal(label: names.workChanges) == 9, "no other change")

        // 1 while the body runs: started, threw, restarted, stopped; started, threw.
        let poll = try metrics.expectGauge(
            names.workRunning,
            [("module", FlakyWorkModule.moduleName), ("work", "poll")]
        )
        #expect(poll.values == [1, 0, 1, 0])
        let once = try metrics.expectGauge(
            names.workRunning,
            [("module", GivingUpWorkModule.moduleName), ("work", "once")]
        )
        #expect(once.values == [1, 0])
        #expect(metrics.recorders.filter { $0.label == names.workRunning }.count == 2, "one gauge per work")
    }
}

/// The module that stays while ``RejoiningModule`` comes and goes.
private struct StayingModule: LifecycleModule, DidBecomeActive {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) {}
}

/// A module a test registers and removes, over and over.
private struct RejoiningModule: LifecycleModule, DidBecomeActive, WillTerminate {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) {}
    func willTerminate(_ context: LifecycleContext) async throws {}
}
