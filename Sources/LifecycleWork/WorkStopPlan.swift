import LifecycleCore

/// Stops a set of runs in a ``WorkStopOrder``: each run is asked to stop once every run it waits for has
/// stopped, from the completion of the last of those (no task in between), and the caller resumes when
/// every run has stopped or been abandoned.
///
/// Who waits for whom is kept in flat arrays (no array per run or per module), and the runs report to the
/// plan's progress by reference and index (no closure per run): a plan of 10,000 runs allocates a few
/// arrays, not 10,000.
struct WorkStopPlan: Sendable {
    /// The runs, in the order they run.
    let runs: [WorkRun]
    /// The runs that wait for run `i`: `waiting[waitingStart[i] ..< waitingStart[i + 1]]` (indices into `runs`).
    let waiting: [Int]
    let waitingStart: [Int]
    /// For each run, how many runs it waits for.
    let prerequisites: [Int]

    /// - Parameters:
    ///   - runs: In the order they run: the modules' delivery order, then declaration order.
    ///   - dependents: For a module (participant id), the modules that depend on it directly.
    init(_ runs: [WorkRun], order: WorkStopOrder, dependents: (Int) -> [Int]) {
        self.runs = runs
        /// `waiter` is asked to stop once `run` has stopped.
        var edges: [(waiter: Int, run: Int)] = []
        edges.reserveCapacity(runs.count)
        switch order {
        case .reverse:
            for index in runs.indices.dropLast() { edges.append((index, index + 1)) }
        case .dependentsFirst:
            // Per module: its runs in order (each waits for the next); its last run waits for the first run
            // of each nearest stopping dependent module, whose own chain ends with all of that module's runs.
            var first: [Int: Int] = [:]
            var last: [Int: Int] = [:]
            var modules: [Int] = []
            for (index, run) in runs.enumerated() {
                let module = run.participant.id
                if let previous = last[module] {
                    edges.append((previous, index))
                } else {
                    first[module] = index
                    modules.append(module)
                }
                last[module] = index
            }
            var nearest: [Int: [Int]] = [:]
            func nearestStopping(dependentsOf module: Int, visiting: inout Set<Int>) -> [Int] {
                if let known = nearest[module] { return known }
                var found: [Int] = []
                for dependent in dependents(module) where visiting.insert(dependent).inserted {
                    if first[dependent] != nil {
                        found.append(dependent)
                    } else {
                        found += nearestStopping(dependentsOf: dependent, visiting: &visiting)
                    }
                }
                nearest[module] = found
                return found
            }
            var visiting: Set<Int> = []
            for module in modules {
                visiting.removeAll(keepingCapacity: true)
                visiting.insert(module)
                let found = nearestStopping(dependentsOf: module, visiting: &visiting)
                guard !found.isEmpty, let own = last[module] else { continue }
                for dependent in found.count == 1 ? found : Array(Set(found)) {
                    if let dependentFirst = first[dependent] { edges.append((own, dependentFirst)) }
                }
            }
        }
        var start = Array(repeating: 0, count: runs.count + 1)
        var prerequisites = Array(repeating: 0, count: runs.count)
        for edge in edges {
            start[edge.run + 1] += 1
            prerequisites[edge.waiter] += 1
        }
        for index in runs.indices { start[index + 1] += start[index] }
        var waiting = Array(repeating: 0, count: edges.count)
        var fill = start
        for edge in edges {
            waiting[fill[edge.run]] = edge.waiter
            fill[edge.run] += 1
        }
        self.waiting = waiting
        self.waitingStart = start
        self.prerequisites = prerequisites
    }

    /// Stops every run in order; returns the names of those abandoned, in run order.
    func execute() async -> [String] {
        guard !runs.isEmpty else { return [] }
        let progress = StopProgress(self)
        progress.launch(runs.indices.filter { prerequisites[$0] == 0 })
        await progress.done.value()
        return progress.abandoned.sorted().map { runs[$0].name }
    }
}

/// What a ``WorkStopPlan`` has stopped so far; the runs report to it (``WorkStopObserver``).
private final class StopProgress: WorkStopObserver {
    private struct State {
        var remaining: [Int]
        var left: Int
        var abandoned: [Int] = []
        /// Runs due to be asked to stop, and whether a caller is asking them.
        var queue: [Int] = []
        var head = 0
        var draining = false
    }

    private let plan: WorkStopPlan
    private let state: Locked<State>
    let done = OneShot<Void>()

    init(_ plan: WorkStopPlan) {
        self.plan = plan
        state = Locked(State(remaining: plan.prerequisites, left: plan.prerequisites.count))
    }

    var abandoned: [Int] { state.withLock { $0.abandoned } }

    /// Asks the runs in `due` to stop. A run that has ended already reports its stop at once, inside `stop`:
    /// the runs that become due join a queue that one caller at a time drains, so a long chain never nests
    /// calls.
    func launch(_ due: some Collection<Int>) {
        let drains = state.withLock { state in
            state.queue.append(contentsOf: due)
            guard !state.draining, state.head < state.queue.count else { return false }
            state.draining = true
            return true
        }
        guard drains else { return }
        while let index = nextToStart() { plan.runs[index].stop(self, index: index) }
    }

    func runStopped(_ index: Int, abandoned: Bool) {
        let waiting = plan.waiting[plan.waitingStart[index]..<plan.waitingStart[index + 1]]
        let (next, finished) = state.withLock { state -> ([Int], Bool) in
            if abandoned { state.abandoned.append(index) }
            state.left -= 1
            var next: [Int] = []
            for other in waiting {
                state.remaining[other] -= 1
                if state.remaining[other] == 0 { next.append(other) }
            }
            return (next, state.left == 0)
        }
        if finished { done.settle(()) }
        if !next.isEmpty { launch(next) }
    }

    /// The next run to ask, or `nil` when the queue is empty, and then the caller stops draining.
    private func nextToStart() -> Int? {
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
