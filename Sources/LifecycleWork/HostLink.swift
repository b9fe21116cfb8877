import LifecycleCore

/// The host that work reports to, held weakly: the host holds its work through its launch options, so a
/// strong reference back would keep both alive for ever.
final class HostLink: Sendable {
    private struct Reference {
        weak var host: ApplicationHost?
        /// Whether the host records work notes (``ApplicationHost/recordsWork``), read once at attachment.
        var records = false
    }

    private let reference = Locked(Reference())

    var host: ApplicationHost? { reference.withLock { $0.host } }

    /// The host, if it records work notes: `nil` at the cost of one lock when nothing records them.
    var recordingHost: ApplicationHost? { reference.withLock { $0.records ? $0.host : nil } }

    func attach(_ host: ApplicationHost) {
        reference.withLock { reference in
            if reference.host !== host {
                reference.host = host
                reference.records = host.recordsWork
            }
        }
    }
}
