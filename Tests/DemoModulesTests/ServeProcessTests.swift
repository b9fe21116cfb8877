import DemoModules
import Foundation
import LifecycleCore
import LifecycleHosting
import LifecycleMessaging
import LifecycleProxy
import LifecycleTesting
import Testing

/// `lifecycle-demo serve` as a real process: real signals, its printed deliveries, its exit code.
@Suite("lifecycle-demo serve, as a process", .serialized, .timeLimit(.minutes(1)))
struct ServeProcessTests {
    @Test("USR1, USR2, HUP, TERM: background, foreground, reload and terminate, each in plan order; exit 0")
    func signalsDriveTheLifecycle() async throws {
        let demo = try DemoProcess(["serve", "--terminate-deadline", "5"])
        try await demo.waitFor("▶ runner: launched; serving")
        for signal in [SIGUSR1, SIGUSR2, SIGHUP] {
            let mark = demo.lines.count
            demo.send(signal)
            try await demo.waitFor("▶ runner: handled", after: mark)
        }
        demo.send(SIGTERM)
        let status = try await demo.exitStatus()

        #expect(status == 0)
        #expect(demo.lines.last == "▶ runner: exit 0 (clean)")
        // The deliveries after launch, in order, are exactly each event's plan, event after event.
        var options = demo.launchOptions
        let console = DemoConsole(echo: false)
        options[DemoServicesKey.self] = DemoServices(console: console)
        let host = try ApplicationHost(
            manifest: .DemoModules,
            delegate: DemoAppDelegate(console: console),
            launchOptions: options
        )
        let events: [LifecycleEvent] = [
            .willResignActive, .didEnterBackground, .willEnterForeground, .didBecomeActive,
            LifecycleEvent(custom: ReloadRequested.self), .willTerminate,
        ]
        let expected = events.flatMap { event in host.plan(for: event).map { "\(event.name) → \(short($0.name))" } }
        let launched = try #require(demo.lines.firstIndex(of: "▶ runner: launched; serving"))
        #expect(demo.deliveries(after: launched) == expected)
        #expect(
            demo.lines.filter { $0.hasPrefix("▶ runner: received") } == [
                "▶ runner: received SIGUSR1: background", "▶ runner: received SIGUSR2: foreground",
                "▶ runner: received SIGHUP: reload", "▶ runner: received SIGTERM: terminate",
            ]
        )
        #expect(demo.lines.contains("    Configuration: reloaded on SIGHUP; nothing changed"))
        // The reload is told to the modules that care, by message, in delivery order.
        let told = try #require(host.context.messageBus?.receivers(of: ConfigurationChanged.self))
        #expect(told.map { short($0.name) } == ["CacheWarmupModule", "MetricsModule"])
        #expect(demo.messages(after: launched) == told.map { "ConfigurationChanged → \(short($0.name))" })
        #expect(demo.lines.contains("    Configuration: told 2 module(s) through the message bus"))
    }

    @Test("Under systemd (Type=notify): READY, watchdog pings, RELOADING then READY on SIGHUP, STOPPING on SIGTERM")
    func systemdNotifications() async throws {
        let socket = try NotifySocket()
        let spawned = ContinuousClock.now  // no ping can come before this
        let demo = try DemoProcess(
            ["serve", "--terminate-deadline", "5"],
            environment: ["NOTIFY_SOCKET": socket.name, "WATCHDOG_USEC": "400000"]
        )
        #expect(await socket.receive() == "STATUS=launching")
        #expect(await socket.receiveReady() == "READY=1\nSTATUS=serving")
        // The watchdog: a ping every 200 ms while the host is responsive. The pings queue in the socket from
        // READY on, however late this test reads them, so the most there can be follows from the time since
        // the process was spawned, which is before READY: on a loaded machine that bound grows with the delay.
        try await Task.sleep(for: .seconds(1))
        var pings = 0
        while let ping = await socket.receive(timeout: .milliseconds(10)) {
            #expect(ping == "WATCHDOG=1")
            pings += 1
        }
        let most = Int((ContinuousClock.now - spawned) / .milliseconds(200)) + 1
        #expect((2...most).contains(pings), "a ping every 200 ms, at most \(most) since the spawn: \(pings)")
        demo.send(SIGHUP)
        var received: [String] = []
        while received.last != "READY=1\nSTATUS=serving", let next = await socket.receive() {
            if next != "WATCHDOG=1" { received.append(next) }
        }
        #expect(received.count == 2)
        #expect(received.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        #expect(received.first?.hasSuffix("\nSTATUS=reloading on SIGHUP") == true)
        demo.send(SIGTERM)
        var stopping: String?
        while stopping == nil, let next = await socket.receive() {
            if next != "WATCHDOG=1" { stopping = next }
        }
        #expect(stopping == "STOPPING=1\nSTATUS=terminating on SIGTERM")
        #expect(try await demo.exitStatus() == 0)
    }

    @Test("Watchdog: pings at half WATCHDOG_USEC, none once a reload hook blocks the host; the shutdown limit ends it")
    func watchdogStopsWhileAModuleBlocks() async throws {
        let socket = try NotifySocket()
        // The reload hangs; terminate deadline 0.5 s, so the runner's shutdown limit is 1.5 s.
        let spawned = ContinuousClock.now  // no ping can come before this
        let demo = try DemoProcess(
            ["serve", "--terminate-deadline", "0.5"],
            environment: [
                "NOTIFY_SOCKET": socket.name, "WATCHDOG_USEC": "400000", "LIFECYCLE_DEMO_HANG_ON_RELOAD": "1",
            ]
        )
        #expect(await socket.receive() == "STATUS=launching")
        #expect(await socket.receiveReady() == "READY=1\nSTATUS=serving")
        // Responsive: a ping every 200 ms. The pings queue in the socket from READY on, however late this test
        // reads them; the process was spawned before READY, so the time since the spawn bounds how many there
        // can be, on a loaded machine too.
        try await Task.sleep(for: .milliseconds(800))
        var pings = 0
        while let ping = await socket.receive(timeout: .milliseconds(10)) {
            #expect(ping == "WATCHDOG=1")
            pings += 1
        }
        let window = ContinuousClock.now - spawned
        #expect(pings >= 1, "at least one ping in \(window)")
        #expect(pings <= Int(window / .milliseconds(200)) + 1, "no faster than one per 200 ms: \(pings) in \(window)")

        // SIGHUP: the reload hook never returns. After RELOADING=1, at most one ping already on its way, then
        // none for more than two intervals (systemd, with WatchdogSec=400 ms, would restart the service).
        // `STATUS=` lines saying what the host waits on may come meanwhile; they are not pings.
        demo.send(SIGHUP)
        var reloading: String?
        while reloading == nil, let next = await socket.receive() {
            if next != "WATCHDOG=1" { reloading = next }
        }
        #expect(reloading?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        try await demo.waitFor("    Configuration: reloading on SIGHUP hangs")
        let quietUntil = ContinuousClock.now + .milliseconds(1_100)
        var pingsWhileHung = 0
        while ContinuousClock.now < quietUntil, let next = await socket.receive(timeout: quietUntil - .now) {
            #expect(next == "WATCHDOG=1" || next.hasPrefix("STATUS="), "\(next)")
            if next == "WATCHDOG=1" { pingsWhileHung += 1 }
        }
        #expect(pingsWhileHung <= 1, "1.1 s of a blocked host, over five intervals: \(pingsWhileHung) pings")

        // SIGTERM queues behind the hung reload: STOPPING=1 at once, then the shutdown limit ends the run. The
        // exit status and the runner's line show the limit ended it; how long that took on this machine is not
        // asserted (a loaded machine stretches it).
        demo.send(SIGTERM)
        var stopping: String?
        while stopping == nil, let next = await socket.receive() {
            if !next.hasPrefix("STATUS=") { stopping = next }
        }
        #expect(stopping == "STOPPING=1\nSTATUS=terminating on SIGTERM")
        let status = try await demo.exitStatus()
        #expect(status == 4)
        #expect(demo.lines.contains("▶ runner: shutdown limit of 1.5 seconds passed"))
        #expect(!demo.lines.contains("    Configuration: reloaded on SIGHUP; nothing changed"))
    }

    @Test(
        "A modules file: SIGHUP switches a module off, then on again, in the running process; a broken or cut one changes nothing"
    )
    func reloadSwitchesModules() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("modules-\(UUID()).conf").path
        try "# every module on\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let demo = try DemoProcess(["serve", "--modules-file", file, "--terminate-deadline", "5"])
        try await demo.waitFor("▶ runner: launched; serving")

        try "MetricsModule = off\n".write(toFile: file, atomically: true, encoding: .utf8)
        let off = demo.lines.count
        demo.send(SIGHUP)
        try await demo.waitFor("▶ runner: handled SIGHUP", after: off)
        #expect(
            demo.lines.dropFirst(off).contains(
                "▶ runner: modules changed: off: DemoModules.MetricsModule (switched off by \(file):1)"
            )
        )
        // Its teardown, to it alone, then the reload, to everyone else.
        let afterOff = demo.deliveries(after: off)
        #expect(afterOff.prefix(2) == ["didEnterBackground → MetricsModule", "willTerminate → MetricsModule"])
        #expect(afterOff.dropFirst(2).allSatisfy { $0.hasPrefix("ReloadRequested → ") && !$0.hasSuffix("Metrics") })
        #expect(demo.messages(after: off) == ["ConfigurationChanged → CacheWarmupModule"])

        try "MetricsModule = on\n".write(toFile: file, atomically: true, encoding: .utf8)
        let on = demo.lines.count
        demo.send(SIGHUP)
        try await demo.waitFor("▶ runner: handled SIGHUP", after: on)
        #expect(demo.lines.dropFirst(on).contains("▶ runner: modules changed: on: DemoModules.MetricsModule"))
        #expect(demo.deliveries(after: on).first == "didBecomeActive → MetricsModule")
        #expect(
            demo.messages(after: on) == [
                "ConfigurationChanged → CacheWarmupModule", "ConfigurationChanged → MetricsModule",
            ]
        )

        // A broken file, and one cut inside a line (as a reader can find one being written): each is refused,
        // naming its line; nothing changes, and the modules still receive the reload.
        for (text, line) in [("MetricsModule = maybe\n", 1), ("MetricsModule = on\nMetricsMod", 2)] {
            try text.write(toFile: file, atomically: false, encoding: .utf8)
            let refused = demo.lines.count
            demo.send(SIGHUP)
            try await demo.waitFor("▶ runner: handled SIGHUP", after: refused)
            #expect(
                demo.lines.dropFirst(refused).contains {
                    $0.hasPrefix(
                        "▶ runner: handled SIGHUP: reload failed: reloadModules() was refused: \(file):\(line):"
                    )
                },
                "\(text.debugDescription)"
            )
            #expect(demo.deliveries(after: refused).allSatisfy { $0.hasPrefix("ReloadRequested → ") })
        }

        demo.send(SIGTERM)
        #expect(try await demo.exitStatus() == 0)
    }

    @Test("A willTerminate that never returns: the process still exits at the deadline, with code 4")
    func hungModule() async throws {
        let demo = try DemoProcess(["serve", "--terminate-deadline", "1", "--slow-terminate", "forever"])
        try await demo.waitFor("▶ runner: launched; serving")
        let clock = ContinuousClock()
        let start = clock.now
        demo.send(SIGTERM)
        let status = try await demo.exitStatus()
        let elapsed = clock.now - start

        #expect(status == 4)
        #expect(elapsed < .seconds(3), "deadline 1 s, plus the time to exit on a loaded machine")
        let exit = try #require(demo.lines.last)
        #expect(exit.hasPrefix("▶ runner: exit 4 (deadline exceeded): terminate() ran past its deadline"))
        #expect(
            exit.contains("abandoned willTerminate of: DemoModules.SlowShutdownModule, DemoModules.DatabasePoolModule")
        )
    }

    @Test("One SIGINT (Ctrl-C): a graceful termination, as SIGTERM's; exit 0")
    func oneInterrupt() async throws {
        let demo = try DemoProcess(["serve", "--terminate-deadline", "5"])
        try await demo.waitFor("▶ runner: launched; serving")
        demo.send(SIGINT)
        let status = try await demo.exitStatus()

        #expect(status == 0)
        #expect(demo.lines.contains("▶ runner: received SIGINT: interrupt"))
        let launched = try #require(demo.lines.firstIndex(of: "▶ runner: launched; serving"))
        #expect(demo.deliveries(after: launched).allSatisfy { $0.hasPrefix("willTerminate → ") })
        #expect(!demo.deliveries(after: launched).isEmpty)
        #expect(demo.lines.last == "▶ runner: exit 0 (clean)")
    }

    @Test("A second SIGINT: the running willTerminate finishes, the rest are skipped; exit 130")
    func secondInterrupt() async throws {
        let demo = try DemoProcess(["serve", "--slow-terminate", "2"])
        try await demo.waitFor("▶ runner: launched; serving")
        demo.send(SIGINT)
        try await demo.waitFor("    SlowShutdown: flushing, 2.0 seconds…")
        demo.send(SIGINT)
        let status = try await demo.exitStatus()

        #expect(status == 130)
        let launched = try #require(demo.lines.firstIndex(of: "▶ runner: launched; serving"))
        #expect(
            demo.deliveries(after: launched) == ["willTerminate → MetricsModule", "willTerminate → SlowShutdownModule"]
        )
        #expect(demo.lines.contains("    SlowShutdown: flushed"))
        let exit = try #require(demo.lines.last)
        #expect(exit.hasPrefix("▶ runner: exit 130 (interrupted by SIGINT)"))
        #expect(
            exit.contains("willTerminate was skipped for: DemoModules.DatabasePoolModule, DemoModules.LoggingModule")
        )
    }

    @Test("A bad signal map is refused with exit 64 and says what is accepted")
    func badSignalMap() async throws {
        let demo = try DemoProcess(["serve", "--signals", "TERM=stop"])
        #expect(try await demo.exitStatus() == 64)
        #expect(
            demo.lines.first?.hasPrefix("error: Invalid signal map entry \"TERM=stop\": \"stop\" is not an action")
                == true
        )
    }

    @Test("Docs/Hosting.md's ServerExample: launches, reloads on HUP, drains on TERM; exit 0")
    func serverExample() async throws {
        let server = try DemoProcess([], executable: "ServerExample")
        try await server.waitFor("lifecycle: launched; serving")
        server.send(SIGHUP)
        try await server.waitFor("lifecycle: handled SIGHUP: reload")
        server.send(SIGTERM)
        #expect(try await server.exitStatus() == 0)
        // The modules print through stdout's buffer, flushed at exit; the runner reports unbuffered.
        for line in [
            "listener: accepting connections", "listener: settings re-read on SIGHUP", "listener: drained and closed",
        ] {
            #expect(server.lines.contains(line))
        }
        #expect(server.lines.contains("lifecycle: exit 0 (clean)"))
    }

    @Test("ServerExample refuses an unreadable LIFECYCLE_SIGNALS as a usage error: exit 64, naming the entry")
    func serverExampleBadSignalMap() async throws {
        let server = try DemoProcess([], executable: "ServerExample", environment: ["LIFECYCLE_SIGNALS": "HUP=dance"])
        #expect(try await server.exitStatus() == 64)
        let line = try #require(server.lines.first { $0.hasPrefix("server: ") })
        #expect(line.contains("HUP=dance"))
        #expect(!server.lines.contains("lifecycle: launched; serving"))
    }

    @Test("serve's listener is a module's work: it answers HTTP once ready, and closes before willTerminate")
    func listenerWork() async throws {
        let socket = try NotifySocket()
        let demo = try DemoProcess(["serve"], environment: ["NOTIFY_SOCKET": socket.name])
        #expect(await socket.receive() == "STATUS=launching")
        #expect(await socket.receiveReady() == "READY=1\nSTATUS=serving")
        // READY=1 came after the work reported ready, so the line naming the port was written and the port
        // answers. The line comes through a pipe and a reader thread of this process, the datagram does not:
        // wait for the reader rather than assume it kept up.
        try await demo.waitFor("    Listener: serving HTTP on 127.0.0.1:")
        let serving = try #require(demo.lines.first { $0.hasPrefix("    Listener: serving HTTP on 127.0.0.1:") })
        let port = try #require(UInt16(serving.split(separator: ":").last ?? ""))
        #expect(try httpGet("/health", port: port).hasSuffix("\r\n\r\nactive\n"))
        #expect(try httpGet("/nothing", port: port).hasPrefix("HTTP/1.1 404"))
        let mark = demo.lines.count
        demo.send(SIGTERM)
        #expect(try await demo.exitStatus() == 0)
        let after = Array(demo.lines[mark...])
        let closed = try #require(after.firstIndex(of: "    Listener: closed after 2 request(s)"))
        let terminate = try #require(after.firstIndex { $0.hasPrefix("  ✓ willTerminate") })
        #expect(closed < terminate, "the work stops before the first willTerminate hook")
    }

    /// The response to `GET path` from 127.0.0.1:`port`, through a plain socket.
    private func httpGet(_ path: String, port: UInt16) throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw DemoProcessError(expected: "a listener on port \(port)", lines: []) }
        let request = "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n"
        _ = request.withCString { write(descriptor, $0, strlen($0)) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }

    private func short(_ name: String) -> String { String(name.split(separator: ".").last ?? "") }
}

