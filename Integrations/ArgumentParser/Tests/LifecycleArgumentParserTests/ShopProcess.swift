import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The example, `shop`, run as a real process: standard output read line by line as it comes, standard error
/// collected for the messages.
final class ShopProcess: Sendable {
    /// Where the binary is: `SHOP_BINARY`, else next to the test binary (SwiftPM puts every product of the
    /// package in one folder).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["SHOP_BINARY"] { return URL(fileURLWithPath: path) }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("shop")
    }

    private final class Lines: Sendable {
        private let lines = Mutex<(all: [String], finished: Bool)>(([], false))
        func append(_ line: String) { lines.withLock { $0.all.append(line) } }
        func finish() { lines.withLock { $0.finished = true } }
        var all: [String] { lines.withLock { $0.all } }
        var isFinished: Bool { lines.withLock { $0.finished } }
    }

    private let process: Process
    private let lines = Lines()
    private let errors = Lines()

    /// Starts `shop` with `arguments`, in the test's environment changed by `environment`.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        Self.reader(output.fileHandleForReading, into: lines).start()
        Self.reader(error.fileHandleForReading, into: errors).start()
    }

    private static func reader(_ handle: FileHandle, into lines: Lines) -> Thread {
        Thread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }  // end of file
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self)) }
            lines.finish()
        }
    }

    /// The lines of standard output so far.
    var transcript: [String] { lines.all }
    /// Standard error so far.
    var standardError: String { errors.all.joined(separator: "\n") }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until `line` was written; `false` after `timeout`.
    func waitFor(_ line: String, timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if transcript.contains(line) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return transcript.contains(line)
    }

    /// Waits for the process to exit, and for its output to be read; its exit status (128 + n when a signal
    /// ended it unhandled), or `nil` after `timeout`, when the process is killed.
    func exitStatus(timeout: Duration = .seconds(60)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else {
            send(SIGKILL)
            return nil
        }
        while !(lines.isFinished && errors.isFinished), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let status = process.terminationStatus
        return process.terminationReason == .uncaughtSignal ? 128 + status : status
    }

    /// Runs `shop` with `arguments` to its end.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:]
    ) async throws -> (status: Int32?, output: [String], error: String) {
        let process = try ShopProcess(arguments, environment: environment)
        let status = await process.exitStatus()
        return (status, process.transcript, process.standardError)
    }
}
