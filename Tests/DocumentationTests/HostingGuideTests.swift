import LifecycleCore
import LifecycleHosting
import LifecycleProxy
import Synchronization
import Testing

/// Counts what a runner delivered, for the hosting guide's test example.
struct ConnectionsModule: LifecycleModule, DidEnterBackground, WillTerminate {
    static let priority: ModulePriority = .normal
    static let log = Mutex<[String]>([])
    init(context: LifecycleContext) {}
    func didEnterBackground(_ context: LifecycleContext) { Self.log.withLock { $0.append("didEnterBackground") } }
    func willTerminate(_ context: LifecycleContext) { Self.log.withLock { $0.append("willTerminate") } }
}

@Suite("Docs/Hosting.md examples")
struct HostingGuideTests {
    // README: runner-test
    @Test func backgroundThenTerminateOnSignals() async throws {
        let host = try ApplicationHost(manifest: ModuleManifest(name: "Shop", [ConnectionsModule.self]))
        let (signals, send) = AsyncStream<UnixSignal>.makeStream()
        send.yield(.sigusr1)  // the standard map: to the background
        send.yield(.sigterm)  // then terminate

        let outcome = await HostRunner(host: host).run(signals: signals)  // no process signal is touched

        #expect(outcome.code == 0)
        #expect(ConnectionsModule.log.withLock { $0 } == ["didEnterBackground", "willTerminate"])
        #expect(host.state == .terminated)
    }
    // README: end
}
