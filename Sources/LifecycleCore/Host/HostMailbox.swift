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

    /// Identifies one running job. A task-local copy marks the job's task and the tasks it spawns; the mark
    /// counts as "inside a hook" only while the mailbox still runs that same job.
    final class JobToken: Sendable {}

    private struct Storage {
        var jobs: [Job?] = []
        var head = 0
        var isDraining = false
        var wasAttached = false
        weak var host: ApplicationHost?
        var runningJob: JobToken?
        var idleWaiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        /// Tasks waiting for the state `terminated`, by ticket so a cancelled one can leave.
        var terminationWaiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextTicket = 0
        var state: ApplicationState = .notRunning
        var eventInProgress: LifecycleEvent?

        var pendingCount: Int { jobs.count - head }
    }

    private let storage = Locked(Storage())

    package init() {}

    /// The host that drains this mailbox, while it exists.
    package var host: ApplicationHost? { storage.withLock { $0.host } }

    deinit {
        let undelivered = storage.withLock { $0.wasAttached ? 0 : $0.pendingCount }
        if undelivered > 0 {
            printWarning(
                "\(undelivered) request(s) posted while the modules were being created were not delivered, "
                    + "because the ApplicationHost failed to build. Fix the ManifestError it threw."
            )
        }
    }

    /// Appends `job`, and starts a drain task when none is running and a host is attached.
    ///
    /// - Returns: `false` if the job cannot run because the host it belonged to no longer exists.
    @discardableResult
    package func submit(_ job: @escaping Job) -> Bool {
        enum Next {
            case queued
            case start(ApplicationHost)
            case hostGone
        }
        let next: Next = storage.withLock { storage in
            if storage.wasAttached, storage.host == nil { return .hostGone }
            storage.jobs.append(job)
            guard !storage.isDraining, let host = storage.host else { return .queued }
            storage.isDraining = true
            return .start(host)
        }
        switch next {
        case .queued: return true
        case .start(let host):
            startDraining(host)
            return true
        case .hostGone: return false
        }
    }

    /// Attaches the host that drains this mailbox; jobs posted before (from module initializers) start now.
    func attach(_ host: ApplicationHost) {
        let start: Bool = storage.withLock { storage in
            storage.host = host
            storage.wasAttached = true
            guard !storage.isDraining, storage.pendingCount > 0 else { return false }
            storage.isDraining = true
            return true
        }
        if start { startDraining(host) }
    }

    /// Detached, so the drain task inherits neither the task-locals nor the priority of whichever caller
    /// happened to find the mailbox idle.
    private func startDraining(_ host: ApplicationHost) {
        Task.detached { await host.drain() }
    }

    /// The next job and the token that marks it, or `nil` after marking the mailbox idle and waking every
    /// ``waitUntilIdle()`` caller. Called only by the drain task.
    func next() -> (job: Job, token: JobToken)? {
        let (next, waiters): ((Job, JobToken)?, [CheckedContinuation<Bool, Never>]) = storage.withLock { storage in
            guard storage.pendingCount > 0, let job = storage.jobs[storage.head] else {
                storage.jobs.removeAll(keepingCapacity: true)
                storage.head = 0
                storage.isDraining = false
                storage.runningJob = nil
                defer { storage.idleWaiters.removeAll() }
                return (nil, Array(storage.idleWaiters.values))
            }
            storage.jobs[storage.head] = nil
            storage.head += 1
            if storage.head >= 64, storage.head * 2 >= storage.jobs.count {
                storage.jobs.removeFirst(storage.head)
                storage.head = 0
            }
            let token = JobToken()
            storage.runningJob = token
            return ((job, token), [])
        }
        for waiter in waiters { waiter.resume(returning: true) }
        return next
    }

    /// Whether `token` marks the job running right now: a call made under that mark would wait for itself.
    func isRunning(_ token: JobToken) -> Bool {
        storage.withLock { $0.runningJob === token }
    }

    /// Returns `true` once the mailbox has nothing left to run, including jobs queued while waiting, or
    /// `false` if the waiting task is cancelled first.
    func waitUntilIdle() async -> Bool {
        await wait(in: \.idleWaiters) { !$0.isDraining && $0.pendingCount == 0 }
    }

    var state: ApplicationState {
        storage.withLock { $0.state }
    }

    /// The state, read with one atomic load instead of the lock: for what runs on every call (a message
    /// send checks the host is running). Written under the lock with the state itself.
    package var stateWithoutLock: ApplicationState {
        Self.states[stateIndex.load(ordering: .acquiring)]
    }

    private static let states = ApplicationState.allCases
    private let stateIndex = Atomic<Int>(0)

    func setState(_ state: ApplicationState) {
        let waiters: [CheckedContinuation<Bool, Never>] = storage.withLock { storage in
            storage.state = state
            stateIndex.store(Self.states.firstIndex(of: state) ?? 0, ordering: .releasing)
            guard state == .terminated else { return [] }
            defer { storage.terminationWaiters.removeAll() }
            return Array(storage.terminationWaiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Returns `true` once the state is `terminated`, or `false` if the waiting task is cancelled first.
    func waitUntilTerminated() async -> Bool {
        await wait(in: \.terminationWaiters) { $0.state == .terminated }
    }

    /// Returns `true` at once if `holds` holds, else waits in `waiters` until resumed with `true`, or until
    /// the waiting task is cancelled: `false`.
    private func wait(
        in waiters: any WritableKeyPath<Storage, [Int: CheckedContinuation<Bool, Never>]> & Sendable,
        until holds: @escaping @Sendable (Storage) -> Bool
    ) async -> Bool {
        let ticket = storage.withLock { storage in
            defer { storage.nextTicket += 1 }
            return storage.nextTicket
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = storage.withLock { storage in
                    if holds(storage) { return true }
                    if Task.isCancelled { return false }
                    storage[keyPath: waiters][ticket] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            storage.withLock { $0[keyPath: waiters].removeValue(forKey: ticket) }?.resume(returning: false)
        }
    }

    var eventInProgress: LifecycleEvent? {
        storage.withLock { $0.eventInProgress }
    }

    func setEventInProgress(_ event: LifecycleEvent?) {
        storage.withLock { $0.eventInProgress = event }
    }
}