/// A running `lifecycle-demo`, whose standard output is collected line by line as it comes.
///
/// A thread of its own reads the pipe, blocking, until the process closes it. Not a `readabilityHandler`:
/// that puts the pipe in libdispatch's event loop, which on Linux can crash the whole test process while
/// pipes open and close (`_dispatch_event_loop_drain`, a bad pointer; swift-corelibs-foundation issue 3276),
/// as it did once in CI.
final class DemoProcess: Sendable {
    let process: Process
    let arguments: [String]
    private let output = Output()

    /// The lines read so far, the start of the next one, and whether the process closed its output.
    private final class Output: Sendable {
        let state = Locked<(lines: [String], partial: String, closed: Bool)>(([], "", false))
    }

    /// The launch options the process sees, for building the same host in the test.
    var launchOptions: LaunchOptions { LaunchOptions(arguments: ["lifecycle-demo"] + arguments) }

    init(_ arguments: [String], executable: String = "lifecycle-demo", environment: [String: String] = [:]) throws {
        self.arguments = arguments
        let process = Process()
        process.executableURL = try Self.executable(executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        self.process = process
        try process.run()
        let (output, reader) = (self.output, pipe.fileHandleForReading)
        Thread {
            while true {
                let chunk = reader.availableData
                let text = String(decoding: chunk, as: UTF8.self)
                output.state.withLock { output in
                    let pieces = (output.partial + text).split(separator: "\n", omittingEmptySubsequences: false)
                    output.lines += pieces.dropLast().map(String.init)
                    output.partial = String(pieces.last ?? "")
                    output.closed = chunk.isEmpty
                }
                if chunk.isEmpty { return }  // end of file: the process closed its output
            }
        }.start()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var lines: [String] { output.state.withLock { $0.lines } }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until a line starting with `prefix` appears after the first `after` lines.
    func waitFor(_ prefix: String, after: Int = 0, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !lines.dropFirst(after).contains(where: { $0.hasPrefix(prefix) }) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw DemoProcessError(expected: prefix, lines: lines)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for the process to exit and its output to be read; returns its exit code.
    func exitStatus(timeout: Duration = .seconds(20)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw DemoProcessError(expected: "exit", lines: lines) }
            try await Task.sleep(for: .milliseconds(10))
        }
        // The last lines may still be in the pipe: wait until the reader reached its end.
        while !output.state.withLock({ $0.closed }) {
            guard ContinuousClock.now < deadline else {
                throw DemoProcessError(expected: "the end of the output", lines: lines)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    /// The "event → Module" deliveries printed after line `index`.
    /// The lifecycle deliveries after line `index`, as "event → Module".
    func deliveries(after index: Int) -> [String] {
        lines.dropFirst(index + 1).compactMap { line -> String? in
            guard line.hasPrefix("  ✓ ") || line.hasPrefix("  ✗ ") else { return nil }
            let parts = line.dropFirst(4).split(separator: " ")
            return parts.count >= 3 && parts[0] != "message" ? "\(parts[0]) → \(parts[2])" : nil
        }
    }

    /// The message deliveries after line `index`, as "Message → Module".
    func messages(after index: Int) -> [String] {
        lines.dropFirst(index + 1).compactMap { line -> String? in
            guard line.hasPrefix("  ✓ message ") || line.hasPrefix("  ✗ message ") else { return nil }
            let parts = line.dropFirst(12).split(separator: " ")
            return parts.count >= 3 ? "\(parts[0]) → \(parts[2])" : nil
        }
    }

    /// The package's executable `name`, next to the test bundle in the build directory (`swift build
    /// --build-tests` and `swift test` build it).
    static func executable(_ name: String) throws -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw DemoProcessError(expected: "the \(name) executable near \(Bundle.main.bundleURL.path)", lines: [])
    }
}

struct DemoProcessError: Error, CustomStringConvertible {
    let expected: String
    let lines: [String]
    var description: String {
        "lifecycle-demo: no \"\(expected)\" yet; its output so far:\n" + lines.joined(separator: "\n")
    }
}

extension NotifySocket {
    /// The next message after launch: READY=1 once the host is ready. The listener's work reports readiness
    /// after launch completed, so the runner may first say it waits for it (`STATUS=starting work`).
    func receiveReady() async -> String? {
        let message = await receive()
        return message == "STATUS=starting work" ? await receive() : message
    }
}
