#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A closed-loop HTTP/1.1 load generator on raw blocking sockets: `clients` threads, each with one
/// keep-alive connection to 127.0.0.1:`port`, each sending `GET path` and reading the whole answer before
/// the next, until `requests` requests were answered in all. Returns every request's round trip, in
/// nanoseconds. Bounded: it sends exactly `requests` requests and stops; a failure stops it with an error.
/// Every answer must be `200 OK`, and each connection's first answer must have the body `expected`.
public struct LoadGenerator: Sendable {
    let port: Int
    let path: String
    let expected: String
    let clients: Int
    let requests: Int

    /// A generator of `requests` requests for `path` from `clients` connections to 127.0.0.1:`port`.
    public init(port: Int, path: String, expected: String, clients: Int, requests: Int) {
        (self.port, self.path, self.expected, self.clients, self.requests) = (port, path, expected, clients, requests)
    }

    /// What the client threads share: the requests left to send, and what they measured.
    private final class Shared: Sendable {
        let remaining: Atomic<Int>
        let results = Mutex<(latencies: [UInt64], failure: BenchFailure?)>(([], nil))

        init(requests: Int) {
            remaining = Atomic(requests)
        }
    }

    /// Sends the requests and returns every round trip, in nanoseconds.
    ///
    /// - Throws: ``BenchFailure`` for a connection that failed, an answer that is not `200 OK`, or a first
    ///   answer whose body is not the one expected.
    public func run() throws(BenchFailure) -> [UInt64] {
        let shared = Shared(requests: requests)
        let done = DispatchGroup()
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        for _ in 0..<clients {
            done.enter()
            let (port, expected) = (self.port, Array(self.expected.utf8))
            let thread = Thread {
                defer { done.leave() }
                do throws(BenchFailure) {
                    let latencies = try Self.client(
                        port: port,
                        request: request,
                        expected: expected,
                        remaining: shared.remaining
                    )
                    shared.results.withLock { $0.latencies += latencies }
                } catch {
                    shared.results.withLock { $0.failure = $0.failure ?? error }
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        done.wait()
        let (latencies, failure) = shared.results.withLock { ($0.latencies, $0.failure) }
        if let failure { throw failure }
        return latencies
    }

    private static func client(
        port: Int,
        request: [UInt8],
        expected: [UInt8],
        remaining: borrowing Atomic<Int>
    ) throws(BenchFailure) -> [UInt64] {
        let socket = try connect(port: port)
        defer { close(socket) }
        var latencies: [UInt64] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while remaining.subtract(1, ordering: .relaxed).oldValue > 0 {
            let start = DispatchTime.now().uptimeNanoseconds
            try send(request, on: socket)
            let body = try readResponse(socket, into: &buffer)
            latencies.append(DispatchTime.now().uptimeNanoseconds - start)
            if latencies.count == 1, !buffer[body].elementsEqual(expected) {
                throw BenchFailure(
                    "expected \"\(String(decoding: expected, as: UTF8.self))\", "
                        + "got \"\(String(decoding: buffer[body], as: UTF8.self))\""
                )
            }
        }
        return latencies
    }

    private static func connect(port: Int) throws(BenchFailure) -> Int32 {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw BenchFailure("socket: errno \(errno)") }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard connected == 0 else {
            close(socket)
            throw BenchFailure("connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return socket
    }

    private static func send(_ bytes: [UInt8], on socket: Int32) throws(BenchFailure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BenchFailure("write: errno \(errno)") }
            sent += count
        }
    }

    /// Reads one response: its head up to the blank line, then `content-length` bytes of body. Returns
    /// where the body is in `buffer`.
    private static func readResponse(_ socket: Int32, into buffer: inout [UInt8]) throws(BenchFailure) -> Range<Int> {
        var received = 0
        var headEnd: Int?
        var total: Int?
        while total.map({ received < $0 }) ?? true {
            if received == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
            let count = buffer[received...].withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BenchFailure("read: the server closed the connection") }
            received += count
            if headEnd == nil, let end = find([13, 10, 13, 10], in: buffer[..<received]) {
                headEnd = end + 4
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 200") else {
                    throw BenchFailure("not 200: \(head.prefix(80))")
                }
                total = end + 4 + contentLength(head)
            }
        }
        guard let headEnd, let total else { throw BenchFailure("read: no response head") }
        return headEnd..<total
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index <= haystack.endIndex - needle.count {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
