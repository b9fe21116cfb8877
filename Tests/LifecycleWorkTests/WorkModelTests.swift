import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import LifecycleWork
import Testing

// Model-based random sequences: state changes, registration and removal of a working module, failures and
// time, against a small reference model of which works run, which wait out a backoff, and how many
// attempts each has made. After every step the host's workStatus, what the works recorded, which works
// wait at their gate, and the deadlines armed must be what the model says.

/// Every work's policy here: restarted always, 1 s after each failure, practically without limit.
let modelPolicy = WorkPolicy(
    restart: .permanent,
    intensity: .init(maxRestarts: 1_000, within: .seconds(3_600)),
    backoff: .init(initial: .seconds(1), maximum: .seconds(1), multiplier: 1, jitter: 0),
    escalation: .ignore
)

/// A model work's body: records its start, then waits at the gate `<label> fail` (and throws when let
/// through) or for the request to stop.
func modelBody<Module>(_ label: String) -> @Sendable (Module, WorkContext) async throws -> Void {
    { _, context in
        let recorder = context.recorder
        recorder.record("\(label) start")
        if await context.pass("\(label) fail") {
            recorder.record("\(label) threw")
            throw WorkFailure(label: label)
        }
        recorder.record("\(label) stop")
    }
}

/// Listed in the manifest.
struct ModelFixed: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("app", .application(), policy: modelPolicy, modelBody("F.app"))
        work.run("act", .whileActive, policy: modelPolicy, modelBody("F.act"))
    }
}

/// Registered and removed by the sequence.
struct ModelGuest: WorkingModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("app", .application(), policy: modelPolicy, modelBody("G.app"))
        work.run("act", .whileActive, policy: modelPolicy, modelBody("G.act"))
    }
}

/// SplitMix64: a small deterministic generator, so a seed names a sequence for good.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum ModelOp: Sendable, CustomStringConvertible {
    case enterBackground, enterForeground, resignActive, becomeActive
    case registerGuest, removeGuest
    /// Lets the work with this label fail, if it is running.
    case fail(String)
    /// Advances the clock by one second: every backoff in progress passes.
    case advance

    static let labels = ["F.app", "F.act", "G.app", "G.act"]

    static func random(using generator: inout SplitMix) -> ModelOp {
        switch Int.random(in: 0..<20, using: &generator) {
        case 0..<2: .enterBackground
        case 2..<4: .enterForeground
        case 4..<6: .resignActive
        case 6..<8: .becomeActive
        case 8..<10: .registerGuest
        case 10..<12: .removeGuest
        case 12..<17: .fail(labels.randomElement(using: &generator)!)
        default: .advance
        }
    }

    var description: String {
        switch self {
        case .enterBackground: "enterBackground"
        case .enterForeground: "enterForeground"
        case .resignActive: "resignActive"
        case .becomeActive: "becomeActive"
        case .registerGuest: "register"
        case .removeGuest: "remove"
        case .fail(let label): "fail(\(label))"
        case .advance: "advance"
        }
    }
}

/// What the host should show: the reference model's state, and what a real host shows, in one shape.
struct ModelSnapshot: Equatable, CustomStringConvertible {
    var state: ApplicationState
    /// Per listed work: `phase/attempts`.
    var status: [String: String]
    /// Per work: how many times it recorded `start`, `stop`, `threw`.
    var lines: [String: [Int]]
    /// The works whose body waits at its gate.
    var waiting: Set<String>
    /// Deadlines armed on the watchdog: one per backoff in progress.
    var armed: Int
    /// The last operation's error code, if it threw.
    var error: LifecycleError.Code?

    var description: String {
        "\(state) status \(status.sorted { $0.key < $1.key }) lines \(lines.sorted { $0.key < $1.key }) "
            + "waiting \(waiting.sorted()) armed \(armed) error \(error.map { "\($0)" } ?? "none")"
    }
}

/// The reference model.
struct WorkModel {
    struct Work {
        var phase: WorkStatus.Phase = .notStarted
        var attempts = 0
        var lines = [0, 0, 0]
    }

    var state = ApplicationState.active
    var guest = false
    var works: [String: Work] = Dictionary(uniqueKeysWithValues: ModelOp.labels.map { ($0, Work()) })
    var error: LifecycleError.Code?

    static func isActive(_ label: String) -> Bool { label.hasSuffix("act") }
    static func isGuest(_ label: String) -> Bool { label.hasPrefix("G") }

    func isPresent(_ label: String) -> Bool { !Self.isGuest(label) || guest }

    /// A new run of `label`: attempt 1.
    mutating func start(_ label: String) {
        works[label]!.phase = .ready
        works[label]!.attempts = 1
        works[label]!.lines[0] += 1
    }

    /// Its schedule or its module's removal stops `label`: a running body records its stop; one waiting out
    /// a backoff just stops.
    mutating func stop(_ label: String) {
        switch works[label]!.phase {
        case .ready:
            works[label]!.phase = .stopped
            works[label]!.lines[1] += 1
        case .restarting:
            works[label]!.phase = .stopped
        default:
            break
        }
    }

    mutating func launch() {
        start("F.app")
        start("F.act")
    }

