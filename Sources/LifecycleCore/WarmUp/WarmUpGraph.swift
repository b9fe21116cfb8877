/// Who waits for whom in one warm-up stage, by position in the warm-up plan.
///
/// A warm-up implementer waits for the implementers it reaches through its dependencies, directly or
/// through participants without a warm-up — but not through another implementer: that one starts only
/// after its own prerequisites finished, so waiting for it covers them. This gives every module the same
/// start condition as waiting for every implementer in its transitive dependencies, with one visit per
/// edge instead of a walk of the whole closure per module.
package struct WarmUpGraph: Sendable {
    /// The waits-for edges in compressed rows: the positions `position` waits for are
    /// `waitedFor[waitStart[position] ..< waitStart[position + 1]]`, each once. Flat arrays: the stage
    /// walks them once per hook, and one allocation per module would cost more than the walk.
    private let waitStart: [Int]
    private let waitedFor: [Int]
    /// The same edges the other way: the positions that wait for `position`, in delivery order.
    private let dependentStart: [Int]
    private let dependentList: [Int]
    /// The ids of the participants that do not implement warm-up, in delivery order.
    package let withoutWarmUp: [Int]

    /// Builds the graph of `plan` (the warm-up implementers, in delivery order) among `participants`
    /// (every participant), following `dependencies` (a participant's direct dependencies, by id).
    package init(
        plan: [Participant],
        participants: [Participant],
        dependencies: (Participant) -> ArraySlice<Int>
    ) {
        // Participant ids are small and dense (given in join order, never reused): arrays indexed by id
        // stand in for dictionaries and sets.
        let idCount = (participants.lazy.map(\.id).max() ?? -1) + 1
        var slot = [Int](repeating: -1, count: idCount)
        for index in participants.indices { slot[participants[index].id] = index }
        var position = [Int](repeating: -1, count: idCount)
        for index in plan.indices { position[plan[index].id] = index }
        withoutWarmUp = participants.lazy.map(\.id).filter { position[$0] < 0 }

        // `visitedBy[id]` is the last position whose walk reached `id`: one array for every walk.
        var visitedBy = [Int](repeating: -1, count: idCount)
        var waitStart = [0]
        waitStart.reserveCapacity(plan.count + 1)
        var waitedFor: [Int] = []
        var stack: [Int] = []
        for current in plan.indices {
            stack.append(contentsOf: dependencies(plan[current]))
            while let next = stack.popLast() {
                guard next >= 0, next < idCount, visitedBy[next] != current else { continue }
                visitedBy[next] = current
                if position[next] >= 0 {
                    waitedFor.append(position[next])  // an implementer: waited for, not walked through
                } else if slot[next] >= 0 {
                    stack.append(contentsOf: dependencies(participants[slot[next]]))
                }
            }
            waitStart.append(waitedFor.count)
        }

        // Reverse the edges by counting: each row of dependents fills in increasing position, so it stays
        // in delivery order.
        var dependentStart = [Int](repeating: 0, count: plan.count + 1)
        for dependency in waitedFor { dependentStart[dependency + 1] += 1 }
        for index in plan.indices { dependentStart[index + 1] += dependentStart[index] }
        var fill = dependentStart
        var dependentList = [Int](repeating: 0, count: waitedFor.count)
        for current in plan.indices {
            for dependency in waitedFor[waitStart[current]..<waitStart[current + 1]] {
                dependentList[fill[dependency]] = current
                fill[dependency] += 1
            }
        }
        self.waitStart = waitStart
        self.waitedFor = waitedFor
        self.dependentStart = dependentStart
        self.dependentList = dependentList
    }

    /// How many positions `position` waits for.
    package func waitCount(of position: Int) -> Int { waitStart[position + 1] - waitStart[position] }

    /// The positions `position` waits for, each once.
    package func waitsOn(_ position: Int) -> ArraySlice<Int> {
        waitedFor[waitStart[position]..<waitStart[position + 1]]
    }

    /// The positions that wait for `position`, in delivery order.
    package func dependents(of position: Int) -> ArraySlice<Int> {
        dependentList[dependentStart[position]..<dependentStart[position + 1]]
    }

    /// For each position, the positions it waits for.
    package var waitsOn: [[Int]] { (0..<waitStart.count - 1).map { Array(waitsOn($0)) } }

    /// For each position, the positions that wait for it.
    package var dependents: [[Int]] { (0..<dependentStart.count - 1).map { Array(dependents(of: $0)) } }
}
