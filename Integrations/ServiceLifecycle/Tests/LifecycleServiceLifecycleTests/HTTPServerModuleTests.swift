import Foundation
import Hummingbird
import LifecycleCore
import LifecycleProxy
import LifecycleWork
import Logging
import Synchronization
import Testing

@testable import service_lifecycle_example

/// `HTTPServerModule` in a host of the example's own manifest, in this process: the host is not ready until
/// the work's listener is up, and stopping the work stops the server gracefully, with a request in flight.
@Suite("HTTPServerModule, in a host of the example's modules", .timeLimit(.minutes(2)))
struct HTTPServerModuleTests {
    /// The transcript's lines, kept in memory.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("Not ready until the listener is up; a request in flight is answered before the server stops")
    func readyOnceListeningAndStoppedGracefully() async throws {
        let lines = Lines()
        let services = ExampleServices(transcript: Transcript { lines.append(String($0.dropLast())) })
        var options = LaunchOptions()
        options[ExampleServicesKey.self] = services
        let host = try ApplicationHost(manifest: .example, launchOptions: options)
        try await host.launch()

        // Launched, and the work runs, but it has nothing to serve yet: no listener, so not ready.
        let work = HTTPServerModule.moduleName
        let waiting = await host.health()
        #expect(!waiting.isReady && waiting.notReady == [work], "\(waiting)")
        #expect(host.workStatus.map(\.description) == ["\(work).http: running, 1 attempt(s)"])
        #expect(!lines.all.contains { $0.hasPrefix("listening ") })

        // The routes: one that answers at once, one that waits for the gate.
        let gate = Gate()
        let router = Router()
        router.get("hello") { _, _ in "hello\n" }
        router.get("slow") { _, _ -> String in
            await gate.wait()
            return "slow\n"
        }
        services.http.serve(router, port: 0, logger: Logger(label: "test"))
        try await host.waitUntilReady()

        // Ready: the listener was up before the work said so.
        let listening = try #require(lines.all.first { $0.hasPrefix("listening 127.0.0.1:") }, "\(lines.all)")
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        #expect(await host.health().isReady)
        #expect(host.workStatus.map(\.phase) == [.ready])
        let hello = await HTTPExchange.get(port: port, path: "/hello")
        #expect(hello.status == 200 && hello.body == "hello\n", "\(hello)")

        // A request in flight when the host stops the work: the server waits for it, then stops.
        let slow = Task { await HTTPExchange.get(port: port, path: "/slow") }
        await gate.waitUntilArrived()
        let terminating = Task { try await host.terminate() }
        while host.workStatus.map(\.phase) != [.stopping] { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!lines.all.contains("server: stopped"), "the server waits for the request in flight")
        gate.open()
        let answer = await slow.value
        try await terminating.value

        #expect(answer.status == 200 && answer.body == "slow\n" && answer.isComplete, "\(answer)")
        #expect(host.workStatus.map(\.phase) == [.stopped])
        let all = lines.all
        let stopped = try #require(all.firstIndex(of: "server: stopped"), "\(all)")
        let closing = try #require(all.firstIndex(of: "store: closing"), "\(all)")
        #expect(stopped < closing, "the work stops before willTerminate. \(all)")
        #expect(await HTTPExchange.get(port: port, path: "/hello").wasRefused, "the listener is closed")
    }

    @Test("Stopped before it had anything to serve: the work returns, and the host terminates")
    func stoppedBeforeItHadRoutes() async throws {
        let lines = Lines()
        let services = ExampleServices(transcript: Transcript { lines.append(String($0.dropLast())) })
        var options = LaunchOptions()
        options[ExampleServicesKey.self] = services
        let host = try ApplicationHost(manifest: .example, launchOptions: options)
        try await host.launch()
        try await host.terminate()

        #expect(host.workStatus.map(\.phase) == [.stopped])
        #expect(!lines.all.contains { $0.hasPrefix("listening ") || $0 == "server: stopped" }, "\(lines.all)")
        #expect(lines.all.contains("store: closed with 100 items"))
    }
}
