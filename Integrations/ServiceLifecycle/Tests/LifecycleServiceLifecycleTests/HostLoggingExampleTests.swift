import LifecycleCore
import LifecycleProxy
import LifecycleServiceLifecycle
import Logging
import Synchronization
import Testing

@testable import service_lifecycle_example

/// The example server's host, configured as Docs/Hosting.md ("Wiring logging") shows it: compiled and run
/// here, with the example's modules. The server itself also installs its instruments (Docs/Observability.md).
@Suite("Hosting example: the host's logging")
struct HostLoggingExampleTests {
    @Test("The example's host, with logging and the transcript as onDelivery, launches and terminates")
    func hostLogging() async throws {
        let lines = Mutex<[String]>([])
        let transcript = Transcript { line in lines.withLock { $0.append(line) } }
        var options = LaunchOptions(arguments: [])
        options[ExampleServicesKey.self] = ExampleServices(transcript: transcript)

        // README: host-logging
        let logger = Logger(label: "shop")
        var hostConfiguration = ApplicationHost.Configuration(terminateDeadline: .seconds(10))
        hostConfiguration.onDelivery = transcript.writeDelivery  // an observer of your own stays, and runs first
        let host = try ApplicationHost(
            manifest: .example,  // the example's modules (Modules.swift), with services, routing, scopes and work
            launchOptions: options,  // carries what the program shares: the transcript
            configuration: hostConfiguration.logging(to: logger)  // deliveries and errors to swift-log
        )
        // README: end

        try await host.launch()
        try await host.terminate()
        let written = lines.withLock { $0 }
        #expect(written.contains("lifecycle setup StoreModule\n"), "\(written)")
        #expect(written.contains("lifecycle willTerminate StoreModule\n"), "\(written)")
    }
}
