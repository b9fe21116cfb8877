#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A process signal that ``HostRunner`` can handle: the ones a server or CLI is sent to stop, reload or
/// change its activity. `SIGKILL` and `SIGSTOP` cannot be handled, so they are not here.
///
/// The names follow swift-service-lifecycle's `UnixSignal` (`.sigterm`, `.sigint`, …). In a
/// ``SignalMap`` text a signal is written by its short name, with or without `SIG`: `TERM`, `SIGTERM`.
public struct UnixSignal: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The signal's number on this platform.
    public let rawValue: Int32
    /// The short name, without `SIG`: `TERM`.
    public let name: String

    private init(_ rawValue: Int32, _ name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    /// `SIGTERM`: the polite request to stop that process supervisors (systemd, Kubernetes, Docker) send.
    public static let sigterm = UnixSignal(SIGTERM, "TERM")
    /// `SIGINT`: Ctrl-C in a terminal.
    public static let sigint = UnixSignal(SIGINT, "INT")
    /// `SIGHUP`: by convention, "reload your configuration" for a daemon.
    public static let sighup = UnixSignal(SIGHUP, "HUP")
    /// `SIGQUIT`: Ctrl-\ in a terminal.
    public static let sigquit = UnixSignal(SIGQUIT, "QUIT")
    /// `SIGUSR1`: free for the program's own use.
    public static let sigusr1 = UnixSignal(SIGUSR1, "USR1")
    /// `SIGUSR2`: free for the program's own use.
    public static let sigusr2 = UnixSignal(SIGUSR2, "USR2")
    /// `SIGTSTP`: Ctrl-Z in a terminal. Once handled, it no longer stops the process.
    public static let sigtstp = UnixSignal(SIGTSTP, "TSTP")
    /// `SIGCONT`: sent when a stopped process continues (`fg`, `kill -CONT`).
    public static let sigcont = UnixSignal(SIGCONT, "CONT")

    /// Every signal a runner can handle, in a fixed order (their numbers on Linux; ``SignalMap`` prints in
    /// this order on every platform).
    public static let all: [UnixSignal] = [
        .sighup, .sigint, .sigquit, .sigusr1, .sigusr2, .sigterm, .sigcont, .sigtstp,
    ]

    /// The signal named `name` — `TERM` or `SIGTERM`, in any case — or `nil` if a runner cannot handle it.
    public init?(name: String) {
        var short = name.uppercased()
        if short.hasPrefix("SIG") { short.removeFirst(3) }
        guard let signal = Self.all.first(where: { $0.name == short }) else { return nil }
        self = signal
    }

    /// `SIGTERM`.
    public var description: String { "SIG" + name }

    public static func == (lhs: UnixSignal, rhs: UnixSignal) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public static func < (lhs: UnixSignal, rhs: UnixSignal) -> Bool { lhs.rawValue < rhs.rawValue }
}
