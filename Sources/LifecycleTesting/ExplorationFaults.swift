import LifecycleCore

/// Which faults a random lifecycle injects into the hooks, handlers and work of the modules it runs, in place
/// of the call (``LifecycleExploration``).
///
/// Every call is a candidate: each hook of each participant, the program's delegate included, each handler
/// of a custom event, a message or a route, and each attempt of each work. Whether a call is faulted depends
/// only on the seed, the participant, the event, handler or work, and how many such calls came before, so a
/// seed replays the same faults however the work's tasks interleave.
public struct ExplorationFaults: Sendable, Hashable {
    /// The chance that a call is replaced by a fault, from 0 to 1.
    public var rate: Double
    /// Whether a fault of a hook or handler may be a hang (one in four is, then) rather than a thrown
    /// ``InjectedFailure``. A hanging hook is abandoned at its budget (`hookBudget`, on the exploration's
    /// virtual clock, which moves only while a hang waits). A work attempt's fault, and a message or route
    /// handler's, is always a failure: the host stops work rather than abandoning it, and a handler may have no
    /// budget to be abandoned at.
    public var hangs: Bool

    /// Faults on `rate` of the calls; hangs among them if `hangs`.
    public init(rate: Double, hangs: Bool = true) {
        self.rate = min(max(rate, 0), 1)
        self.hangs = hangs
    }

    /// No faults: the modules' own behaviour only.
    public static let none = ExplorationFaults(rate: 0, hangs: false)
    /// One call in twenty faulted, one fault in four a hang.
    public static let standard = ExplorationFaults(rate: 0.05)
}

/// The error an injected fault throws in place of a hook, handler or work attempt.
///
/// An invariant can tell an injected failure from one of the module's own: `record.error is InjectedFailure`.
public struct InjectedFailure: Error, Sendable, CustomStringConvertible {
    /// The fault, as the report shows it.
    public let fault: InjectedFaultRecord

    public var description: String { "injected failure (\(fault))" }
}

/// A fault a random lifecycle injected: where, which call of that place, and what kind.
public struct InjectedFaultRecord: Sendable, Hashable, CustomStringConvertible {
    /// What happened in place of the call.
    public enum Kind: String, Sendable, Hashable {
        /// It threw ``InjectedFailure``.
        case failure
        /// It waited until cancelled.
        case hang
    }

    /// The participant's module-qualified name (`Participant.name`).
    public let participant: String
    /// The event, for a hook or an event handler (`didFinishLaunching`); `message <Name>` or `route <Name>` for
    /// a message or route handler; `work <name>` for a work attempt.
    public let site: String
    /// Which call of `participant` at `site` it replaced in the run, from 1.
    public let occurrence: Int
    /// What happened instead.
    public let kind: Kind
    /// The step it happened during, counted from 1 (``LifecycleSnapshot/steps``).
    public let step: Int
    /// Which call of `participant` at `site` it replaced within its step, from 1.
    let occurrenceInStep: Int

    public var description: String {
        "\(participant) \(site) call \(occurrence): \(kind == .hang ? "hangs" : "throws")"
    }

    /// Whether it replaced a work attempt, which runs beside the steps rather than inside one.
    var isWork: Bool { site.hasPrefix(FaultSchedule.workPrefix) }

    /// The call a replay looks it up by: a hook's by its step and its place within the step, so that taking
    /// other steps away does not move it; a work attempt's by its place in the run, since work runs beside the
    /// steps.
    var call: Call {
        isWork
            ? Call(participant: participant, site: site, step: 0, occurrence: occurrence)
            : Call(participant: participant, site: site, step: step, occurrence: occurrenceInStep)
    }

    struct Call: Hashable, Comparable {
        let participant: String
        let site: String
        let step: Int
        let occurrence: Int

        static func < (lhs: Call, rhs: Call) -> Bool {
            (lhs.step, lhs.participant, lhs.site, lhs.occurrence) < (
                rhs.step, rhs.participant, rhs.site, rhs.occurrence
            )
        }

        /// The same call once step `removed` is taken away: `nil` if it happened in that step.
        func without(step removed: Int) -> Call? {
            guard step != 0, step >= removed else { return self }
            guard step > removed else { return nil }
            return Call(participant: participant, site: site, step: step - 1, occurrence: occurrence)
        }
    }
}

/// Decides the fault of each call of one run, and records the faults it injected.
///
/// Either drawn from the seed (``ExplorationFaults``), or exactly a given list: the shrinker replays a failing
/// run with the faults it saw, then with fewer.
final class FaultSchedule: Sendable {
    enum Source: Sendable {
        case drawn(seed: UInt64, ExplorationFaults)
        case exactly([InjectedFaultRecord.Call: InjectedFaultRecord.Kind])
    }

