import LifecycleCore
import LifecycleProxy
import LifecycleServiceLifecycle
import LifecycleTesting
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

/// The examples that Docs/Hosting.md shows, compiled and run here. Edit them here first, then paste them
/// into the documentation: the root package's snippet test checks that they match.
@Suite("Hosting examples")
struct ReadmeExampleTests {
    // README: test-graceful-shutdown
    @Test func gracefulShutdownBackgroundsThenTerminates() async throws {
        let recorder = LifecycleRecorder()
        let host = try ApplicationHost(
            manifest: ModuleManifest([PoolModule.self, CacheModule.self]),
            configuration: ApplicationHost.Configuration(onDelivery: recorder.observer)
        )
        let service = ApplicationHostService(host: host, logger: Logger(label: "test"))

        try await testGracefulShutdown { trigger in
            async let run: Void = service.run()
            try await service.waitUntilReady()
            trigger.triggerGracefulShutdown()
            try await run
        }
        #expect(
            recorder.deliveries.suffix(6).map(\.event) == [
                .willResignActive, .willResignActive, .didEnterBackground, .didEnterBackground,
                .willTerminate, .willTerminate,
            ]
        )
        expectReceivers(of: .willTerminate, in: recorder, [CacheModule.self, PoolModule.self])
    }
    // README: end

    @Test func everyDeliveryAtInfo() async throws {
        let records = LogRecords()
        let logger = records.logger(level: .info)
        // README: logging-levels
        var logging = LifecycleLogging(logger: logger)
        logging.deliveryLevel = .info  // every delivery, not only the failures
        let configuration = ApplicationHost.Configuration().logging(to: logging)
        // README: end
        let host = try ApplicationHost(manifest: ModuleManifest([PoolModule.self]), configuration: configuration)
        try await host.launch()

        #expect(records.all.map(\.level) == [.info, .info, .info])
        #expect(
            records.all.map { $0.metadata["lifecycle.event"] } == ["setup", "didFinishLaunching", "didBecomeActive"]
        )
    }
}
