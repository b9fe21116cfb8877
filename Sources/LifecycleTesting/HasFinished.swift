import LifecycleCore

/// Whether `task` has finished, after letting every other task run a while: for tests that check that
/// something is still waiting (a supervised operation within its grace, a send within its budget) on a
/// ``VirtualClock`` that has not been advanced far enough. Not API: the package's own tests use it.
package func hasFinished<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>) async -> Bool {
    let done = OneShot<Bool>()
    Task {
        _ = await task.result
        done.settle(true)
    }
    for _ in 0..<100 { await Task.yield() }
    return !done.settle(false)
}
