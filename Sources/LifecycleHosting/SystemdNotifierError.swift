/// A notification that ``SystemdNotifier/send(_:)`` could not send: `NOTIFY_SOCKET` names a socket that
/// is not there, that this process may not write, or that no socket address can hold.
///
/// Under `Type=notify` it is not harmless: a supervisor that never hears `READY=1` ends the service at its
/// start timeout, and one that stops hearing `WATCHDOG=1` restarts it. So ``HostRunner`` reports the first
/// failure of a run (``HostRunner/Report/notificationFailed(_:)``), with this message, and serves on.
public struct SystemdNotifierError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The socket, as `NOTIFY_SOCKET` named it.
    public let socket: String
    /// The notification that was not sent (`READY=1`, `STATUS=…`).
    public let notification: String
    /// Why, in the system's words.
    public let reason: String
    /// The `errno` of the failing call, when a call failed.
    public let errorNumber: Int32?

    /// Creates the error.
    public init(socket: String, notification: String, reason: String, errorNumber: Int32?) {
        self.socket = socket
        self.notification = notification
        self.reason = reason
        self.errorNumber = errorNumber
    }

    public var description: String {
        let first = notification.split(separator: "\n").first.map(String.init) ?? notification
        return "the systemd notification \(first) to NOTIFY_SOCKET=\(socket) was not sent: \(reason). A supervisor "
            + "that waits for it (Type=notify) will time the service out. Start the service from a unit with "
            + "Type=notify, which sets NOTIFY_SOCKET to a socket systemd listens on, or unset NOTIFY_SOCKET "
            + "when nothing listens"
    }
}
