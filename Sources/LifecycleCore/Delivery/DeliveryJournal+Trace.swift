#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension DeliveryJournal {
    /// The kept entries in the Chrome trace-event format, which Perfetto (ui.perfetto.dev) and
    /// `chrome://tracing` open: a timeline of the launch and of every event after it.
    ///
    /// - Every hook call is a complete slice (`"ph": "X"`, category `delivery`, or `message` for a message
    ///   between modules) named after the participant, with the event, priority, result, error and journal
    ///   sequence number in its `args`.
    /// - Calls that overlap in time (the concurrent warm-up stage) go on separate tracks, "lanes"; everything
    ///   else is on lane 1.
    /// - Each event is an enclosing slice (category `event`) over its calls on each lane, and the launch
    ///   events and stages, from `willFinishLaunching` to `didFinishLaunching` (or the first and last of
    ///   them that any module implements), are enclosed in one `launch` slice on lane 1 (a module's catch-up
    ///   after launch makes one too). Consecutive deliveries of one event (two memory warnings in a row) form one slice:
    ///   the journal records calls, not requests.
    /// - A call that threw is also an instant event (`"ph": "i"`) named `failure`, or `timeout` when it
    ///   ran past its budget, with the error in its `args`; a note (a module switched off, quarantined) is an
    ///   instant event named after it.
    ///
    /// Timestamps are microseconds since the journal was created, in order. Write the data to a `.json`
    /// file and open it in Perfetto; `lifecycle-demo trace launch.json` does.
    public func exportTrace() throws -> Data {
        let entries = self.entries
        var events: [TraceEvent] = [
            .metadata(name: "process_name", tid: 0, value: "ModuleLifecycle")
        ]
        var lanesUsed = 1
        var runStart = 0
        var launch: (start: Double, end: Double)?
        while runStart < entries.count {
            let first = entries[runStart]
            if let note = first.note {
                events.append(
                    .instant(
                        name: first.event,
                        category: "note",
                        ts: first.startMicroseconds,
                        tid: 1,
                        args: ["participant": .string(first.participant), "note": .string(note)]
                    )
                )
                runStart += 1
                continue
            }
            // One run: the consecutive calls of one event.
            var runEnd = runStart + 1
            while runEnd < entries.count, entries[runEnd].note == nil, entries[runEnd].event == first.event {
                runEnd += 1
            }
            let run = entries[runStart..<runEnd].sorted { $0.startMicroseconds < $1.startMicroseconds }
            var laneEnds: [Double] = []
            var byLane: [Int: [DeliveryJournal.Entry]] = [:]
            for entry in run {
                let end = entry.startMicroseconds + entry.durationMicroseconds
                let lane = laneEnds.firstIndex { $0 <= entry.startMicroseconds } ?? laneEnds.count
                if lane == laneEnds.count { laneEnds.append(end) } else { laneEnds[lane] = end }
                byLane[lane + 1, default: []].append(entry)
                events.append(.delivery(entry, tid: lane + 1))
                if let error = entry.error {
                    events.append(
                        .instant(
                            name: error.contains("budget") ? "timeout" : "failure",
                            category: "failure",
                            ts: end,
                            tid: lane + 1,
                            args: [
                                "participant": .string(entry.participant), "event": .string(entry.event),
                                "error": .string(error),
                            ]
                        )
                    )
                }
            }
            lanesUsed = max(lanesUsed, laneEnds.count)
            for (lane, calls) in byLane {
                let start = calls.map(\.startMicroseconds).min() ?? 0
                let end = calls.map { $0.startMicroseconds + $0.durationMicroseconds }.max() ?? start
                events.append(.slice(name: first.event, category: "event", ts: start, dur: end - start, tid: lane))
            }
            // The launch: from the first launch event's calls to the last one's, before any other event.
            let runEnds = run.map { $0.startMicroseconds + $0.durationMicroseconds }.max() ?? 0
            if Self.launchEvents.contains(first.event) {
                launch = (launch?.start ?? run.first?.startMicroseconds ?? 0, runEnds)
            } else if let open = launch {
                events.append(
                    .slice(name: "launch", category: "launch", ts: open.start, dur: open.end - open.start, tid: 1)
                )
                launch = nil
            }
            runStart = runEnd
        }
        if let open = launch {
            events.append(
                .slice(name: "launch", category: "launch", ts: open.start, dur: open.end - open.start, tid: 1)
            )
        }
        for lane in 1...lanesUsed {
            events.append(
                .metadata(name: "thread_name", tid: lane, value: lane == 1 ? "lifecycle" : "concurrent lane \(lane)")
            )
        }
        // In time order; at one instant, an enclosing slice before what it encloses.
        events.sort { ($0.ts, -$0.dur) < ($1.ts, -$1.dur) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(TraceDocument(traceEvents: events))
    }
}

extension DeliveryJournal {
    /// The events of a launch, in the journal's names.
    fileprivate static let launchEvents: Set<String> = Set(
        [LifecycleEvent.willFinishLaunching, .setup, .initialize, .warmUp, .didFinishLaunching].map(\.name)
    )
}

/// The top level of a trace-event file.
private struct TraceDocument: Encodable {
    let traceEvents: [TraceEvent]
    let displayTimeUnit = "ms"
}

/// One trace event, as the format spells it.
private struct TraceEvent: Encodable {
    enum Value: Encodable {
        case string(String)
        case int(Int)
        case bool(Bool)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            }
        }
    }

    let name: String
    let cat: String?
    let ph: String
    let ts: Double
    let dur: Double
    let pid = 1
    let tid: Int
    let s: String?
    let args: [String: Value]?

    private enum CodingKeys: String, CodingKey { case name, cat, ph, ts, dur, pid, tid, s, args }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(cat, forKey: .cat)
        try container.encode(ph, forKey: .ph)
        if ph != "M" { try container.encode(ts, forKey: .ts) }
        if ph == "X" { try container.encode(dur, forKey: .dur) }
        try container.encode(pid, forKey: .pid)
        try container.encode(tid, forKey: .tid)
        try container.encodeIfPresent(s, forKey: .s)
        try container.encodeIfPresent(args, forKey: .args)
    }

    static func slice(name: String, category: String, ts: Double, dur: Double, tid: Int) -> TraceEvent {
        TraceEvent(name: name, cat: category, ph: "X", ts: ts, dur: dur, tid: tid, s: nil, args: nil)
    }

    static func delivery(_ entry: DeliveryJournal.Entry, tid: Int) -> TraceEvent {
        var args: [String: Value] = ["event": .string(entry.event), "sequence": .int(entry.sequence)]
        if let priority = entry.priority { args["priority"] = .int(priority) }
        if let result = entry.result { args["result"] = .bool(result) }
        if let error = entry.error { args["error"] = .string(error) }
        if let sender = entry.sender { args["sender"] = .string(sender) }
        return TraceEvent(
            name: entry.participant,
            cat: entry.isMessage ? "message" : "delivery",
            ph: "X",
            ts: entry.startMicroseconds,
            dur: entry.durationMicroseconds,
            tid: tid,
            s: nil,
            args: args
        )
    }

    static func instant(name: String, category: String, ts: Double, tid: Int, args: [String: Value]) -> TraceEvent {
        TraceEvent(name: name, cat: category, ph: "i", ts: ts, dur: 0, tid: tid, s: "t", args: args)
    }

    static func metadata(name: String, tid: Int, value: String) -> TraceEvent {
        TraceEvent(name: name, cat: nil, ph: "M", ts: 0, dur: 0, tid: tid, s: nil, args: ["name": .string(value)])
    }
}
