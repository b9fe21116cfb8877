#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A bounded record of every hook call a host made: event, participant, start, duration, result, error.
///
/// The host writes one ``Entry`` per delivery. When ``capacity`` is reached, the oldest entries are
/// dropped and counted in ``droppedCount``, so memory stays bounded however long the host runs. Read it
/// from anywhere; export it as JSON for a dashboard or a bug report.
///
/// ```swift
/// let profile = host.journal.profile(for: [.willFinishLaunching, .didFinishLaunching])
/// for row in profile { print(row.participant, row.total) }   // slowest first
/// ```
public final class DeliveryJournal: Sendable {
    /// One hook call.
    public struct Entry: Sendable, Hashable, Codable {
        /// Position in the host's delivery history, from 0; gaps never occur, drops only remove the oldest.
        public let sequence: Int
        /// The event's name.
        public let event: String
        /// The participant's module-qualified type name.
        public let participant: String
        /// The participant's priority, or `nil` for the program's delegate.
        public let priority: Int?
        /// When the call started, in microseconds since the journal was created.
        public let startMicroseconds: Double
        /// How long the call took, in microseconds.
        public let durationMicroseconds: Double
        /// The value returned, for events with a Bool result.
        public let result: Bool?
        /// What the hook threw, described.
        public let error: String?
    }

    /// One participant's total time over a set of events: a row of the launch profile.
    public struct ProfileRow: Sendable, Hashable {
        /// The participant's module-qualified type name.
        public let participant: String
        /// The participant's priority, or `nil` for the program's delegate.
        public let priority: Int?
        /// The time spent in the participant's hooks for those events.
        public let total: Duration
        /// How many hook calls that was.
        public let calls: Int
        /// How many of those calls threw.
        public let failures: Int
    }

    private struct Storage {
        var entries: [Entry] = []
        var head = 0
        var nextSequence = 0
        var dropped = 0
    }

    /// The most entries kept.
    public let capacity: Int
    private let origin: ContinuousClock.Instant
    private let storage = Locked(Storage())

    /// Creates an empty journal that keeps at most `capacity` entries (at least 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.origin = .now
    }

    /// Records one delivery.
    public func record(_ delivery: DeliveryRecord) {
        let start = microseconds(origin.duration(to: delivery.start))
        let duration = microseconds(delivery.duration)
        storage.withLock { storage in
            let entry = Entry(
                sequence: storage.nextSequence,
                event: delivery.event.name,
                participant: delivery.participant.name,
                priority: delivery.participant.priority?.rawValue,
                startMicroseconds: start,
                durationMicroseconds: duration,
                result: delivery.result,
                error: delivery.error.map { "\($0)" }
            )
            storage.nextSequence += 1
            if storage.entries.count < capacity {
                storage.entries.append(entry)
            } else {
                storage.entries[storage.head] = entry
                storage.head = (storage.head + 1) % capacity
                storage.dropped += 1
            }
        }
    }

    /// The kept entries, oldest first.
    public var entries: [Entry] {
        storage.withLock { storage in
            Array(storage.entries[storage.head...] + storage.entries[..<storage.head])
        }
    }

    /// How many of the oldest entries were dropped to stay within ``capacity``.
    public var droppedCount: Int { storage.withLock { $0.dropped } }

    /// The kept entries as a JSON document: `{"capacity": …, "dropped": …, "entries": [ … ]}`.
    public func exportJSON() throws -> Data {
        struct Document: Encodable {
            let capacity: Int
            let dropped: Int
            let entries: [Entry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // One snapshot, so the drop count and the entries agree.
        let (dropped, entries): (Int, [Entry]) = storage.withLock { storage in
            (storage.dropped, Array(storage.entries[storage.head...] + storage.entries[..<storage.head]))
        }
        return try encoder.encode(Document(capacity: capacity, dropped: dropped, entries: entries))
    }

    /// Time per participant over `events` (all events when empty), slowest first; ties by name.
    public func profile(for events: Set<LifecycleEvent> = []) -> [ProfileRow] {
        let names = Set(events.map(\.name))
        var rows: [String: (priority: Int?, total: Double, calls: Int, failures: Int)] = [:]
        for entry in entries where names.isEmpty || names.contains(entry.event) {
            var row = rows[entry.participant] ?? (entry.priority, 0, 0, 0)
            row.total += entry.durationMicroseconds
            row.calls += 1
            if entry.error != nil { row.failures += 1 }
            rows[entry.participant] = row
        }
        return rows.map { name, row in
            ProfileRow(
                participant: name,
                priority: row.priority,
                total: .nanoseconds(Int64((row.total * 1_000).rounded())),
                calls: row.calls,
                failures: row.failures
            )
        }
        .sorted { $0.total != $1.total ? $0.total > $1.total : $0.participant < $1.participant }
    }

    private func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
