/// A binary min-heap of deadlines, each with the token of what it belongs to: a ``Watchdog``'s agenda.
struct DeadlineHeap<Instant: Comparable> {
    private(set) var entries: [(due: Instant, token: UInt64)] = []

    var first: (due: Instant, token: UInt64)? { entries.first }
    var count: Int { entries.count }

    /// Earlier deadlines first; among equal ones, the earlier armed (the smaller token).
    private static func precedes(_ a: (due: Instant, token: UInt64), _ b: (due: Instant, token: UInt64)) -> Bool {
        a.due != b.due ? a.due < b.due : a.token < b.token
    }

    /// Empties the heap, keeping its storage for the next entries.
    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    mutating func insert(_ due: Instant, _ token: UInt64) {
        entries.append((due, token))
        siftUp(entries.count - 1)
    }

    mutating func removeFirst() {
        guard entries.count > 1 else {
            entries.removeAll(keepingCapacity: true)
            return
        }
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        siftDown(0)
    }

    /// Keeps only the entries `isLive` accepts, and restores the heap order: O(n), for dropping entries
    /// disarmed in bulk.
    mutating func compact(_ isLive: (UInt64) -> Bool) {
        entries.removeAll { !isLive($0.token) }
        var parent = entries.count / 2
        while parent > 0 {
            parent -= 1
            siftDown(parent)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
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
