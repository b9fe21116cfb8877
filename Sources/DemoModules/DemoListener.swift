import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 listener on 127.0.0.1 for ``ListenerModule``: it accepts on a Dispatch read source,
/// answers each `GET` with what `respond` returns for its path (404 for `nil`), and closes each connection.
/// Enough to show a module's work owning a socket; not a web server.
final class DemoListener {
    /// Why the listener could not start.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// The port it listens on.
    let port: UInt16
    private let source: any DispatchSourceRead
    private let served = ServedCount()

    /// Listens on 127.0.0.1:`port` (0: a free port).
    init(port: UInt16, respond: @escaping @Sendable (String) -> String?) throws {
        #if canImport(Darwin)
        let socketType = SOCK_STREAM
        #else
        let socketType = Int32(SOCK_STREAM.rawValue)
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(call: bound == 0 ? "listen" : "bind to 127.0.0.1:\(port)", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let source = DispatchSource.makeReadSource(
            fileDescriptor: descriptor,
            queue: DispatchQueue(label: "DemoListener")
        )
        let served = self.served
        source.setEventHandler {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }  // EAGAIN: nothing more to accept now
                Self.answer(client, respond)
                // Counted before the connection closes: a client that saw its answer end finds it counted.
                served.count.withLock { $0 += 1 }
                close(client)
            }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        self.source = source
    }

    /// Stops accepting and closes the socket; returns how many requests it answered.
    func shutDown() -> Int {
        source.cancel()
        return served.count.withLock { $0 }
    }

    /// Reads one request from `client` and answers it; the caller closes the connection.
    private static func answer(_ client: Int32, _ respond: (String) -> String?) {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(client, &buffer, buffer.count)
        guard count > 0 else { return }
        let line = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        let path = parts.count >= 2 && parts[0] == "GET" ? String(parts[1]) : ""
        let body = respond(path)
        let status = body == nil ? "404 Not Found" : "200 OK"
        let text = body ?? "not found\n"
        let response =
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain\r\nContent-Length: \(text.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(text)"
        _ = response.withCString { write(client, $0, strlen($0)) }
    }
}

/// The requests a ``DemoListener`` answered, counted on its Dispatch queue and read by its work.
private final class ServedCount: Sendable {
    let count = Mutex(0)
}
