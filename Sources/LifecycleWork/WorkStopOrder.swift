import LifecycleCore

/// The order in which work stops when several works stop at once (termination, leaving the active state).
///
/// Either way a work stops only after the works that come after it, as hooks of reverse events run: the
/// difference is whether unrelated works wait for each other.
public enum WorkStopOrder: Sendable, Hashable {
    /// One work at a time, in the reverse of the order they run in (modules' delivery order, then each
    /// module's declaration order): each is asked to stop once the one after it has stopped. What
    /// swift-service-lifecycle's `ServiceGroup` and OTP do. The default.
    case reverse
    /// Dependents first: a work is asked to stop once every work of the modules that depend on its module
    /// (directly or through others) and its module's later works have stopped. Works with no dependency
    /// between them stop together, so a thousand independent works stop in about the time of the slowest,
    /// not of all of them in a row.
    case dependentsFirst
}

/// Stops a set of runs in a ``WorkStopOrder``: each run is asked to stop once every run it waits for has
/// stopped, from the completion of the last of those (no task in between), and the caller resumes when
/// every run has stopped or been abandoned.
struct WorkStopPlan: Sendable {
    /// The runs, in the order they run.
    let runs: [WorkRun]
    /// For each run, the runs that wait for it (indices into `runs`).
    let waiting: [[Int]]
    /// For each run, how many runs it waits for.
    let prerequisites: [Int]

    /// - Parameters:
    ///   - runs: In the order they run: the modules' delivery order, then declaration order.
    ///   - dependents: For a module (participant id), the modules that depend on it directly.
    init(_ runs: [WorkRun], order: WorkStopOrder, dependents: (Int) -> [Int]) {
        self.runs = runs
        var waiting = Array(repeating: [Int](), count: runs.count)
        var prerequisites = Array(repeating: 0, count: runs.count)
        func wait(_ run: Int, for other: Int) {
            waiting[other].append(run)
            prerequisites[run] += 1
        }
        switch order {
        case .reverse:
            for index in runs.indices.dropLast() { wait(index, for: index + 1) }
        case .dependentsFirst:
            // Per module: its runs in order; a module's last run waits for the first run of each nearest
            // stopping dependent module, whose own chain ends with all of that module's runs.
            var runsOf: [Int: [Int]] = [:]
            var modules: [Int] = []
            for (index, run) in runs.enumerated() {
                if runsOf[run.participant.id] == nil { modules.append(run.participant.id) }
                runsOf[run.participant.id, default: []].append(index)
            }
            var nearest: [Int: [Int]] = [:]
            func nearestStopping(dependentsOf module: Int, visiting: inout Set<Int>) -> [Int] {
                if let known = nearest[module] { return known }
                var found: [Int] = []
                for dependent in dependents(module) where visiting.insert(dependent).inserted {
                    found +=
                        runsOf[dependent] != nil
                        ? [dependent] : nearestStopping(dependentsOf: dependent, visiting: &visiting)
                }
                nearest[module] = found
                return found
            }
            for module in modules {
                let own = runsOf[module] ?? []
                for (position, run) in own.enumerated().dropLast() { wait(run, for: own[position + 1]) }
                var visiting: Set<Int> = [module]
                let last = own[own.count - 1]
                for dependent in Set(nearestStopping(dependentsOf: module, visiting: &visiting)) {
                    if let first = runsOf[dependent]?.first { wait(last, for: first) }
                }
            }
        }
        self.waiting = waiting
        self.prerequisites = prerequisites
    }

    /// Stops every run in order; returns the names of those abandoned, in run order.
    func execute() async -> [String] {
        guard !runs.isEmpty else { return [] }
        let progress = Progress(prerequisites: prerequisites)
        let done = OneShot<Void>()
        let plan = self
        // A run that has ended already reports its stop at once, inside `stop`: the runs that become due
        // join a queue that one caller at a time drains, so a long chain never nests calls.
        @Sendable func launch(_ due: [Int]) {
            guard progress.enqueue(due) else { return }
            while let index = progress.nextToStart() {
                plan.runs[index].stop { abandoned in
                    let (next, finished) = progress.stopped(index, abandoned: abandoned, waiting: plan.waiting[index])
                    if finished { done.settle(()) }
                    launch(next)
                }
            }
        }
        launch(runs.indices.filter { prerequisites[$0] == 0 })
        await done.value()
        return progress.abandoned.sorted().map { runs[$0].name }
    }
}

/// What a ``WorkStopPlan`` has stopped so far.
private final class Progress: Sendable {
    private struct State {
        var remaining: [Int]
        var left: Int
        var abandoned: [Int] = []
        /// Runs due to be asked to stop, and whether a caller is asking them.
        var queue: [Int] = []
        var head = 0
        var draining = false
    }

    private let state: Locked<State>

    init(prerequisites: [Int]) {
        state = Locked(State(remaining: prerequisites, left: prerequisites.count))
    }

    /// Run `index` stopped: returns the runs that may stop now, and whether every run has stopped.
    func stopped(_ index: Int, abandoned: Bool, waiting: [Int]) -> (next: [Int], finished: Bool) {
        state.withLock { state in
            if abandoned { state.abandoned.append(index) }
            state.left -= 1
            var next: [Int] = []
            for other in waiting {
                state.remaining[other] -= 1
                if state.remaining[other] == 0 { next.append(other) }
            }
            return (next, state.left == 0)
        }
    }

    var abandoned: [Int] { state.withLock { $0.abandoned } }

    /// Adds `due` to the queue; `true` if the caller is to drain it (nobody else is).
    func enqueue(_ due: [Int]) -> Bool {
        state.withLock { state in
            state.queue += due
            guard !state.draining, state.head < state.queue.count else { return false }
            state.draining = true
            return true
        }
    }

    /// The next run to ask, or `nil` when the queue is empty, and then the caller stops draining.
    func nextToStart() -> Int? {
        state.withLock { state in
            guard state.head < state.queue.count else {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
                state.draining = false
                return nil
            }
            defer { state.head += 1 }
            return state.queue[state.head]
        }
    }
}
