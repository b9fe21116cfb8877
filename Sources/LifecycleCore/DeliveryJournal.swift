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

    /// One recorded call, kept raw: its ``Entry`` is built when someone reads the journal, so recording
    /// touches neither the participant's name nor the clock arithmetic.
    private struct Record {
        /// Who received the call: a participant given by a ``DeliveryRecord``, or a position in the plan
        /// the host delivered (the plan array is shared by every call of the event).
        enum Receiver {
            case participant(Participant)
            case planned([Participant], Int)
        }

        let sequence: Int
        let event: LifecycleEvent
        let receiver: Receiver
        /// Since the journal's origin.
        let start: Duration
        let duration: Duration
        let result: Bool?
        let error: String?

        var participant: Participant {
            switch receiver {
            case .participant(let participant): return participant
            case .planned(let plan, let position): return plan[position]
            }
        }
    }

    private struct Storage {
        var records: [Record] = []
        var head = 0
        var nextSequence = 0
        var dropped = 0

        /// The kept records, oldest first.
        var inOrder: [Record] { Array(records[head...] + records[..<head]) }
    }

    /// The most entries kept.
    public let capacity: Int
    /// The instant entries' start times are measured from.
    package let origin: ContinuousClock.Instant
    private let storage = Locked(Storage())

    /// Creates an empty journal that keeps at most `capacity` entries (at least 1).
    public convenience init(capacity: Int) {
        self.init(capacity: capacity, origin: .now)
    }

    /// Creates an empty journal whose start times count from `origin`.
    package init(capacity: Int, origin: ContinuousClock.Instant) {
        self.capacity = max(1, capacity)
        self.origin = origin
    }

    /// Records one delivery.
    public func record(_ delivery: DeliveryRecord) {
        append(
            delivery.event,
            .participant(delivery.participant),
            start: origin.duration(to: delivery.start),
            duration: delivery.duration,
            result: delivery.result,
            error: delivery.error
        )
    }

    /// Records one call of the hook of `plan[position]` that started `startOffset` after ``origin``: the
    /// host's way when nobody else observes deliveries, without building a ``DeliveryRecord``. The
    /// journal keeps a reference to `plan` while it keeps the entry.
    package func record(
        _ event: LifecycleEvent,
        of plan: [Participant],
        at position: Int,
        startOffset: Duration,
        duration: Duration,
        result: Bool?,
        error: (any Error)?
    ) {
        append(event, .planned(plan, position), start: startOffset, duration: duration, result: result, error: error)
    }

    private func append(
        _ event: LifecycleEvent,
        _ receiver: Record.Receiver,
        start: Duration,
        duration: Duration,
        result: Bool?,
        error: (any Error)?
    ) {
        // Described now, as thrown: an error's description may not stay the same.
        let description = error.map { "\($0)" }
        storage.withLock { storage in
            let record = Record(
                sequence: storage.nextSequence,
                event: event,
                receiver: receiver,
                start: start,
                duration: duration,
                result: result,
                error: description
            )
            storage.nextSequence += 1
            if storage.records.count < capacity {
                storage.records.append(record)
            } else {
                storage.records[storage.head] = record
                storage.head = (storage.head + 1) % capacity
                storage.dropped += 1
            }
        }
    }

    private func entry(_ record: Record) -> Entry {
        let participant = record.participant
        return Entry(
            sequence: record.sequence,
            event: record.event.name,
            participant: participant.name,
            priority: participant.priority?.rawValue,
            startMicroseconds: microseconds(record.start),
            durationMicroseconds: microseconds(record.duration),
            result: record.result,
            error: record.error
        )
    }

    /// The kept entries, oldest first.
    public var entries: [Entry] {
        storage.withLock { $0.inOrder }.map(entry)
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
        let (dropped, records): (Int, [Record]) = storage.withLock { storage in (storage.dropped, storage.inOrder) }
        return try encoder.encode(Document(capacity: capacity, dropped: dropped, entries: records.map(entry)))
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
