import LifecycleCore

/// Where the server writes what it does, a line at a time: standard error in the process, a list in a test.
struct ServerLog: Sendable {
    /// Writes one line.
    let write: @Sendable (String) -> Void
}

/// The host's ``ServerLog``: a launch option, so each host, and each test, has its own. The default writes
/// nowhere.
enum ServerLogKey: LaunchOptionKey {
    static let defaultValue = ServerLog { _ in }
}
