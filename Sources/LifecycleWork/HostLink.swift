import LifecycleCore

/// The host that work reports to, held weakly: the host holds its work through its launch options, so a
/// strong reference back would keep both alive for ever.
final class HostLink: Sendable {
    private struct Reference {
        weak var host: ApplicationHost?
    }

    private let reference = Locked(Reference())

    var host: ApplicationHost? { reference.withLock { $0.host } }

    func attach(_ host: ApplicationHost) {
        reference.withLock { reference in
            if reference.host !== host { reference.host = host }
        }
    }
}
