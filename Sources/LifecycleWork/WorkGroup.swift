import LifecycleCore

/// The one task group a host owns for work: every run is a child task of it, so nothing is unstructured
/// but its root, which the host's termination closes and awaits.
///
/// Runs are started in batches (all the work one boundary starts). A batch is a child of the root, and a
/// batch of more than ``shardSize`` runs is split into groups of at most that many: a task group finds
/// a finished child by walking its list of children, so one group of 10,000 children that finish in the
/// reverse of the order they started costs time quadratic in their number (Docs/Performance.md, "Work").
final class WorkGroup: Sendable {
    static let shardSize = 64

    private let batches: AsyncStream<[WorkRun]>.Continuation
    private let root: Task<Void, Never>

    init() {
        let (stream, batches) = AsyncStream.makeStream(of: [WorkRun].self)
        self.batches = batches
        // Detached: created inside the host's request, a task would inherit its task-locals, among them the
        // job in progress, and a work asking the host anything during launch would be told `reentrantCall`.
        root = Task.detached {
            await withDiscardingTaskGroup { group in
                for await batch in stream {
                    group.addTask { await Self.run(batch[...]) }
                }
            }
        }
    }

    /// Starts `batch`, each run a child task of the group. Never called once the group is closed.
    func start(_ batch: [WorkRun]) {
        guard !batch.isEmpty else { return }
        batches.yield(batch)
    }

    /// Accepts no more work; the root ends once every run has.
    func close() { batches.finish() }

    /// Cancels every run: for a host let go without terminating.
    func cancel() {
        batches.finish()
        root.cancel()
    }

    private static func run(_ runs: ArraySlice<WorkRun>) async {
        await withDiscardingTaskGroup { group in
            if runs.count <= shardSize {
                for run in runs { group.addTask { await run.run() } }
            } else {
                var start = runs.startIndex
                while start < runs.endIndex {
                    let end = min(start + shardSize, runs.endIndex)
                    let shard = runs[start..<end]
                    group.addTask { await Self.run(shard) }
                    start = end
                }
            }
        }
    }
}
