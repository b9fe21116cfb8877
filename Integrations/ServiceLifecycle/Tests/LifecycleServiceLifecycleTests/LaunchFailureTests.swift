import LifecycleCore
import LifecycleServiceLifecycle
import Logging
import ServiceLifecycle
import Testing

@Suite("Launch failures")
struct LaunchFailureTests {
    @Test("An aborted launch makes run() throw launchFailed, naming the module and the event; the group tears down")
    func anAbortedLaunchTearsTheGroupDown() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, AbortingSetupModule.self], timeline: timeline)
        let hostService = ApplicationHostService(host: host, logger: quietLogger)
        let server = DrainingServer(timeline: timeline, drain: .zero)
        let group = ServiceGroup(services: [hostService, server], logger: quietLogger)

        let error = try await #require(throws: ApplicationHostServiceError.self) { try await group.run() }

        #expect(error.code == .launchFailed)
        #expect(error.lifecycleErrors.map(\.code) == [.launchAborted])
        #expect(error.failures.map { "\($0.event) \(shortName($0.participant))" } == ["setup AbortingSetupModule"])
        #expect(error.state == .terminated)
        #expect(error.description.contains("LifecycleServiceLifecycleTests.AbortingSetupModule"))
        #expect(error.description.contains("setup"))
        #expect(error.description.contains("no database"))
        #expect(timeline.entries.contains("server: cancelled"), "the group cancelled the other service")
        #expect(
            timeline.deliveries == ["setup PoolModule", "setup AbortingSetupModule", "willTerminate PoolModule"],
            "the launch rolled back"
        )
    }

    @Test("Failed hooks under .continue: the service terminates the host, then throws launchFailed")
    func failedHooksStopTheServiceByDefault() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, FailingLaunchModule.self], timeline: timeline)
        let service = ApplicationHostService(host: host, logger: quietLogger)

        let error = try await #require(throws: ApplicationHostServiceError.self) { try await service.run() }

        #expect(error.code == .launchFailed)
        #expect(error.lifecycleErrors.map(\.code) == [.hookFailed])
        #expect(
            error.failures.map { "\($0.event) \(shortName($0.participant))" } == [
                "didFinishLaunching FailingLaunchModule"
            ]
        )
        #expect(error.state == .terminated)
        #expect(timeline.deliveries.suffix(2) == ["willTerminate FailingLaunchModule", "willTerminate PoolModule"])
        #expect(!timeline.deliveries.contains("willResignActive PoolModule"))
    }

    @Test("Failed hooks under .continue with keepRunning: the service runs until shutdown, and logs the failure")
    func keepRunningServesDespiteFailedHooks() async throws {
        let timeline = Timeline()
        let records = LogRecords()
        let host = try makeHost([PoolModule.self, FailingLaunchModule.self], timeline: timeline)
        let service = ApplicationHostService(
            host: host,
            configuration: .init(launchFailureHandling: .keepRunning),
            logger: records.logger()
        )
        let group = ServiceGroup(services: [service], logger: quietLogger)
        let running = start(group)

        try await service.waitUntilReady()
        #expect(await timeline.waitUntil { _ in records.all.contains { $0.level == .error } })
        #expect(host.state == .active)
        await group.triggerGracefulShutdown()
        try await running.value

        #expect(host.state == .terminated)
        #expect(
            timeline.deliveries.suffix(3) == [
                "didEnterBackground PoolModule", "willTerminate FailingLaunchModule", "willTerminate PoolModule",
            ]
        )
        let logged = try #require(records.all.first { $0.level == .error })
        #expect(logged.metadata["lifecycle.code"] == "hookFailed")
        #expect(logged.metadata["lifecycle.failures"]?.description.contains("FailingLaunchModule") == true)
    }

    @Test("A host that has launched already is refused with hostAlreadyStarted, and nothing is delivered")
    func aLaunchedHostIsRefused() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self], timeline: timeline)
        try await host.launch()
        let delivered = timeline.deliveries.count
        let service = ApplicationHostService(host: host, logger: quietLogger)

        let error = try await #require(throws: ApplicationHostServiceError.self) { try await service.run() }

        #expect(error.code == .hostAlreadyStarted)
        #expect(error.state == .active)
        #expect(error.description.contains("already active"))
        #expect(error.description.contains("LaunchFailureTests.swift"), "it names where the service was created")
        #expect(timeline.deliveries.count == delivered)
    }

    @Test("Two runs of one service at once: one is refused, and the host the other launched keeps running")
    func twoRunsAtOnce() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, CacheModule.self], timeline: timeline)
        let service = ApplicationHostService(host: host, logger: quietLogger)
        let runs = (1...2).map { _ in
            Task {
                do throws(ApplicationHostServiceError) {
                    try await service.run()
                    timeline.write("run: returned")
                } catch {
                    timeline.write("run: \(error.code)")
                }
            }
        }

        #expect(await timeline.waitFor("run: hostAlreadyStarted"))
        try await host.waitUntilIdle()
        #expect(host.state == .active, "the refused run left the host alone")
        for run in runs { run.cancel() }
        #expect(await timeline.waitFor("run: returned"))

        #expect(
            timeline.deliveries == launchOfPoolAndCache + ["willTerminate CacheModule", "willTerminate PoolModule"]
        )
        #expect(
            timeline.entries.filter { $0.hasPrefix("run: ") }.sorted() == ["run: hostAlreadyStarted", "run: returned"]
        )
    }

    @Test("waitUntilReady after a failed launch: the group reports the launch failure, not notReady", arguments: 1...5)
    func theGroupReportsTheLaunchFailureFirst(round: Int) async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, AbortingSetupModule.self], timeline: timeline)
        let hostService = ApplicationHostService(host: host, logger: quietLogger)
        let gated = GatedService(hostService: hostService, timeline: timeline)
        let group = ServiceGroup(services: [hostService, gated], logger: quietLogger)

        let error = try await #require(throws: ApplicationHostServiceError.self) { try await group.run() }

        #expect(error.code == .launchFailed)
        #expect(timeline.entries.contains("gated: notReady"))
        #expect(!timeline.entries.contains("gated: started"))
    }
}
