import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who runs the example's host and server (`--mode`): `HostRunner` and `HTTPServerModule`'s work, the
/// default, or a ServiceGroup.
enum ExampleMode: String, CaseIterable, Sendable {
    case work
    case serviceGroup = "service-group"

    /// The arguments that choose it.
    var arguments: [String] { ["--mode", rawValue] }
}

/// The example server, `service-lifecycle-example`, run as a real process: its standard output is read
/// line by line as it comes, its standard error goes to a file for failure messages.
final class ExampleProcess: Sendable {
    /// Where the example binary is: `SERVICE_LIFECYCLE_EXAMPLE`, else next to the test binary (SwiftPM puts
    /// every product of the package in one folder).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["SERVICE_LIFECYCLE_EXAMPLE"] {
            return URL(fileURLWithPath: path)
        }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("service-lifecycle-example")
    }

    /// The lines of standard output, shared with the thread that reads them.
    private final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    private let process: Process
    private let lines = Lines()
    private let stderrFile: URL

    /// Starts the example with `arguments`, in the test's environment changed by `environment`: a value
    /// sets its variable, `nil` removes it.
    init(arguments: [String], environment: [String: String?] = [:]) throws {
        process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
        }
        let output = Pipe()
        process.standardOutput = output
        stderrFile = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID()).stderr")
        guard FileManager.default.createFile(atPath: stderrFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: stderrFile.path])
        }
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()

        let reader = output.fileHandleForReading
        let thread = Thread { [lines] in
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }  // end of file: the process closed its output
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    lines.append(line)
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
        }
        thread.start()
    }

    /// The lines written to standard output so far.
    var transcript: [String] { lines.all }

    /// What the process wrote to standard error so far.
    var standardError: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until a line satisfies `condition`, polling; returns it, or `nil` after `timeout`.
    func waitForLine(timeout: Duration = .seconds(60), where condition: (String) -> Bool) async -> String? {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if let line = transcript.first(where: condition) { return line }
            try? await Task.sleep(for: .milliseconds(20))
        } while ContinuousClock.now < deadline
        return transcript.first(where: condition)
    }

    /// Waits until the server listens and the host has launched (`host: ready`: before it, every route but
    /// the health probes answers 503); returns the port, or `nil` after `timeout`.
    func waitUntilServing(timeout: Duration = .seconds(60)) async -> Int? {
        guard let listening = await waitForLine(timeout: timeout, where: { $0.hasPrefix("listening 127.0.0.1:") }),
            await waitForLine(timeout: timeout, where: { $0 == "host: ready" }) != nil
        else { return nil }
        return Int(listening.split(separator: ":").last ?? "")
    }

    /// Waits until every line in `expected` was written; `false` after `timeout`.
    func waitForLines(_ expected: [String], timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if Set(expected).isSubset(of: transcript) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        } while ContinuousClock.now < deadline
        return Set(expected).isSubset(of: transcript)
    }

    /// Waits for the process to exit and returns its exit status, or `nil` if it was killed by a signal or
    /// still runs after `timeout` (then it is killed).
    func waitForExit(timeout: Duration = .seconds(60)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: stderrFile)
    }
}

/// One HTTP/1.1 exchange over a plain loopback socket, as it happened on the wire.
struct HTTPExchange: Sendable {
    /// The status code, or `nil` if no status line arrived.
    var status: Int?
    /// The response headers, names lowercased.
    var headers: [String: String] = [:]
    /// The body, as received.
    var body = ""
    /// What went wrong at the socket level, if anything.
    var failure: String?
    /// How many bytes of the answer arrived.
    var received = 0
    /// When the answer was complete.
    var finished = ContinuousClock.now

    /// Whether the connection was refused: nothing listened on the port.
    var wasRefused: Bool { failure == "connect: errno \(ECONNREFUSED)" }

    /// Whether the body is as long as `Content-Length` says.
    var isComplete: Bool {
        guard failure == nil, let length = headers["content-length"].flatMap(Int.init) else { return false }
        return body.utf8.count == length
    }

    /// Sends `GET path` to 127.0.0.1:`port` with `Connection: close` and reads until the server closes the
    /// connection. Blocking, so it runs on a thread of its own, off the cooperative pool.
    static func get(port: Int, path: String, timeoutSeconds: Int = 60) async -> HTTPExchange {
        await request(port: port, path: path, timeoutSeconds: timeoutSeconds)
    }

