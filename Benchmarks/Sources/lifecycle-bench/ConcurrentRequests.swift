import Synchronization

/// Runs `requests` requests spread over `tasks` tasks, each looping its share with `body(task, share)`, and
/// times them with `meter`: from the moment every task is ready to the moment the last one returns. Returns
/// the sum of what the bodies return (their failures).
///
/// One task runs in the calling task, with nothing spawned, so its allocations are the requests' alone. More
/// tasks are children of a task group that wait at a ``StartGate`` until all of them exist: spawning them is
/// outside the measured region, and they start together. The time per repetition is then wall time per
/// request, so two cores can make a request at 16 tasks cheaper than at one.
func runRequests(
    tasks: Int,
    requests: Int,
    meter: Meter,
    _ body: @escaping @Sendable (_ task: Int, _ requests: Int) async -> Int
) async -> Int {
    guard tasks > 1 else {
        meter.begin()
        let failures = await body(0, requests)
        meter.end()
        return failures
    }
    let gate = StartGate(expected: tasks)
    return await withTaskGroup(of: Int.self) { group in
        for task in 0..<tasks {
            let share = requests / tasks + (task < requests % tasks ? 1 : 0)
            group.addTask {
                await gate.arrive()
                return await body(task, share)
            }
        }
        await gate.waitForEveryTask()
        meter.begin()
        gate.open()
        var failures = 0
        for await result in group { failures += result }
        meter.end()
        return failures
    }
}

/// Holds a number of tasks until all of them have arrived and the gate is opened.
final class StartGate: Sendable {
    private struct State {
        var arrived = 0
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// Who waits for every task to arrive.
        var starter: CheckedContinuation<Void, Never>?
    }

    private let expected: Int
    private let state = Mutex(State())

    init(expected: Int) { self.expected = expected }

    /// Waits until the gate opens.
    func arrive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (resumeNow, starter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                state.arrived += 1
                if state.open { return (true, nil) }
                state.waiting.append(continuation)
                guard state.arrived == expected else { return (false, nil) }
                defer { state.starter = nil }
                return (false, state.starter)
            }
            if resumeNow { continuation.resume() }
            starter?.resume()
        }
    }

    /// Returns once every task has arrived.
    func waitForEveryTask() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.arrived == expected { return true }
                state.starter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Lets every task go.
    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
