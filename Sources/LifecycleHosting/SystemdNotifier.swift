#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a supervisor that speaks systemd's notification protocol (`Type=notify`) what the host is doing:
/// `READY=1` when it serves, `RELOADING=1` and `READY=1` around a reload, `STOPPING=1` when termination
/// starts, `STATUS=` lines, and `WATCHDOG=1` while the host is responsive. ``HostRunner`` sends them
/// itself (``HostRunner/Configuration/systemd``); a program that runs its host some other way can send
/// them through ``notify(_:)``.
///
/// It reads `NOTIFY_SOCKET` from the environment: a datagram socket's path, or, starting with `@`, a name in
/// Linux's abstract namespace. Without it there is no notifier, and nothing is sent.
public struct SystemdNotifier: Sendable {
    /// Where the datagrams go, as `NOTIFY_SOCKET` named it.
    public let socket: String
    /// How often ``HostRunner`` pets the supervisor's watchdog: half of `WATCHDOG_USEC`, when that is set
    /// for this process (`WATCHDOG_PID` is absent or is this process's id); `nil` otherwise.
    public let watchdogInterval: Duration?

    /// The notifier the environment asks for, or `nil` when `NOTIFY_SOCKET` is not set or empty.
    public init?(environment: [String: String]) {
        guard let socket = environment["NOTIFY_SOCKET"], !socket.isEmpty else { return nil }
        self.socket = socket
        let forThisProcess = environment["WATCHDOG_PID"].map { $0 == "\(getpid())" } ?? true
        if forThisProcess, let text = environment["WATCHDOG_USEC"], let micros = Int64(text), micros > 0 {
            watchdogInterval = .microseconds(micros) / 2
        } else {
            watchdogInterval = nil
        }
    }

    /// The notifier of this process's environment, or `nil`.
    public static var fromProcessEnvironment: SystemdNotifier? {
        var environment: [String: String] = [:]
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return SystemdNotifier(environment: environment)
    }

    /// Sends `state`, newline-separated `KEY=value` assignments, in one datagram. Returns whether it was sent;
    /// ``send(_:)`` says why not.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        do {
            try send(state)
            return true
        } catch {
            return false
        }
    }

    /// Sends `state`, newline-separated `KEY=value` assignments, in one datagram.
    ///
    /// - Throws: ``SystemdNotifierError`` naming the socket, the notification and the system's reason, when
    ///   the datagram could not be sent: no socket at that path, no permission to write it, a path too long
    ///   for a socket address. ``HostRunner`` reports the first such failure of a run
    ///   (``HostRunner/Report/notificationFailed(_:)``) and serves on.
    public func send(_ state: String) throws(SystemdNotifierError) {
        let descriptor = openDatagramSocket()
        guard descriptor >= 0 else { throw failure(state, "socket()", errno) }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socket.utf8)
        // An abstract name starts with a NUL byte, and its length is exact: no terminator.
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else {
            throw SystemdNotifierError(
                socket: socket,
                notification: state,
                reason: "the path is \(path.count) bytes, and a socket address holds at most \(capacity - 1)",
                errorNumber: nil
            )
        }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path)
            if !abstract { bytes[path.count] = 0 }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (abstract ? 0 : 1))
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { bytes in
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        guard sent >= 0 else { throw failure(state, "sendto()", errno) }
        guard sent == message.count else {
            throw SystemdNotifierError(
                socket: socket,
                notification: state,
                reason: "sendto() sent \(sent) of \(message.count) bytes",
                errorNumber: nil
            )
        }
    }

    private func failure(_ state: String, _ call: String, _ number: Int32) -> SystemdNotifierError {
        SystemdNotifierError(
            socket: socket,
            notification: state,
            reason: "\(call) failed: \(String(cString: strerror(number)))",
            errorNumber: number
        )
    }

    /// `RELOADING=1` with the `MONOTONIC_USEC=` systemd asks a reload to carry.
    static var reloading: String {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let micros = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
        return "RELOADING=1\nMONOTONIC_USEC=\(micros)"
    }
}

/// A new Unix datagram socket, closed on exec; negative on failure.
private func openDatagramSocket() -> Int32 {
    #if canImport(Glibc) || canImport(Musl)
    socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
    socket(AF_UNIX, SOCK_DGRAM, 0)
    #endif
}
