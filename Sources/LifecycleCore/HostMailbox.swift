import Synchronization

/// The single FIFO queue of one ``ApplicationHost``, and the host state it guards.
///
/// This is the package's one concurrency primitive. Every request — awaited from outside or posted from a
/// hook — is appended here under one lock, so requests are delivered in exactly the order they were
/// emitted, whichever task emitted them. One drain task at a time takes jobs off the front and runs them
/// on the host actor, one after another; it exists only while there is work.
///
/// The state mirror lets `ApplicationHost.state` and reentrancy checks be read without hopping onto the
/// actor; only jobs running on the actor write it.
package final class HostMailbox: Sendable {
    package typealias Job = @Sendable (isolated ApplicationHost) async -> Void

    private struct Storage {
        var jobs: [Job?] = []
        var head = 0
        var isDraining = false
        weak var host: ApplicationHost?
        var state: ApplicationState = .notRunning
        var eventInProgress: LifecycleEvent?
    }

    private let storage = Mutex(Storage())

    package init() {}

    /// Appends `job`, and starts a drain task when none is running and a host is attached.
    func submit(_ job: @escaping Job) {
        let hostToStart: ApplicationHost? = storage.withLock { storage in
            storage.jobs.append(job)
            guard !storage.isDraining, let host = storage.host else { return nil }
            storage.isDraining = true
            return host
        }
        if let hostToStart { Task { await hostToStart.drain() } }
    }

    /// Attaches the host that drains this mailbox; jobs posted before (from module initializers) start now.
    func attach(_ host: ApplicationHost) {
        let start: Bool = storage.withLock { storage in
            storage.host = host
            guard !storage.isDraining, storage.head < storage.jobs.count else { return false }
            storage.isDraining = true
            return true
        }
        if start { Task { await host.drain() } }
    }

    /// The next job, or `nil` after marking the mailbox idle. Called only by the drain task.
    func next() -> Job? {
        storage.withLock { storage in
            guard storage.head < storage.jobs.count else {
                storage.jobs.removeAll(keepingCapacity: true)
                storage.head = 0
                storage.isDraining = false
                return nil
            }
            let job = storage.jobs[storage.head]
            storage.jobs[storage.head] = nil
            storage.head += 1
            if storage.head >= 64, storage.head * 2 >= storage.jobs.count {
                storage.jobs.removeFirst(storage.head)
                storage.head = 0
            }
            return job
        }
    }

    var state: ApplicationState {
        get { storage.withLock { $0.state } }
    }

    func setState(_ state: ApplicationState) {
        storage.withLock { $0.state = state }
    }

    var eventInProgress: LifecycleEvent? {
        storage.withLock { $0.eventInProgress }
    }

    func setEventInProgress(_ event: LifecycleEvent?) {
        storage.withLock { $0.eventInProgress = event }
    }
}
