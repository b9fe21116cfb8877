#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A Unix datagram socket a test listens on, as systemd listens on `NOTIFY_SOCKET`: pass ``name`` to the
/// program under test as `NOTIFY_SOCKET` (or to `SystemdNotifier(environment:)`), then read what it sent.
///
/// ```swift
/// let socket = try NotifySocket()
/// // start the server with NOTIFY_SOCKET=socket.name …
/// #expect(await socket.receive() == "READY=1\nSTATUS=serving")
/// ```
public final class NotifySocket: Sendable {
    /// What `NOTIFY_SOCKET` names: a path, or `@name` in the abstract namespace.
    public let name: String
    private let descriptor: Int32

    /// Binds a new socket: a file in the temporary directory, or, with `abstract`, a name in Linux's abstract
    /// namespace (`@…`).
    public init(abstract: Bool = false) throws {
        let unique = "lifecycle-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        name = abstract ? "@" + unique : FileManager.default.temporaryDirectory.appendingPathComponent(unique).path
        #if canImport(Glibc) || canImport(Musl)
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #else
        descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(name.utf8)
        if abstract { path[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard descriptor >= 0, bound == 0 else { throw SocketError(errno: errno) }
    }

    deinit {
        close(descriptor)
        if !name.hasPrefix("@") { unlink(name) }
    }

    /// The next datagram, or `nil` after `timeout` without one. Polls without blocking, sleeping a
    /// millisecond between looks: a blocking wait would hold one of the two cooperative threads.
    ///
    /// The default of 60 seconds is for a datagram that must come: it only bounds how long a failing test
    /// waits, so it is generous enough for a loaded machine or a sanitizer build (5 seconds was not). Pass a
    /// short `timeout` to check that nothing comes.
    public func receive(timeout: Duration = .seconds(60)) async -> String? {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count >= 0 { return String(decoding: buffer[0..<count], as: UTF8.self) }
            guard ContinuousClock.now < deadline else { return nil }
            do { try await Task.sleep(for: .milliseconds(1)) } catch { return nil }
        }
    }

    /// The socket could not be made or bound; `errno` says why.
    public struct SocketError: Error {
        public let errno: Int32
    }
}
