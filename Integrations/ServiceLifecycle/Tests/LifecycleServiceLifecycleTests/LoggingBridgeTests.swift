import LifecycleCore
import LifecycleProxy
import LifecycleServiceLifecycle
import LifecycleTesting
import Logging
import ServiceLifecycle
import Testing

@Suite("Logging bridge")
struct LoggingBridgeTests {
    /// A host over `modules` that reports to `records`.
    func loggedHost(
        _ modules: [any LifecycleModule.Type],
        records: LogRecords,
        level: Logger.Level = .trace,
        configuration: ApplicationHost.Configuration = ApplicationHost.Configuration()
    ) throws -> ApplicationHost {
        try ApplicationHost(
            manifest: ModuleManifest(modules),
            launchOptions: LaunchOptions(),
            configuration: configuration.logging(to: records.logger(level: level))
        )
    }

    @Test("Each delivery is logged at debug, with event, participant, priority, duration and result")
    func deliveriesAreLoggedAtDebug() async throws {
        let records = LogRecords()
        let host = try loggedHost([PoolModule.self, CacheModule.self], records: records)
        try await host.launch()

        let entries = records.all
        #expect(
            entries.map { "\($0.metadata["lifecycle.event"]!) \($0.metadata["lifecycle.participant"]!)" }
                == launchOfPoolAndCache.map {
                    $0.split(separator: " ").joined(separator: " LifecycleServiceLifecycleTests.")
                }
        )
        #expect(entries.allSatisfy { $0.level == .debug })
        let first = try #require(entries.first)
        #expect(first.message == "setup delivered to LifecycleServiceLifecycleTests.PoolModule")
        #expect(first.metadata["lifecycle.priority"] == "10000")
        #expect(first.metadata["lifecycle.duration"]?.description.hasSuffix(" ms") == true)
        #expect(first.metadata["lifecycle.result"] == nil, "setup has no result")
        let didFinish = try #require(entries.first { $0.metadata["lifecycle.event"] == "didFinishLaunching" })
        #expect(didFinish.metadata["lifecycle.result"] == "true")
    }

    @Test("A hook that throws is logged at error, with the error")
    func failedHooksAreLoggedAtError() async throws {
        let records = LogRecords()
        let host = try loggedHost([PoolModule.self, FailingLaunchModule.self], records: records)
        await #expect(throws: LifecycleError.self) { try await host.launch() }

        let failures = records.all.filter { $0.level == .error }
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.metadata["lifecycle.event"] == "didFinishLaunching")
        #expect(failure.metadata["lifecycle.participant"] == "LifecycleServiceLifecycleTests.FailingLaunchModule")
        #expect(failure.metadata["lifecycle.error"] == "boom: no feature flags")
        #expect(failure.message.description.contains("threw: boom: no feature flags"))
    }

    @Test("An error nobody awaits is logged at error, with code, request, state and the fix")
    func unobservedErrorsAreLoggedAtError() async throws {
        let records = LogRecords()
        let host = try loggedHost([InvalidPostModule.self], records: records)
        try await host.launch()
        try await host.waitUntilIdle()

        let errors = records.all.filter { $0.level == .error }
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        #expect(error.message == "Lifecycle request failed")
        #expect(error.metadata["lifecycle.code"] == "invalidTransition")
        #expect(error.metadata["lifecycle.request"] == "enterForeground()")
        #expect(error.metadata["lifecycle.state"] == "active")
        #expect(error.metadata["lifecycle.error"]?.description.contains("Allowed in active") == true)
    }

    @Test("The bridge keeps an onDelivery already set, and calls it first")
    func theBridgeChainsAnExistingObserver() async throws {
        let records = LogRecords()
        let recorder = LifecycleRecorder()
        let host = try loggedHost(
            [PoolModule.self],
            records: records,
            configuration: ApplicationHost.Configuration(onDelivery: recorder.observer)
        )
        try await host.launch()

        #expect(recorder.deliveries.map(\.event) == [.setup, .didFinishLaunching, .didBecomeActive])
        #expect(records.all.count == 3)
    }

    @Test("Below the logger's level nothing is logged; failures still are")
    func theLoggersLevelFilters() async throws {
        let records = LogRecords()
        let host = try loggedHost([PoolModule.self, FailingLaunchModule.self], records: records, level: .info)
        await #expect(throws: LifecycleError.self) { try await host.launch() }

        #expect(records.all.map(\.level) == [.error])
    }

    @Test("The service logs launch and shutdown at info, and its errors at error with the failed hooks")
    func theServiceLogsItsSteps() async throws {
        let records = LogRecords()
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, FailingResignModule.self], timeline: timeline)
        let service = ApplicationHostService(host: host, logger: records.logger())
        let group = ServiceGroup(services: [service], logger: quietLogger)
        let running = start(group)

        try await service.waitUntilReady()
        await group.triggerGracefulShutdown()
        await #expect(throws: ApplicationHostServiceError.self) { try await running.value }

        #expect(
            records.all.map { "\($0.level) \($0.message)" } == [
                "info Launching the application host",
                "info The application host launched",
                "info Graceful shutdown: entering the background, then terminating the application host",
                "error ApplicationHostService: shutdownFailed",
            ]
        )
        let error = try #require(records.all.last)
        #expect(error.metadata["lifecycle.code"] == "shutdownFailed")
        #expect(error.metadata["lifecycle.state"] == "terminated")
        #expect(error.metadata["lifecycle.failures"]?.description.contains("FailingResignModule") == true)
    }

    @Test("The service logs under the metadata keys of its configuration")
    func theServiceLogsUnderItsKeys() async throws {
        let records = LogRecords()
        let timeline = Timeline()
        let host = try makeHost([PoolModule.self, FailingResignModule.self], timeline: timeline)
        var keys = LifecycleLogging.Keys()
        keys.participants = "modules"
        keys.duration = "took"
        keys.code = "code"
        let service = ApplicationHostService(
            host: host,
            configuration: .init(loggingKeys: keys),
            logger: records.logger()
        )
        let group = ServiceGroup(services: [service], logger: quietLogger)
        let running = start(group)

        try await service.waitUntilReady()
        await group.triggerGracefulShutdown()
        await #expect(throws: ApplicationHostServiceError.self) { try await running.value }

        let entries = records.all
        #expect(entries.first?.metadata["modules"] == "2")
        #expect(entries.dropFirst().first?.metadata["took"]?.description.hasSuffix(" ms") == true)
        #expect(entries.last?.metadata["code"] == "shutdownFailed")
        let replaced: Set = ["lifecycle.participants", "lifecycle.duration", "lifecycle.code"]
        #expect(entries.allSatisfy { replaced.isDisjoint(with: $0.metadata.keys) })
    }
}