    /// Applies `op`; `false` if it is a no-op the runner skips too (a failure of a work that is not running).
    mutating func apply(_ op: ModelOp) -> Bool {
        error = nil
        let present = ModelOp.labels.filter(isPresent)
        switch op {
        case .enterBackground, .resignActive:
            let allowed = op.isResign ? state == .active : (state == .active || state == .inactive)
            guard allowed else {
                error = .invalidTransition
                return true
            }
            for label in present where Self.isActive(label) { stop(label) }
            state = op.isResign ? .inactive : .background
        case .enterForeground, .becomeActive:
            let allowed = op.isBecome ? state == .inactive : state == .background
            guard allowed else {
                error = .invalidTransition
                return true
            }
            state = .active
            for label in present where Self.isActive(label) { start(label) }
        case .registerGuest:
            guard !guest else {
                error = .registrationFailed
                return true
            }
            guest = true
            // New runs of a new instance; the lines recorded before stay recorded.
            for label in ["G.app", "G.act"] { works[label] = Work(lines: works[label]!.lines) }
            start("G.app")
            if state == .active { start("G.act") }
        case .removeGuest:
            guard guest else {
                error = .removalFailed
                return true
            }
            stop("G.app")
            stop("G.act")
            guest = false
        case .fail(let label):
            guard present.contains(label), works[label]!.phase == .ready else { return false }
            works[label]!.phase = .restarting
            works[label]!.lines[2] += 1
        case .advance:
            for label in present where works[label]!.phase == .restarting {
                works[label]!.phase = .ready
                works[label]!.attempts += 1
                works[label]!.lines[0] += 1
            }
        }
        return true
    }

    var snapshot: ModelSnapshot {
        let present = ModelOp.labels.filter(isPresent)
        return ModelSnapshot(
            state: state,
            status: Dictionary(
                uniqueKeysWithValues: present.map { ($0, "\(works[$0]!.phase)/\(works[$0]!.attempts)") }
            ),
            lines: works.mapValues(\.lines),
            waiting: Set(present.filter { works[$0]!.phase == .ready }),
            armed: present.filter { works[$0]!.phase == .restarting }.count,
            error: error
        )
    }
}

extension ModelOp {
    var isResign: Bool {
        if case .resignActive = self { return true }
        return false
    }
    var isBecome: Bool {
        if case .becomeActive = self { return true }
        return false
    }
}

/// Runs one sequence on a real host: what it shows, and what it did.
struct ModelRun {
    let rig: WorkRig
    var error: LifecycleError.Code?

    init() throws {
        rig = try workRig([ModelFixed.self])
    }

    var snapshot: ModelSnapshot {
        let short = [ModelFixed.moduleName: "F", ModelGuest.moduleName: "G"]
        let status = rig.host.workStatus
        let entries = rig.recorder.entries
        return ModelSnapshot(
            state: rig.host.state,
            status: Dictionary(
                uniqueKeysWithValues: status.map {
                    ("\(short[$0.module] ?? $0.module).\($0.name)", "\($0.phase)/\($0.attempts)")
                }
            ),
            lines: Dictionary(
                uniqueKeysWithValues: ModelOp.labels.map { label in
                    (
                        label,
                        ["start", "stop", "threw"].map { kind in entries.filter { $0 == "\(label) \(kind)" }.count }
                    )
                }
            ),
            waiting: Set(ModelOp.labels.filter { rig.gates.waiting("\($0) fail") > 0 }),
            armed: rig.armedDeadlines,
            error: error
        )
    }

    mutating func apply(_ op: ModelOp) async {
        error = nil
        let host = rig.host
        do {
            switch op {
            case .enterBackground: try await host.enterBackground()
            case .enterForeground: try await host.enterForeground()
            case .resignActive: try await host.resignActive()
            case .becomeActive: try await host.becomeActive()
            case .registerGuest: try await host.register(ModelGuest.self)
            case .removeGuest: try await host.remove(ModelGuest.self)
            case .fail(let label): rig.gates.release("\(label) fail")
            case .advance: rig.clock.advance(by: .seconds(1))
            }
        } catch {
            self.error = error.code
        }
    }
}

@Suite("Work: model-based random sequences")
struct WorkModelTests {
    static let seeds: [UInt64] = (1...32).map { 0x5EED_0000 + $0 }
    static let steps = 60

    @Test("Random sequences agree with the reference model after every step", arguments: seeds)
    func sequence(seed: UInt64) async throws {
        var generator = SplitMix(seed: seed)
        var model = WorkModel()
        var run = try ModelRun()
        try await run.rig.host.launch()
        model.launch()
        var history: [ModelOp] = []
        let hex = String(seed, radix: 16)
        #expect(await eventually { run.snapshot == model.snapshot }, "seed 0x\(hex) after launch")
        for _ in 0..<Self.steps {
            let op = ModelOp.random(using: &generator)
            guard model.apply(op) else { continue }
            history.append(op)
            await run.apply(op)
            let settled = await eventually { run.snapshot == model.snapshot }
            #expect(
                settled,
                "seed 0x\(hex), ops \(history):\n  host  \(run.snapshot)\n  model \(model.snapshot)"
            )
            guard settled else { break }
        }
        try await run.rig.host.terminate()
        // Every body ended exactly one way: a stop or a throw for each start.
        let lines = run.snapshot.lines
        for label in ModelOp.labels {
            let counts = lines[label] ?? [0, 0, 0]
            #expect(counts[0] == counts[1] + counts[2], "seed 0x\(hex) \(label): \(counts)")
        }
        #expect(run.rig.host.workStatus.allSatisfy { $0.phase == .stopped || $0.phase == .notStarted })
        #expect(run.rig.armedDeadlines == 0)
    }
}
