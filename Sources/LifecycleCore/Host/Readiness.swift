/// Which participants have finished launching, for ``ApplicationHost/waitUntilReady(file:line:)``.
///
/// A participant is ready when it has finished its last launch stage: its warm-up if it has one, else the
/// initialize stage. The host is ready when the warm-up stage has finished for everyone. If the host
/// terminates first, it will never be ready, and waiters are told so.
///
/// A module registered after launch is *pending* until its catch-up is over: neither it nor the host
/// counts as ready meanwhile. If it is taken out again, or removed, waiters for it are told it never
/// will be.
///
/// A participant whose work reports readiness (LifecycleWork) is not ready while such a work runs and has
/// not reported; nor is the host.
final class Readiness: Sendable {
    enum Outcome: Sendable {
        case ready
        case never(ApplicationState)
        case cancelled
    }

    fileprivate struct State {
        /// Participants marked ready: one per module in a warm-up, so flags by id rather than a hashed set.
        var ready = IDFlags()
        var all = false
        var pending: Set<Int> = []
        /// The most recent departures, and the host's state then.
        var gone = RecentDepartures()
        var never: ApplicationState?
        var waiters: [(id: Int, index: Int?, continuation: CheckedContinuation<Outcome, Never>)] = []
        var nextID = 0
        var cancelledEarly: Set<Int> = []
        /// Per participant, its running work that has not reported ready yet.
        var workPending: [Int: Int] = [:]
    }

    private let state = Locked(State())

    /// Waits until `index` (or, for `nil`, everyone) is ready, readiness becomes impossible, or the waiting
    /// task is cancelled.
    func wait(for index: Int?) async -> Outcome {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Outcome? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return .cancelled }
                    if let outcome = state.outcome(for: index) { return outcome }
                    state.waiters.append((id, index, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let position = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil as CheckedContinuation<Outcome, Never>?
                }
                return state.waiters.remove(at: position).continuation
            }
            waiter?.resume(returning: .cancelled)
        }
    }

    /// Of `ids`, those not ready now, in the order given: not through their last launch stage, pending
    /// after a late registration, gone, or unready because launch failed. For ``ApplicationHost/health()``.
    func notReady(among ids: [Int]) -> [Int] {
        state.withLock { state in
            ids.filter { id in
                if case .ready = state.outcome(for: id) { return false }
                return true
            }
        }
    }

    func markReady(_ index: Int) {
        resume { state in
            state.ready.insert(index)
            if !state.pending.isEmpty { state.pending.remove(index) }
        }
    }

    func markReady(_ indices: some Sequence<Int>) {
        resume { state in
            for index in indices { state.ready.insert(index) }
            if !state.pending.isEmpty { state.pending.subtract(indices) }
        }
    }

    /// A module joined after launch and is catching up.
    func markPending(_ index: Int) {
        resume { state in
            state.pending.insert(index)
            state.ready.remove(index)
        }
    }

    /// A module left (removed, or taken out after a failed catch-up): it will never be ready.
    func markGone(_ index: Int, in hostState: ApplicationState) {
        resume { state in
            state.pending.remove(index)
            state.ready.remove(index)
            state.workPending[index] = nil
            state.gone.record(index, hostState)
        }
    }

    /// A work of `index` that reports readiness started.
    func addWork(_ index: Int) {
        resume { state in state.workPending[index, default: 0] += 1 }
    }

    /// Works of `indices` that report readiness started: one update for a batch.
    func addWork(_ indices: some Sequence<Int>) {
        resume { state in
            for index in indices { state.workPending[index, default: 0] += 1 }
        }
    }

    /// A work counted by ``addWork(_:)`` reported ready, or stopped.
    func removeWork(_ index: Int) {
        resume { state in
            guard let count = state.workPending[index] else { return }
            state.workPending[index] = count > 1 ? count - 1 : nil
        }
    }

    /// Whether everyone is ready now.
    var isReady: Bool {
        state.withLock { state in
            if case .ready? = state.outcome(for: nil) { return true }
            return false
        }
    }

    func markAllReady() {
        resume { state in state.all = true }
    }

    /// Launch failed or the host terminated before everyone was ready.
    func markNever(_ state: ApplicationState) {
        resume { storage in
            if !storage.all { storage.never = state }
        }
    }

    private func resume(_ update: (inout State) -> Void) {
        let due: [(CheckedContinuation<Outcome, Never>, Outcome)] = state.withLock { state in
            update(&state)
            // Most updates (a work reporting ready while others have not) resume nobody: no new array then.
            guard state.waiters.contains(where: { state.outcome(for: $0.index) != nil }) else { return [] }
            var due: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
            let waiters = state.waiters
            state.waiters = waiters.filter { waiter in
                guard let outcome = state.outcome(for: waiter.index) else { return true }
                due.append((waiter.continuation, outcome))
                return false
            }
            return due
        }
        for (continuation, outcome) in due { continuation.resume(returning: outcome) }
    }
}

extension Readiness.State {
    /// What a waiter for `index` (`nil`: everyone) learns now, or `nil` if it must go on waiting.
    fileprivate func outcome(for index: Int?) -> Readiness.Outcome? {
        if let index, let left = gone.state(of: index) { return .never(left) }
        if let never { return .never(never) }
        guard let index else { return all && pending.isEmpty && workPending.isEmpty ? .ready : nil }
        guard workPending[index] == nil else { return nil }
        if ready.contains(index) || (all && !pending.contains(index)) { return .ready }
        return nil
    }
}

/// The participants that left most recently, and the host's state when each left, at most ``capacity``.
///
/// A waiter asks with an id it read from the host's participants just before: the id can have left only in
/// the moment between that read and the wait. So the recent departures are all a waiter can need, and a
/// host that registers and removes modules all day keeps a bounded record instead of one entry per
/// departure it ever had (ids are never reused).
private struct RecentDepartures {
    static let capacity = 1_024
    private var states: [Int: ApplicationState] = [:]
    /// The ids in `states`, oldest first from `head`: a ring.
    private var order: [Int] = []
    private var head = 0

    func state(of id: Int) -> ApplicationState? { states[id] }

    mutating func record(_ id: Int, _ state: ApplicationState) {
        if states.updateValue(state, forKey: id) != nil { return }
        if order.count < Self.capacity {
            order.append(id)
            return
        }
        states[order[head]] = nil
        order[head] = id
        head = (head + 1) % Self.capacity
    }
}

/// A set of participant ids, which are small non-negative integers given in join order: a flag per id.
///
/// Its length is the highest id flagged, and removing the highest ones shortens it: a module registered and
/// removed over and over leaves nothing behind.
private struct IDFlags {
    private var flags: [Bool] = []

    func contains(_ id: Int) -> Bool { id >= 0 && id < flags.count && flags[id] }

    mutating func insert(_ id: Int) {
        guard id >= 0 else { return }
        if id >= flags.count { flags.append(contentsOf: repeatElement(false, count: id - flags.count + 1)) }
        flags[id] = true
    }

    mutating func remove(_ id: Int) {
        guard contains(id) else { return }
        flags[id] = false
        while flags.last == false { flags.removeLast() }
    }
}
