import LifecycleCore
import LifecycleServiceLifecycle
import Logging
import ServiceLifecycle
import Testing

/// Posts `terminate` once active: a program whose modules decide when to stop.
struct SelfTerminatingModule: LifecycleModule, DidBecomeActive, WillTerminate {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didBecomeActive(_ context: LifecycleContext) {
        if context.applicationState == .active { context.events.post(.terminate) }
    }
    func willTerminate(_ context: LifecycleContext) {}
}

/// Before the fix, a host that terminated by itself left `run()` waiting until the group shut down, so these
/// tests hung: the time limit turns that into a failure.
@Suite("A host that terminates by itself", .timeLimit(.minutes(1)))
struct SelfTerminationTests {
    let selfTerminatingModules: [any LifecycleModule.Type] = [PoolModule.self, SelfTerminatingModule.self]

    @Test("A module posts terminate: run() returns without an error, after willTerminate alone")
    func runReturnsWhenTheHostTerminatesItself() async throws {
        let timeline = Timeline()
        let records = LogRecords()
        let host = try makeHost(selfTerminatingModules, timeline: timeline)
        let service = ApplicationHostService(host: host, logger: records.logger())

        try await service.run()

        #expect(host.state == .terminated)
        #expect(timeline.deliveries.suffix(2) == ["willTerminate SelfTerminatingModule", "willTerminate PoolModule"])
        #expect(!timeline.deliveries.contains { $0.hasPrefix("willResignActive") })
        #expect(!timeline.deliveries.contains { $0.hasPrefix("didEnterBackground") })
        #expect(!timeline.entries.contains { $0.hasPrefix("unobserved") })
        #expect(
            records.all.contains { $0.level == .notice && $0.message.contains("terminated by itself") },
            "the service says why it returns"
        )
    }

    @Test("Terminated by code that called terminate() on the host: run() returns too")
    func runReturnsWhenCodeTerminatesTheHost() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, CacheModule.self], timeline: timeline)
        let service = ApplicationHostService(host: host, logger: quietLogger)
        // A child task, so that the time limit's cancellation reaches it.
        async let running: Void = service.run()

        try await service.waitUntilReady()
        try await host.terminate()
        try await running

        #expect(
            timeline.deliveries == launchOfPoolAndCache + ["willTerminate CacheModule", "willTerminate PoolModule"]
        )
    }

    @Test("Default .cancelGroup: the group cancels the other services and throws serviceFinishedUnexpectedly")
    func cancelGroupCancelsTheOthers() async throws {
        let timeline = Timeline()
        let host = try makeHost(selfTerminatingModules, timeline: timeline)
        let server = DrainingServer(timeline: timeline, drain: .milliseconds(100))
        let group = ServiceGroup(
            services: [ApplicationHostService(host: host, logger: quietLogger), server],
            logger: quietLogger
        )

        let error = try await #require(throws: ServiceGroupError.self) { try await group.run() }

        #expect(error.errorCode == .serviceFinishedUnexpectedly)
        #expect(host.state == .terminated)
        #expect(timeline.entries.contains("server: cancelled"))
        #expect(!timeline.entries.contains("server: draining"))
    }

    @Test(".gracefullyShutdownGroup: the group shuts the other services down gracefully and returns")
    func gracefullyShutdownGroupDrainsTheOthers() async throws {
        let timeline = Timeline()
        let host = try makeHost(selfTerminatingModules, timeline: timeline)
        let server = DrainingServer(timeline: timeline, drain: .milliseconds(100))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: ApplicationHostService(host: host, logger: quietLogger),
                        successTerminationBehavior: .gracefullyShutdownGroup
                    ),
                    .init(service: server),
                ],
                logger: quietLogger
            )
        )

        try await group.run()

        #expect(host.state == .terminated)
        let terminated = try #require(timeline.index(of: "willTerminate PoolModule"))
        let draining = try #require(timeline.index(of: "server: draining"))
        #expect(terminated < draining, "the host's end started the group's graceful shutdown")
        #expect(timeline.entries.contains("server: drained"))
        #expect(!timeline.entries.contains("server: cancelled"))
    }

    @Test(".ignore: the other services keep running until the group shuts down")
    func ignoreKeepsTheOthersRunning() async throws {
        let timeline = Timeline()
        let records = LogRecords()
        let host = try makeHost(selfTerminatingModules, timeline: timeline)
        let server = DrainingServer(timeline: timeline, drain: .milliseconds(100))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: ApplicationHostService(host: host, logger: records.logger()),
                        successTerminationBehavior: .ignore
                    ),
                    .init(service: server),
                ],
                logger: quietLogger
            )
        )
        let running = start(group)

        let returned = await timeline.waitUntil(timeout: .seconds(10)) { _ in
            records.all.contains { $0.message.contains("terminated by itself") }
        }
        #expect(returned)
        try await Task.sleep(for: .milliseconds(200))
        #expect(timeline.entries.contains("server: started"))
        #expect(!timeline.entries.contains { $0.hasPrefix("server: ") && $0 != "server: started" })

        await group.triggerGracefulShutdown()
        try await running.value
        #expect(timeline.entries.contains("server: drained"))
    }

    @Test("Terminated while the group drains the services after it: the group cancels them and throws")
    func terminatedDuringTheGroupsGracefulShutdown() async throws {
        // swift-service-lifecycle 2.13 takes a service that returns before its turn in a graceful shutdown
        // as unexpected, whatever its termination behaviour.
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, CacheModule.self], timeline: timeline)
        let server = DrainingServer(timeline: timeline, drain: .milliseconds(300))
        let group = ServiceGroup(
            services: [ApplicationHostService(host: host, logger: quietLogger), server],
            logger: quietLogger
        )
        let running = start(group)

        #expect(
            await timeline.waitUntil { $0.contains("didBecomeActive CacheModule") && $0.contains("server: started") }
        )
        await group.triggerGracefulShutdown()
        #expect(await timeline.waitFor("server: draining"))
        try await host.terminate()

        let error = try await #require(throws: ServiceGroupError.self) { try await running.value }
        #expect(error.errorCode == .serviceFinishedUnexpectedly)
        #expect(!timeline.deliveries.contains("willResignActive PoolModule"), "the service delivered nothing more")
    }
}