    static let workPrefix = "work "

    private struct Place: Hashable {
        let participant: String
        let site: String
    }

    private struct State {
        /// How many calls each place has had in the run, and in the current step.
        var calls: [Place: Int] = [:]
        var callsInStep: [Place: Int] = [:]
        var injected: [InjectedFaultRecord] = []
        var step = 0
        /// Hangs injected into hooks and handlers that have not ended yet.
        var liveHangs = 0
        /// Told when a hang is injected: the step driver, which then moves the clock.
        var onHang: (@Sendable () -> Void)?
    }

    private let source: Source
    private let state = Locked(State())

    init(_ source: Source) { self.source = source }

    /// The faults injected so far, in the order they were.
    var injected: [InjectedFaultRecord] { state.withLock { $0.injected } }

    /// Whether a hook or handler hangs now: only then does the exploration move its clock.
    var isHanging: Bool { state.withLock { $0.liveHangs > 0 } }

    /// Calls `observer` whenever a hang is injected, from then on.
    func observeHangs(_ observer: @escaping @Sendable () -> Void) { state.withLock { $0.onHang = observer } }

    /// Marks the start of step `number` (from 1): the faults that follow happened during it.
    func begin(step number: Int) {
        state.withLock { state in
            state.step = number
            state.callsInStep = [:]
        }
    }

    /// The seam the host asks before every call.
    var injection: FaultInjection {
        FaultInjection { [self] participant, site in fault(for: participant, at: site) }
    }

    private func fault(for participant: Participant, at site: FaultSite) -> InjectedFault? {
        let place: Place
        // Only hooks and event handlers hang: the host abandons them at their budgets. Work is stopped by the
        // host, and a message or route handler may have no budget to be abandoned at: they fail instead.
        let canHang: Bool
        switch site {
        case .hook(let event):
            place = Place(participant: participant.name, site: "\(event)")
            canHang = true
        case .handler(let name):
            place = Place(participant: participant.name, site: name)
            canHang = false
        case .work(let name):
            place = Place(participant: participant.name, site: Self.workPrefix + name)
            canHang = false
        }
        let injected = state.withLock { state -> InjectedFaultRecord? in
            let occurrence = (state.calls[place] ?? 0) + 1
            let inStep = (state.callsInStep[place] ?? 0) + 1
            state.calls[place] = occurrence
            state.callsInStep[place] = inStep
            let call = InjectedFaultRecord(
                participant: place.participant,
                site: place.site,
                occurrence: occurrence,
                kind: .failure,
                step: state.step,
                occurrenceInStep: inStep
            )
            guard let drawn = kind(of: call) else { return nil }
            let kind = canHang ? drawn : .failure
            if kind == .hang { state.liveHangs += 1 }
            let record = InjectedFaultRecord(
                participant: call.participant,
                site: call.site,
                occurrence: occurrence,
                kind: kind,
                step: call.step,
                occurrenceInStep: inStep
            )
            state.injected.append(record)
            return record
        }
        guard let injected else { return nil }
        switch injected.kind {
        case .hang:
            state.withLock { $0.onHang }?()
            return .hang(ended: { [self] in state.withLock { $0.liveHangs -= 1 } })
        case .failure: return .failure(InjectedFailure(fault: injected))
        }
    }

    /// `name` without the addresses the runtime writes into the names of private types
    /// (`(unknown context at $55c4ba3730ec)`), which change from one process to the next: a seed must draw the
    /// same faults in every process.
    static func stable(_ name: String) -> String {
        let marker = " at $"
        var result = ""
        var rest = Substring(name)
        while !rest.isEmpty {
            if rest.hasPrefix(marker) {
                rest = rest.dropFirst(marker.count).drop { $0.isHexDigit }
            } else {
                result.append(rest.removeFirst())
            }
        }
        return result
    }

    private func kind(of record: InjectedFaultRecord) -> InjectedFaultRecord.Kind? {
        switch source {
        case .exactly(let faults):
            return faults[record.call]
        case .drawn(let seed, let faults):
            guard faults.rate > 0 else { return nil }
            let place = Self.stable(record.participant) + "\u{1F}" + record.site
            var random = SplitMix64(seed: seed ^ SplitMix64.hash(place))
            random.skip(record.occurrence)
            guard random.unit() < faults.rate else { return nil }
            return faults.hangs && random.next() % 4 == 0 ? .hang : .failure
        }
    }
}
