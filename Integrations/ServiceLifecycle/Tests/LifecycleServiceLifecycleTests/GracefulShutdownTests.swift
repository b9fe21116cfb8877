import LifecycleCore
import LifecycleServiceLifecycle
import ServiceLifecycle
import Testing

@Suite("Graceful shutdown")
struct GracefulShutdownTests {
    @Test("Group start launches; graceful shutdown enters the background, then terminates, in reverse order")
    func gracefulShutdownBackgroundsThenTerminates() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, CacheModule.self], timeline: timeline)
        let group = ServiceGroup(
            services: [ApplicationHostService(host: host, logger: quietLogger)],
            logger: quietLogger
        )
        let running = start(group)

        #expect(await timeline.waitFor("didBecomeActive CacheModule"))
        #expect(timeline.deliveries == launchOfPoolAndCache, "launch is complete before anything else")
        await group.triggerGracefulShutdown()
        try await running.value

        #expect(
            timeline.deliveries == launchOfPoolAndCache + [
                "willResignActive CacheModule", "willResignActive PoolModule",
                "didEnterBackground CacheModule", "didEnterBackground PoolModule",
                "willTerminate CacheModule", "willTerminate PoolModule",
            ]
        )
        #expect(host.state == .terminated)
    }

    @Test("Listed first, the host stops after the services listed after it have drained")
    func theHostListedFirstStopsLast() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, CacheModule.self], timeline: timeline)
        let hostService = ApplicationHostService(host: host, logger: quietLogger)
        let server = DrainingServer(timeline: timeline, drain: .milliseconds(300))
        let group = ServiceGroup(services: [hostService, server], logger: quietLogger)
        let running = start(group)

        #expect(
            await timeline.waitUntil { $0.contains("didBecomeActive CacheModule") && $0.contains("server: started") }
        )
        await group.triggerGracefulShutdown()
        try await running.value

        let drained = try #require(timeline.index(of: "server: drained"))
        let resign = try #require(timeline.index(of: "willResignActive CacheModule"))
        let terminate = try #require(timeline.index(of: "willTerminate CacheModule"))
        #expect(drained < resign, "the server finished draining before the modules heard of the shutdown")
        #expect(resign < terminate)
    }

    @Test("Listed after the server, the host would terminate while the server still drains")
    func theHostListedLastStopsFirst() async throws {
        // The counterpart of the test above: it shows that the order of `services` is what decides.
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, CacheModule.self], timeline: timeline)
        let hostService = ApplicationHostService(host: host, logger: quietLogger)
        let server = DrainingServer(timeline: timeline, drain: .milliseconds(300))
        let group = ServiceGroup(services: [server, hostService], logger: quietLogger)
        let running = start(group)

        #expect(
            await timeline.waitUntil { $0.contains("didBecomeActive CacheModule") && $0.contains("server: started") }
        )
        await group.triggerGracefulShutdown()
        try await running.value

        let draining = try #require(timeline.index(of: "server: draining"))
        let terminate = try #require(timeline.index(of: "willTerminate PoolModule"))
        #expect(terminate < draining, "the host terminated before the server began to drain")
    }

    @Test("A service gated on waitUntilReady starts after launch, and stops before the host")
    func aGatedServiceStartsAfterLaunch() async throws {
        let timeline = Timeline()
        let host = try makeHost(
            [PoolModule.self, CacheModule.self, SlowSetupModule.self],
            timeline: timeline,
            setupDelay: .milliseconds(200)
        )
        let hostService = ApplicationHostService(host: host, logger: quietLogger)
        let group = ServiceGroup(
            services: [hostService, GatedService(hostService: hostService, timeline: timeline)],
            logger: quietLogger
        )
        let running = start(group)

        #expect(await timeline.waitFor("gated: started"))
        let started = try #require(timeline.index(of: "gated: started"))
        let active = try #require(timeline.index(of: "didBecomeActive CacheModule"))
        #expect(active < started, "the gated service waited until launch() returned")
        await group.triggerGracefulShutdown()
        try await running.value

        let stopped = try #require(timeline.index(of: "gated: stopped"))
        let resign = try #require(timeline.index(of: "willResignActive CacheModule"))
        #expect(stopped < resign)
    }

    @Test("Graceful shutdown during launch: launch completes, then background and terminate")
    func gracefulShutdownDuringLaunch() async throws {
        let timeline = Timeline()
        let host = try makeHost(
            [PoolModule.self, SlowSetupModule.self],
            timeline: timeline,
            setupDelay: .milliseconds(300)
        )
        let group = ServiceGroup(
            services: [ApplicationHostService(host: host, logger: quietLogger)],
            logger: quietLogger
        )
        let running = start(group)

        #expect(await timeline.waitFor("setup: started"))
        await group.triggerGracefulShutdown()
        try await running.value

        #expect(
            timeline.deliveries == [
                "setup PoolModule", "setup SlowSetupModule",
                "didFinishLaunching PoolModule",
                "didBecomeActive PoolModule",
                "willResignActive PoolModule",
                "didEnterBackground PoolModule",
                "willTerminate SlowSetupModule", "willTerminate PoolModule",
            ]
        )
        #expect(host.state == .terminated)
    }

    @Test("A host already in the background is not sent to the background again")
    func aHostInTheBackgroundOnlyTerminates() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, BackgroundingModule.self], timeline: timeline)
        let group = ServiceGroup(
            services: [ApplicationHostService(host: host, logger: quietLogger)],
            logger: quietLogger
        )
        let running = start(group)

        #expect(await timeline.waitFor("didEnterBackground PoolModule"))
        await group.triggerGracefulShutdown()
        try await running.value

        #expect(
            timeline.deliveries.filter { $0.hasPrefix("didEnterBackground") }.count == 2,
            "once per module, not twice"
        )
        #expect(timeline.deliveries.suffix(2) == ["willTerminate BackgroundingModule", "willTerminate PoolModule"])
        #expect(!timeline.entries.contains { $0.hasPrefix("unobserved") })
    }

    @Test("Hooks that throw while shutting down: terminate still runs, then run() throws shutdownFailed")
    func shutdownFailuresAreThrownAfterTerminating() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, FailingResignModule.self], timeline: timeline)
        let group = ServiceGroup(
            services: [ApplicationHostService(host: host, logger: quietLogger)],
            logger: quietLogger
        )
        let running = start(group)

        #expect(await timeline.waitFor("didBecomeActive PoolModule"))
        await group.triggerGracefulShutdown()
        let error = try await #require(throws: ApplicationHostServiceError.self) { try await running.value }

        #expect(error.code == .shutdownFailed)
        #expect(
            error.failures.map { "\($0.event) \(shortName($0.participant))" } == [
                "willResignActive FailingResignModule"
            ]
        )
        #expect(error.state == .terminated)
        #expect(timeline.deliveries.suffix(2) == ["willTerminate FailingResignModule", "willTerminate PoolModule"])
        #expect(error.description.contains("LifecycleServiceLifecycleTests.FailingResignModule"))
        #expect(error.description.contains("willResignActive"))
    }
}