    /// Sends `method path`, with `headers` and no body, as ``get(port:path:timeoutSeconds:)`` sends GET.
    static func request(
        _ method: String = "GET",
        port: Int,
        path: String,
        headers: [String: String] = [:],
        timeoutSeconds: Int = 60
    ) async -> HTTPExchange {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    returning: requestBlocking(
                        method,
                        port: port,
                        path: path,
                        headers: headers,
                        timeoutSeconds: timeoutSeconds
                    )
                )
            }
            thread.start()
        }
    }

    /// Writes `bytes`, a request as they are on the wire (well-formed or not), to a fresh connection, on a
    /// thread of its own, and reads until the server closes it. A server that gave up on the request may
    /// close before it is all written; what it answered counts.
    static func raw(_ bytes: [UInt8], port: Int, timeoutSeconds: Int = 60) async -> HTTPExchange {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: rawBlocking(bytes, port: port, timeoutSeconds: timeoutSeconds)) }
                .start()
        }
    }

    /// ``request(_:port:path:headers:timeoutSeconds:)`` on the calling thread, which it blocks: for a
    /// thread of the test's own.
    static func requestBlocking(
        _ method: String,
        port: Int,
        path: String,
        headers: [String: String],
        timeoutSeconds: Int
    ) -> HTTPExchange {
        let fields = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        let requestHead = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\(fields)\r\n"
        return rawBlocking(Array(requestHead.utf8), port: port, timeoutSeconds: timeoutSeconds)
    }

    /// ``raw(_:port:timeoutSeconds:)`` on the calling thread, which it blocks.
    static func rawBlocking(_ request: [UInt8], port: Int, timeoutSeconds: Int) -> HTTPExchange {
        var exchange = HTTPExchange()
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        let flags: Int32 = 0
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let flags = Int32(MSG_NOSIGNAL)  // a closed peer is an answer, not a SIGPIPE for the test process
        #endif
        guard fd >= 0 else { return HTTPExchange(failure: "socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return HTTPExchange(failure: "connect: errno \(errno)", finished: .now) }
        var written = 0
        while written < request.count {
            let count = request.withUnsafeBytes { send(fd, $0.baseAddress! + written, $0.count - written, flags) }
            if count <= 0 { break }
            written += count
        }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            if count < 0 {
                exchange.failure = "recv: errno \(errno)"
                break
            }
            received += buffer[0..<count]
        }
        exchange.finished = .now
        exchange.received = received.count
        let text = String(decoding: received, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            exchange.status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
        }
        guard let headerEnd = text.range(of: "\r\n\r\n") else {
            exchange.failure = exchange.failure ?? "no complete header in \(received.count) bytes"
            return exchange
        }
        let head = text[..<headerEnd.lowerBound].split(separator: "\r\n", omittingEmptySubsequences: false)
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            exchange.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        exchange.body = String(text[headerEnd.upperBound...])
        return exchange
    }
}

/// A supervisor's notification socket, as systemd makes one for a `Type=notify` service: a Unix datagram
/// socket whose path a process finds in `NOTIFY_SOCKET`. Keeps every message it receives (`READY=1`,
/// `STATUS=…`, `STOPPING=1`), read on a thread of its own until the socket is let go.
final class NotifySocket: Sendable {
    /// The messages, shared with the reading thread.
    private final class Inbox: Sendable {
        let messages = Mutex<[String]>([])
        let closed = Mutex(false)
    }

    /// The socket's path: the value of `NOTIFY_SOCKET`.
    let path: String
    private let inbox = Inbox()

    init() throws {
        path = "/tmp/notify-\(UUID().uuidString.prefix(8)).sock"
        #if canImport(Darwin)
        let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
        #else
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
        // Wakes the reader every 100 ms, so that it sees the socket let go.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let (inbox, path) = (inbox, path)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while !inbox.closed.withLock({ $0 }) {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { continue }
                let message = String(decoding: buffer[0..<count], as: UTF8.self)
                inbox.messages.withLock { $0.append(message) }
            }
            close(fd)
            unlink(path)
        }.start()
    }

    /// Every message received so far, in order.
    var messages: [String] { inbox.messages.withLock { $0 } }

    /// Waits until a message satisfies `condition`; returns it, or `nil` after `timeout`.
    func waitForMessage(timeout: Duration = .seconds(60), where condition: (String) -> Bool) async -> String? {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if let message = messages.first(where: condition) { return message }
            try? await Task.sleep(for: .milliseconds(5))
        } while ContinuousClock.now < deadline
        return messages.first(where: condition)
    }

    deinit { inbox.closed.withLock { $0 = true } }
}
