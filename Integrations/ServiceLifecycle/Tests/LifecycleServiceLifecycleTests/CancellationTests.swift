import LifecycleCore
import LifecycleServiceLifecycle
import ServiceLifecycle
import Testing

@Suite("Cancellation")
struct CancellationTests {
    @Test("Cancellation after launch delivers willTerminate alone, and run() returns")
    func cancellationTerminatesWithoutTheBackground() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, CacheModule.self], timeline: timeline)
        let service = ApplicationHostService(host: host, logger: quietLogger)
        let running = Task { try await service.run() }

        #expect(await timeline.waitFor("didBecomeActive CacheModule"))
        running.cancel()
        try await running.value

        #expect(
            timeline.deliveries == launchOfPoolAndCache + ["willTerminate CacheModule", "willTerminate PoolModule"]
        )
        #expect(host.state == .terminated)
    }

    @Test("Cancelling the group terminates the host too")
    func cancellingTheGroupTerminates() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, CacheModule.self], timeline: timeline)
        let group = ServiceGroup(
            services: [ApplicationHostService(host: host, logger: quietLogger)],
            logger: quietLogger
        )
        let running = start(group)

        #expect(await timeline.waitFor("didBecomeActive CacheModule"))
        running.cancel()
        try await running.value

        #expect(timeline.deliveries.suffix(2) == ["willTerminate CacheModule", "willTerminate PoolModule"])
        #expect(!timeline.deliveries.contains("willResignActive PoolModule"))
        #expect(host.state == .terminated)
    }

    @Test("Cancelled during launch: terminate follows once launch is through")
    func cancellationDuringLaunch() async throws {
        let timeline = Timeline()
        let host = try makeHost(
            [PoolModule.self, SlowSetupModule.self],
            timeline: timeline,
            setupDelay: .milliseconds(300)
        )
        let service = ApplicationHostService(host: host, logger: quietLogger)
        let running = Task { try await service.run() }

        #expect(await timeline.waitFor("setup: started"))
        running.cancel()
        try await running.value

        #expect(
            timeline.deliveries == [
                "setup PoolModule", "setup SlowSetupModule", "didFinishLaunching PoolModule",
                "didBecomeActive PoolModule",
                "willTerminate SlowSetupModule", "willTerminate PoolModule",
            ]
        )
        #expect(host.state == .terminated)
    }

    @Test("A willTerminate hook past the terminate deadline: run() throws shutdownFailed within the deadline")
    func aHangingHookIsBoundedByTheTerminateDeadline() async throws {
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, HangingTerminateModule.self], timeline: timeline) {
            $0.terminateDeadline = .milliseconds(300)
        }
        let service = ApplicationHostService(host: host, logger: quietLogger)
        let running = Task { try await service.run() }

        #expect(await timeline.waitFor("didBecomeActive PoolModule"))
        let cancelled = ContinuousClock.now
        running.cancel()
        let error = try await #require(throws: ApplicationHostServiceError.self) { try await running.value }
        let elapsed = cancelled.duration(to: .now)

        #expect(error.code == .shutdownFailed)
        #expect(error.lifecycleErrors.map(\.code) == [.deadlineExceeded])
        #expect(error.state == .terminated)
        #expect(elapsed < .seconds(10), "the hook would have taken 30 s")
        #expect(error.description.contains("HangingTerminateModule"))
    }

    @Test("A request ahead of terminate past the deadline: the service stops waiting and throws shutdownTimedOut")
    func theServiceStopsWaitingAfterTheDeadlineAndGrace() async throws {
        let timeline = Timeline()
        // Setup takes 3 s and no budget cuts it short; terminate is queued behind it.
        let host = try makeHost([PoolModule.self, SlowSetupModule.self], timeline: timeline, setupDelay: .seconds(3)) {
            $0.hookBudget = nil
            $0.terminateDeadline = .milliseconds(200)
        }
        let service = ApplicationHostService(
            host: host,
            configuration: .init(cancellationGrace: .milliseconds(200)),
            logger: quietLogger
        )
        let running = Task { try await service.run() }

        #expect(await timeline.waitFor("setup: started"))
        let cancelled = ContinuousClock.now
        running.cancel()
        let error = try await #require(throws: ApplicationHostServiceError.self) { try await running.value }
        let elapsed = cancelled.duration(to: .now)

        #expect(error.code == .shutdownTimedOut)
        #expect(error.state == .launching)
        #expect(elapsed < .milliseconds(2_500), "it did not wait for the 3 s setup")
        #expect(error.description.contains("terminateDeadline"))

        // The terminate request is still delivered once the setup is through.
        try await host.waitUntilIdle()
        #expect(host.state == .terminated)
        #expect(timeline.deliveries.suffix(2) == ["willTerminate SlowSetupModule", "willTerminate PoolModule"])
    }
}
