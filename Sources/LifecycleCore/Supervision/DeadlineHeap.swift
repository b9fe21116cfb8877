/// A binary min-heap of deadlines (on the configured clock) with the position of their hook: the
/// watchdog's agenda.
struct DeadlineHeap {
    private var entries: [(due: Duration, position: Int)] = []

    var first: (due: Duration, position: Int)? { entries.first }

    /// Earlier deadlines first; among equal ones, delivery order.
    private static func precedes(_ a: (due: Duration, position: Int), _ b: (due: Duration, position: Int)) -> Bool {
        a.due != b.due ? a.due < b.due : a.position < b.position
    }

    mutating func insert(_ due: Duration, _ position: Int) {
        entries.append((due, position))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        guard entries.count > 1 else {
            entries.removeAll()
            return
        }
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, Self.precedes(entries[left], entries[smallest]) { smallest = left }
            if right < entries.count, Self.precedes(entries[right], entries[smallest]) { smallest = right }
            guard smallest != parent else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
