import Foundation
import Synchronization
import Testing

/// The built `ModularServer` executable as a real process: requests on its standard input, responses on its
/// standard output, a real SIGTERM, and its exit code.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ServerProcessTests {
    @Test func itAnswersLinesThenTerminatesThroughTheLifecycleOnSIGTERM() async throws {
        let server = try ServerProcess()
        server.send("GET /greetings/42")
        server.send("GET /accounts/42?key=tutorial")
        try await server.waitFor(responses: 2)
        #expect(server.responses == ["200 hello, Ada! (visit 1)", "200 account 42: Ada, 1 visit(s)"])

        server.signal(SIGTERM)
        #expect(try await server.exitStatus() == 0)
        #expect(server.log.contains("lifecycle: received SIGTERM: terminate"))
        #expect(server.log.contains("server: stopped, after every module"))
        #expect(server.log.last == "lifecycle: exit 0 (clean)")
    }

    @Test func theEndOfItsInputTerminatesIt() async throws {
        let server = try ServerProcess()
        server.send("GET /greetings/7")
        server.closeInput()
        #expect(try await server.exitStatus() == 0)
        #expect(server.responses == ["200 hello, Grace! (visit 1)"])
        #expect(server.log.contains("server: no more requests"))
        #expect(server.log.contains("server: stopped, after every module"))
    }
}

/// A running `ModularServer`: what it writes is collected line by line, its standard output apart from its
/// standard error.
final class ServerProcess: Sendable {
    let process: Process
    private let input: FileHandle
    private let output = Lines()
    private let errors = Lines()

    /// The lines of one stream, as they arrive.
    private final class Lines: Sendable {
        let state = Mutex<(lines: [String], partial: String, closed: Bool)>(([], "", false))

        /// Reads `handle` on a thread of its own, blocking, until the process closes it. (A
        /// `readabilityHandler` would put the pipe in libdispatch's event loop, which on Linux can crash the
        /// test process while pipes open and close.)
        func read(_ handle: FileHandle) {
            Thread {
                while true {
                    let data = handle.availableData
                    let text = String(decoding: data, as: UTF8.self)
                    self.state.withLock { state in
                        let pieces = (state.partial + text).split(separator: "\n", omittingEmptySubsequences: false)
                        state.lines += pieces.dropLast().map(String.init)
                        state.partial = String(pieces.last ?? "")
                        state.closed = data.isEmpty
                    }
                    if data.isEmpty { return }  // end of file
                }
            }.start()
        }

        var lines: [String] { state.withLock { $0.lines } }
        var closed: Bool { state.withLock { $0.closed } }
    }

    init() throws {
        let process = Process()
        process.executableURL = try Self.executable("ModularServer")
        var environment = ProcessInfo.processInfo.environment
        environment["MODULAR_SERVER_KEY"] = "tutorial"
        process.environment = environment
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        self.process = process
        input = stdin.fileHandleForWriting
        try process.run()
        output.read(stdout.fileHandleForReading)
        errors.read(stderr.fileHandleForReading)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The response lines so far.
    var responses: [String] { output.lines }
    /// The log lines so far: the server's and the runner's.
    var log: [String] { errors.lines }

    func send(_ request: String) { input.write(Data("\(request)\n".utf8)) }
    func closeInput() { try? input.close() }
    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until the server has written `count` responses.
    func waitFor(responses count: Int, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while responses.count < count {
            guard ContinuousClock.now < deadline, process.isRunning else { throw Failure(server: self) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for the process to exit and its output to be read; returns its exit code.
    func exitStatus(timeout: Duration = .seconds(20)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw Failure(server: self) }
            try await Task.sleep(for: .milliseconds(10))
        }
        while !output.closed || !errors.closed {  // the last lines may still be in the pipes
            guard ContinuousClock.now < deadline else { throw Failure(server: self) }
            try await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    /// The package's executable `name`, next to the test bundle in the build directory.
    static func executable(_ name: String) throws -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw Failure(description: "no \(name) executable near \(Bundle.main.bundleURL.path): swift build first")
    }

    /// The server did not do what the test waited for; the description has what it wrote.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(description: String) { self.description = description }

        init(server: ServerProcess) {
            description =
                "the server did not answer in time; it wrote:\n"
                + (server.responses + server.log).joined(separator: "\n")
        }
    }
}
