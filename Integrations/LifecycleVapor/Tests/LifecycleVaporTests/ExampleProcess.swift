import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The example server, `vapor-example`, run as a real process on a free loopback port: its standard output
/// is read line by line as it comes, its standard error goes to a file for failure messages.
final class ExampleProcess: Sendable {
    /// Where the example binary is: `VAPOR_EXAMPLE`, else next to the test binary (SwiftPM puts every product
    /// of the package in one folder).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["VAPOR_EXAMPLE"] {
            return URL(fileURLWithPath: path)
        }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("vapor-example")
    }

    private final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    private let process: Process
    private let lines = Lines()
    private let stderrFile: URL

    /// Starts `vapor-example serve --hostname 127.0.0.1 --port 0` with `environment` added.
    init(environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--hostname", "127.0.0.1", "--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        stderrFile = FileManager.default.temporaryDirectory.appendingPathComponent("vapor-example-\(UUID()).stderr")
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
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
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

    /// Waits until a line satisfies `condition`, polling; returns it, or `nil` after `timeout` (a bound so
    /// a broken server fails the test instead of hanging it, not a timing assertion).
    func waitForLine(timeout: Duration = .seconds(60), where condition: (String) -> Bool) async -> String? {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if let line = transcript.first(where: condition) { return line }
            try? await Task.sleep(for: .milliseconds(20))
        } while ContinuousClock.now < deadline
        return transcript.first(where: condition)
    }

    /// Waits until Vapor says `Server started on http://127.0.0.1:<port>`; returns the port.
    func waitUntilServing() async -> Int? {
        let prefix = "Server started on http://127.0.0.1:"
        guard let line = await waitForLine(where: { $0.contains(prefix) }), let start = line.range(of: prefix) else {
            return nil
        }
        // The digits right after the prefix: at `--log debug` Vapor's line ends with its source location.
        return Int(line[start.upperBound...].prefix { $0.isNumber })
    }

    /// Waits for the process to exit, at most `timeout`; its exit code, or `nil` (then it is killed).
    func waitForExit(timeout: Duration = .seconds(60)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning else {
            send(SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// One HTTP/1.1 exchange on a fresh loopback connection (`Connection: close`), on a thread of its own so a
/// slow answer blocks no task: the status and the body.
func http(_ method: String, _ path: String, port: Int, headers: [String: String] = [:]) async throws -> (Int, String) {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(with: Result { try blockingHTTP(method, path, port: port, headers: headers) })
        }
        .start()
    }
}

struct HTTPFailure: Error, CustomStringConvertible {
    let description: String
}

/// One exchange of raw bytes on a fresh loopback connection, on a thread of its own: the status of the answer,
/// or `nil` when the server closed the connection without one (as Vapor does with a request it cannot parse).
func rawHTTP(_ request: [UInt8], port: Int) async throws -> Int? {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(
                with: Result {
                    let text = String(decoding: try exchange(request, port: port), as: UTF8.self)
                    guard text.hasPrefix("HTTP/") else { return nil }
                    return Int(text.split(separator: " ").dropFirst().first ?? "")
                }
            )
        }
        .start()
    }
}

private func blockingHTTP(
    _ method: String,
    _ path: String,
    port: Int,
    headers: [String: String]
) throws -> (Int, String) {
    let head = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
    let request = Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(head)\r\n".utf8)
    let text = String(decoding: try exchange(request, port: port), as: UTF8.self)
    guard let status = Int(text.split(separator: " ").dropFirst().first ?? ""),
        let bodyStart = text.range(of: "\r\n\r\n")
    else { throw HTTPFailure(description: "not an HTTP response: \(text.prefix(80))") }
    return (status, String(text[bodyStart.upperBound...]))
}

/// Writes `request` to a fresh connection to 127.0.0.1:`port` and reads until the server closes it. A reset
/// connection ends the answer like a close does.
private func exchange(_ request: [UInt8], port: Int) throws -> [UInt8] {
    #if canImport(Glibc)
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard socket >= 0 else { throw HTTPFailure(description: "socket: errno \(errno)") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw HTTPFailure(description: "connect 127.0.0.1:\(port): errno \(errno)") }
    var written = 0
    while written < request.count {
        // A server that gave up on the request may close before it is all written: what it answered counts.
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)  // a closed peer is an answer, not a SIGPIPE for the test process
        #else
        let flags: Int32 = 0
        #endif
        let count = request.withUnsafeBytes { send(socket, $0.baseAddress! + written, $0.count - written, flags) }
        if count <= 0 { break }
        written += count
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        response += buffer[..<count]
    }
    return response
}
