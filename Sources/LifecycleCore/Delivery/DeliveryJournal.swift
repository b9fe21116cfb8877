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
        /// For a message between modules (LifecycleMessaging): the sending module's module-qualified type
        /// name, or `nil` when the sender is not a module. `nil` for lifecycle events.
        public let sender: String?
        /// Whether this is a message between modules rather than a lifecycle event.
        public let isMessage: Bool
        /// For an entry that records a change rather than a hook call — a module switched off or on by a
        /// reload (`switchedOff`, `switchedOn`), quarantined (`quarantined`) or released (`released`), or a
        /// module's work started, stopped, restarted or failed (`workStarted`, `workStopped`, … as
        /// LifecycleWork names them), named by ``event`` — why, or which work; `nil` for hook calls. Such an
        /// entry has no duration.
        public var note: String? = nil
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
        /// of a delivery the host opened as a context (see ``openContext(_:plan:)``), which records many
        /// calls without retaining anything per call.
        enum Receiver {
            case participant(LifecycleEvent, Participant, sender: Participant?)
            case planned(context: Int, position: Int)
            /// A change to a participant, named; the record's `error` holds the note's text.
            case note(String, Participant)
        }

        let sequence: Int
        let receiver: Receiver
        /// Since the journal's origin.
        let start: Duration
        let duration: Duration
        let result: Bool?
        let error: String?
    }

    /// A delivery's event and plan, shared by the records of its calls; kept while it is open or any of
    /// them is.
    private struct Context {
        let event: LifecycleEvent
        let plan: [Participant]
        var records = 0
        var open = true
    }

    /// A kept record with its receiver resolved, to build an entry from outside the lock.
    private typealias Resolved = (
        record: Record, event: String, isMessage: Bool, participant: Participant, sender: Participant?
    )

    private struct Storage {
        var records: [Record] = []
        var head = 0
        var nextSequence = 0
        var dropped = 0
        /// A delivery in progress that keeps its calls until the journal takes them.
        var source: (any JournalSource)?
        /// Open deliveries and those a kept record names, by id; ids of released ones are reused.
        var contexts: [Context?] = []
        var freeContexts: [Int] = []

        /// The kept records, oldest first, with their receivers.
        var inOrder: [Resolved] {
            (records[head...] + records[..<head]).map { record in
                switch record.receiver {
                case .participant(let event, let participant, let sender):
                    return (record, event.name, event.isMessage, participant, sender)
                case .planned(let context, let position):
                    let context = contexts[context]!
                    return (record, context.event.name, context.event.isMessage, context.plan[position], nil)
                case .note(let name, let participant):
                    return (record, name, false, participant, nil)
                }
            }
        }

        mutating func openContext(_ event: LifecycleEvent, _ plan: [Participant]) -> Int {
            let context = Context(event: event, plan: plan)
            if let id = freeContexts.popLast() {
                contexts[id] = context
                return id
            }
            contexts.append(context)
            return contexts.count - 1
        }

        mutating func release(_ id: Int) {
            guard let context = contexts[id], !context.open, context.records == 0 else { return }
            contexts[id] = nil
            freeContexts.append(id)
        }

        /// Appends `record`, dropping the oldest beyond `capacity`.
        mutating func append(_ record: Record, capacity: Int) {
            nextSequence += 1
            if case .planned(let context, _) = record.receiver { contexts[context]!.records += 1 }
            if records.count < capacity {
                records.append(record)
                return
            }
            let evicted = records[head].receiver
            records[head] = record
            head += 1
            if head == capacity { head = 0 }
            dropped += 1
            if case .planned(let context, _) = evicted {
                contexts[context]!.records -= 1
                release(context)
            }
        }

        /// Takes every call the source holds, in order, ahead of anything recorded after them.
        mutating func takePending(capacity: Int) {
            guard let source else { return }
            let pending = source.takeCalls(keeping: capacity)
            let kept = pending.calls.count
            guard kept > 0 else { return }
            // Calls the source held no longer, beyond the last `capacity`: journaled, then dropped.
            let skipped = pending.total - kept
            nextSequence += skipped
            dropped += skipped
            for index in 0..<kept {
                let call = pending.calls[(pending.first + index) % kept]
                append(
                    Record(
                        sequence: nextSequence,
                        receiver: .planned(context: pending.context, position: call.position),
                        start: call.start + pending.shift,
                        duration: call.end - call.start,
                        result: call.result,
                        error: call.error
                    ),
                    capacity: capacity
                )
            }
        }
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
            .participant(delivery.event, delivery.participant, sender: delivery.sender),
            start: origin.duration(to: delivery.start),
            duration: delivery.duration,
            result: delivery.result,
            error: delivery.error
        )
    }

    /// Opens a context for the calls of one delivery of `event` to `plan`, for
    /// ``record(context:at:startOffset:duration:result:error:)``: the host's way when nobody else observes
    /// deliveries, without a ``DeliveryRecord`` or a retain per call. Close it when the delivery ends; the
    /// journal keeps it while it keeps an entry of it.
    package func openContext(_ event: LifecycleEvent, plan: [Participant]) -> Int {
        storage.withLock { $0.openContext(event, plan) }
    }

    /// The delivery of context `id` is over: nothing more is recorded in it.
    package func closeContext(_ id: Int) {
        storage.withLock { storage in
            storage.contexts[id]?.open = false
            storage.release(id)
        }
    }

    /// Records one call of the hook at `position` of the plan of `context`, that started `startOffset`
    /// after ``origin``.
    package func record(
        context: Int,
        at position: Int,
        startOffset: Duration,
        duration: Duration,
        result: Bool?,
        error: (any Error)?
    ) {
        append(
            .planned(context: context, position: position),
            start: startOffset,
            duration: duration,
            result: result,
            error: error
        )
    }

    private func append(
        _ receiver: Record.Receiver,
        start: Duration,
        duration: Duration,
        result: Bool?,
        error: (any Error)?
    ) {
        // Described now, as thrown: an error's description may not stay the same.
        let description = error.map { "\($0)" }
        storage.withLock { storage in
            storage.takePending(capacity: capacity)
            if case .planned(let context, _) = receiver {
                // Only while its delivery runs: a closed context's id may be reused.
                guard storage.contexts.indices.contains(context), storage.contexts[context]?.open == true else {
                    return
                }
            }
            let record = Record(
                sequence: storage.nextSequence,
                receiver: receiver,
                start: start,
                duration: duration,
                result: result,
                error: description
            )
            storage.append(record, capacity: capacity)
        }
    }

    /// Records a change to `participant` that is not a hook call: `name` says what (`quarantined`), `text`
    /// why. It takes its place in the journal's order, with no duration.
    package func note(_ name: String, _ participant: Participant, _ text: String, at start: ContinuousClock.Instant) {
        append(
            .note(name, participant),
            start: origin.duration(to: start),
            duration: .zero,
            result: nil,
            error: JournalNote(text)
        )
    }

    /// Lets `source` keep the calls of a delivery until the journal takes them: before any other record,
    /// any read, and when the source is detached. So they keep their place in the journal's order, and
    /// nobody reading the journal misses one, while the delivery records each call without the
    /// journal's lock. One source at a time: attaching one takes and detaches the one before.
    package func attach(_ source: some JournalSource) {
        storage.withLock { storage in
            storage.takePending(capacity: capacity)
            storage.source = source
        }
    }

    /// Takes the calls `source` still keeps, and stops asking it.
    package func detach(_ source: some JournalSource) {
        storage.withLock { storage in
            storage.takePending(capacity: capacity)
            if storage.source === source { storage.source = nil }
        }
    }

    private func entry(_ resolved: Resolved) -> Entry {
        let (record, event, isMessage, participant, sender) = resolved
        let isNote: Bool
        if case .note = record.receiver { isNote = true } else { isNote = false }
        return Entry(
            sequence: record.sequence,
            event: event,
            participant: participant.name,
            priority: participant.priority?.rawValue,
            startMicroseconds: microseconds(record.start),
            durationMicroseconds: microseconds(record.duration),
            result: record.result,
            error: isNote ? nil : record.error,
            sender: sender?.name,
            isMessage: isMessage,
            note: isNote ? record.error : nil
        )
    }

    /// The kept entries, oldest first.
    public var entries: [Entry] {
        storage.withLock { storage in
            storage.takePending(capacity: capacity)
            return storage.inOrder
        }
        .map(entry)
    }

    /// How many of the oldest entries were dropped to stay within ``capacity``.
    public var droppedCount: Int {
        storage.withLock { storage in
            storage.takePending(capacity: capacity)
            return storage.dropped
        }
    }

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
        let (dropped, records): (Int, [Resolved]) = storage.withLock { storage in
            storage.takePending(capacity: capacity)
            return (storage.dropped, storage.inOrder)
        }
        return try encoder.encode(Document(capacity: capacity, dropped: dropped, entries: records.map(entry)))
    }

    /// Time per participant over `events` (all events when empty), slowest first; ties by name.
    public func profile(for events: Set<LifecycleEvent> = []) -> [ProfileRow] {
        let names = Set(events.map(\.name))
        var rows: [String: (priority: Int?, total: Double, calls: Int, failures: Int)] = [:]
        for entry in entries where entry.note == nil && (names.isEmpty || names.contains(entry.event)) {
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

/// A delivery in progress that records its hook calls itself, under its own lock, and hands them to a
/// ``DeliveryJournal`` when the journal asks (see `DeliveryJournal.attach(_:)`).
package protocol JournalSource: AnyObject, Sendable {
    /// The calls recorded since the last time: how many, and the last ones of them, as many as the
    /// journal keeps (`keeping`; it would drop the others anyway). Called with the journal's lock held;
    /// the source's own lock is never held while taking the journal's.
    func takeCalls(keeping: Int) -> PendingCalls
}

/// Hook calls of one delivery, not yet in the journal.
package struct PendingCalls {
    /// The delivery's context (see `DeliveryJournal.openContext(_:plan:)`): the calls name participants
    /// by position in its plan.
    package let context: Int
    /// How many calls were recorded, of which `calls` are the last, in a ring whose oldest is at `first`.
    package let total: Int
    package let calls: [PendingCall]
    package let first: Int
    /// From the calls' time origin to the journal's: added to their start times.
    package let shift: Duration

    package init(context: Int, total: Int, calls: [PendingCall], first: Int, shift: Duration) {
        self.context = context
        self.total = total
        self.calls = calls
        self.first = first
        self.shift = shift
    }
}

/// One hook call, as a ``JournalSource`` keeps it: plain values, cheap to record (the arithmetic waits
/// for the few calls the journal keeps).
package struct PendingCall: Sendable {
    package let position: Int
    /// When the call started and ended, on the source's time origin (see `PendingCalls.shift`).
    package let start: Duration
    package let end: Duration
    package let result: Bool?
    /// The error's description, taken when it was thrown.
    package let error: String?

    package init(position: Int, start: Duration, end: Duration, result: Bool?, error: String?) {
        self.position = position
        self.start = start
        self.end = end
        self.result = result
        self.error = error
    }
}

/// The text of a journal note, carried where a record keeps an error's description.
private struct JournalNote: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}
