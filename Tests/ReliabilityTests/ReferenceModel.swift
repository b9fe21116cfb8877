import LifecycleCore

// A small reference model of the host, written from Docs/Events.md, Docs/Ordering.md and Docs/Failures.md
// alone: the state machine, the delivery order, catch-up and teardown, result combining, and the errors.
// It shares no code with the library (it borrows only the `ApplicationState` enum), and it knows the
// participants only through the table in `ModelPool`.

/// The events the model knows, named as the host names them.
enum ModelEvent: String, CaseIterable, Sendable {
    case willFinishLaunching
    case setup
    case initialize
    case warmUp
    case didFinishLaunching
    case willEnterForeground
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willTerminate
    case didReceiveMemoryWarning
    case openURL
    case ping = "ModelPing"
    case note = "ModelNote"

    /// The event's position in `allCases`, for bit sets and keys.
    var ordinal: Int {
        switch self {
        case .willFinishLaunching: return 0
        case .setup: return 1
        case .initialize: return 2
        case .warmUp: return 3
        case .didFinishLaunching: return 4
        case .willEnterForeground: return 5
        case .didBecomeActive: return 6
        case .willResignActive: return 7
        case .didEnterBackground: return 8
        case .willTerminate: return 9
        case .didReceiveMemoryWarning: return 10
        case .openURL: return 11
        case .ping: return 12
        case .note: return 13
        }
    }

    /// Reverse events go to modules lowest priority first, then the delegate.
    var isReverse: Bool { self == .willResignActive || self == .didEnterBackground || self == .willTerminate }

    /// Events whose hooks answer a Bool.
    var hasBoolResult: Bool {
        self == .willFinishLaunching || self == .didFinishLaunching || self == .openURL || self == .ping
    }

    /// The events launch delivers before `didBecomeActive`, in order; their failures count against the launch
    /// failure policy.
    static let launchSequence: [ModelEvent] = [.willFinishLaunching, .setup, .initialize, .warmUp, .didFinishLaunching]
}

/// A module's own launch failure policy.
enum ModelPolicy: Sendable {
    case abort
    case isolate
}

/// The key of one participant's hook for one event, in scripts: failures and answers.
enum ModelKey {
    static func of(_ participant: Int, _ event: ModelEvent) -> Int { participant << 4 | event.ordinal }
    static func participant(_ key: Int) -> Int { key >> 4 }
    static func event(_ key: Int) -> ModelEvent { ModelEvent.allCases[key & 15] }
    static func name(_ key: Int) -> String { "\(ModelPool.name(participant(key))).\(event(key).rawValue)" }
}

/// One participant type as the model sees it. A class, so the model's arrays copy references.
final class ModelSpec: Sendable, CustomStringConvertible {
    /// The position in `ModelPool.modules`, or `ModelPool.delegateIndex`.
    let index: Int
    let name: String
    /// `nil` for the delegate.
    let priority: Int?
    /// Pool indices.
    let dependencies: [Int]
    let events: Set<ModelEvent>
    let policy: ModelPolicy?
    let initThrows: Bool
    /// Enabled only when the launch profile is `ModelPool.profile`.
    let gated: Bool
    private let eventMask: Int

    init(
        _ index: Int,
        _ name: String,
        priority: Int?,
        dependencies: [Int] = [],
        events: Set<ModelEvent>,
        policy: ModelPolicy? = nil,
        initThrows: Bool = false,
        gated: Bool = false
    ) {
        self.index = index
        self.name = name
        self.priority = priority
        self.dependencies = dependencies
        self.events = events
        self.policy = policy
        self.initThrows = initThrows
        self.gated = gated
        self.eventMask = events.reduce(0) { $0 | 1 << $1.ordinal }
    }

    func handles(_ event: ModelEvent) -> Bool { eventMask & 1 << event.ordinal != 0 }
    var description: String { name }
}

/// The participant types of the model-based tests (the types are in ModelFixtures.swift).
enum ModelPool {
    static let delegateIndex = 15
    /// The launch profile that enables the gated modules.
    static let profile = "full"

    static let delegate = ModelSpec(
        delegateIndex,
        "Delegate",
        priority: nil,
        events: [
            .willFinishLaunching, .didFinishLaunching, .willEnterForeground, .didBecomeActive, .willResignActive,
            .didEnterBackground, .willTerminate, .didReceiveMemoryWarning, .openURL, .ping,
        ]
    )

    static let modules: [ModelSpec] = [
        ModelSpec(0, "Alpha", priority: 10_000, events: Set(ModelEvent.allCases).subtracting([.note])),
        ModelSpec(
            1,
            "Bravo",
            priority: 5_000,
            events: [
                .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
                .willTerminate, .openURL, .note,
            ]
        ),
        ModelSpec(
            2,
            "Charlie",
            priority: 5_000,
            events: [.setup, .warmUp, .didReceiveMemoryWarning, .willEnterForeground, .willTerminate, .ping, .note]
        ),
        ModelSpec(
            3,
            "Delta",
            priority: 100_000,
            dependencies: [1],
            events: [
                .initialize, .warmUp, .didFinishLaunching, .didBecomeActive, .willResignActive, .openURL,
                .didReceiveMemoryWarning,
            ],
            policy: .isolate
        ),
        ModelSpec(
            4,
            "Echo",
            priority: 1_000,
            dependencies: [3, 2],
            events: [
                .willFinishLaunching, .setup, .initialize, .warmUp, .didFinishLaunching, .willEnterForeground,
                .didBecomeActive, .willResignActive, .didEnterBackground, .willTerminate, .ping,
            ],
            policy: .abort
        ),
        ModelSpec(5, "Foxtrot", priority: 5_000, events: []),
        ModelSpec(
            6,
            "Golf",
            priority: 10_000,
            events: [.willResignActive, .didEnterBackground, .willTerminate, .didReceiveMemoryWarning, .openURL]
        ),
        ModelSpec(7, "Hotel", priority: 5_000, events: [], initThrows: true),
        ModelSpec(
            8,
            "India",
            priority: 7_500,
            events: [.didBecomeActive, .willResignActive, .didReceiveMemoryWarning, .openURL, .note],
            gated: true
        ),
        ModelSpec(
            9,
            "Juliet",
            priority: 7_500,
            dependencies: [8],
            events: [.setup, .warmUp, .didFinishLaunching, .willTerminate, .ping]
        ),
    ]

    /// The spec of a participant index.
    static func spec(_ index: Int) -> ModelSpec { index == delegateIndex ? delegate : modules[index] }
    static func name(_ index: Int) -> String { spec(index).name }
}

/// A host operation of a generated sequence.
enum ModelOp: Sendable, Equatable, CustomStringConvertible {
    case launch
    case enterForeground
    case enterBackground
    case resignActive
    case becomeActive
    case memoryWarning
    case openURL
    case ping
    case note
    case terminate
    /// Registers `ModelPool.modules[index]`.
    case register(Int)
    /// Removes `ModelPool.modules[index]`.
    case remove(Int)

    var description: String {
        switch self {
        case .launch: return "launch"
        case .enterForeground: return "enterForeground"
        case .enterBackground: return "enterBackground"
        case .resignActive: return "resignActive"
        case .becomeActive: return "becomeActive"
        case .memoryWarning: return "receiveMemoryWarning"
        case .openURL: return "open(url)"
        case .ping: return "send(ModelPing)"
        case .note: return "send(ModelNote)"
        case .terminate: return "terminate"
        case .register(let index): return "register(\(ModelPool.modules[index].name))"
        case .remove(let index): return "remove(\(ModelPool.modules[index].name))"
        }
    }
}

/// One hook call the model predicts.
struct ModelDelivery: Sendable, Equatable, CustomStringConvertible {
    let event: ModelEvent
    /// A participant index.
    let participant: Int
    /// The host state the hook reads.
    let state: ApplicationState
    /// The hook's answer, for Bool events whose hook did not throw.
    let answer: Bool?
    let threw: Bool

    var description: String {
        var text = "\(event.rawValue) \(ModelPool.name(participant)) [\(state)]"
        if let answer { text += " → \(answer)" }
        if threw { text += " threw" }
        return text
    }
}

/// What a request returned when it succeeded.
enum ModelValue: Sendable, Equatable, CustomStringConvertible {
    case none
    case launch(willFinishLaunching: Bool, didFinishLaunching: Bool)
    case bool(Bool)
    case participant(String)

    var description: String {
        switch self {
        case .none: return "()"
        case .launch(let will, let did): return "LaunchResult(willFinishLaunching: \(will), didFinishLaunching: \(did))"
        case .bool(let value): return "\(value)"
        case .participant(let name): return "participant \(name)"
        }
    }
}

/// The parts of an error the model predicts.
struct ModelErrorSummary: Sendable, Equatable, CustomStringConvertible {
    /// `LifecycleError.Code` (or, for building the host, `ManifestError.Code`), by name.
    var code: String
    /// For `registrationFailed`/`removalFailed` refusals: the `ManifestError` code of `underlyingError`.
    var manifestCode: String?
    /// The `ManifestError`'s `modules`, by short name.
    var manifestModules: [String] = []
    /// `failures`, as "Participant.event", in order.
    var failures: [String] = []
    /// `result`, for hookFailed on open-URL and Bool custom events.
    var result: Bool?
    /// `launchResult`, for hookFailed on launch.
    var launchResult: [Bool]?
    /// `rolledBack`, for launchAborted.
    var rolledBack: [String] = []
    /// The error's `state`.
    var state: ApplicationState?

    var description: String {
        var parts = [code]
        if let manifestCode { parts.append("underlying \(manifestCode) \(manifestModules)") }
        if !failures.isEmpty { parts.append("failures \(failures)") }
        if let result { parts.append("result \(result)") }
        if let launchResult { parts.append("launchResult \(launchResult)") }
        if !rolledBack.isEmpty { parts.append("rolledBack \(rolledBack)") }
        if let state { parts.append("state \(state)") }
        return parts.joined(separator: ", ")
    }
}

/// What the model predicts for one request.
struct ModelOutcome: Sendable {
    var deliveries: [ModelDelivery] = []
    var value: ModelValue = .none
    var error: ModelErrorSummary?
    /// Errors reported to `onUnobservedError`: those of a warm-up that runs after launch.
    var unobserved: [ModelErrorSummary] = []
}

/// The reference model of one host.
struct ModelReference {
    let delegate: ModelSpec?
    let hostAborts: Bool
    /// `Configuration.didFinishLaunchingWaitsForWarmUp`.
    let waitsForWarmUp: Bool
    /// Whether the launch profile enables the gated modules.
    let profileEnabled: Bool
    /// Keys (`ModelKey`) of the hooks that throw.
    let failing: Set<Int>
    /// Keys of the Bool hooks that answer `true`; the others answer `false`.
    let answers: Set<Int>
    /// Modules in the order they joined: the manifest, then registrations appended; removals take them out.
    private(set) var joined: [ModelSpec] {
        didSet { modules = Self.deliveryOrder(joined) }
    }
    /// The modules in delivery order.
    private(set) var modules: [ModelSpec]
    private(set) var state: ApplicationState = .notRunning
    /// After launch: `true` if it completed (everyone is ready for good), `false` if it aborted.
    private(set) var launched: Bool?
    /// The manifest's modules the profile disables, in manifest order.
    let disabled: [ModelSpec]

    /// A host built from `manifest`, which `buildError` accepts.
    init(
        manifest: [ModelSpec],
        delegate: ModelSpec?,
        hostAborts: Bool,
        waitsForWarmUp: Bool = true,
        profileEnabled: Bool = true,
        failing: Set<Int>,
        answers: Set<Int>
    ) {
        let enabled = manifest.filter { !$0.gated || profileEnabled }
        self.joined = enabled
        self.modules = Self.deliveryOrder(enabled)
        self.disabled = manifest.filter { $0.gated && !profileEnabled }
        self.delegate = delegate
        self.hostAborts = hostAborts
        self.waitsForWarmUp = waitsForWarmUp
        self.profileEnabled = profileEnabled
        self.failing = failing
        self.answers = answers
    }

    // MARK: Building

    /// The `ManifestError` building a host over `manifest` throws, or `nil`. The whole manifest first: not
    /// empty, no type twice, every dependency listed (all priorities are valid and the pool has no cycle).
    /// Then the modules the profile enables: none may depend on a disabled one. Then every initializer.
    static func buildError(_ manifest: [ModelSpec], profileEnabled: Bool = true) -> ModelErrorSummary? {
        guard !manifest.isEmpty else { return ModelErrorSummary(code: "emptyManifest") }
        var listed = 0
        var duplicates: [String] = []
        for spec in manifest {
            if listed & 1 << spec.index != 0 { duplicates.append(spec.name) }
            listed |= 1 << spec.index
        }
        guard duplicates.isEmpty else { return ModelErrorSummary(code: "duplicateModule", manifestModules: duplicates) }
        var missing: [String] = []
        for spec in manifest {
            for dependency in spec.dependencies where listed & 1 << dependency == 0 { missing.append(spec.name) }
        }
        guard missing.isEmpty else { return ModelErrorSummary(code: "missingDependency", manifestModules: missing) }
        let enabled = manifest.filter { !$0.gated || profileEnabled }
        let enabledMask = enabled.reduce(0) { $0 | 1 << $1.index }
        for spec in enabled {
            for dependency in spec.dependencies where enabledMask & 1 << dependency == 0 { missing.append(spec.name) }
        }
        guard missing.isEmpty else { return ModelErrorSummary(code: "missingDependency", manifestModules: missing) }
        let throwing = deliveryOrder(enabled).filter { $0.initThrows }.map { $0.name }
        guard throwing.isEmpty else {
            return ModelErrorSummary(code: "moduleInitializationFailed", manifestModules: throwing)
        }
        return nil
    }

    // MARK: Order

    /// Kahn's rule: repeatedly place, among the modules whose dependencies are all placed, the highest
    /// priority, then the earliest joined.
    static func deliveryOrder(_ joined: [ModelSpec]) -> [ModelSpec] {
        var left = joined
        var placed: [ModelSpec] = []
        placed.reserveCapacity(joined.count)
        var placedMask = 0
        while !left.isEmpty {
            var best: Int?
            for (position, spec) in left.enumerated()
            where spec.dependencies.allSatisfy({ placedMask & 1 << $0 != 0 }) {
                if let current = best, (left[current].priority ?? 0) >= (spec.priority ?? 0) { continue }
                best = position
            }
            guard let best else { preconditionFailure("the model pool has no dependency cycle") }
            let spec = left.remove(at: best)
            placed.append(spec)
            placedMask |= 1 << spec.index
        }
        return placed
    }

    /// Pool indices of the modules present, as a bit set.
    var joinedMask: Int { joined.reduce(0) { $0 | 1 << $1.index } }

    /// Every participant in forward order: the delegate, then modules by dependency, priority, join order.
    var participants: [ModelSpec] { delegate.map { [$0] + modules } ?? modules }

    /// The implementers of `event`, in its direction.
    func plan(_ event: ModelEvent) -> [ModelSpec] {
        let forward = participants.filter { $0.handles(event) }
        return event.isReverse ? forward.reversed() : forward
    }

    /// The custom events at least one participant handles, in the order their first handler appears.
    var customEvents: [ModelEvent] {
        var events: [ModelEvent] = []
        for spec in participants {
            for event in [ModelEvent.ping, .note] where spec.handles(event) && !events.contains(event) {
                events.append(event)
            }
        }
        return events
    }

    /// For each warm-up implementer, the warm-up implementers it waits for: every one reachable through
    /// its dependencies, directly or through modules without a warm-up.
    var warmUpPrerequisites: [Int: Set<Int>] {
        let present = joinedMask
        var result: [Int: Set<Int>] = [:]
        for spec in joined where spec.handles(.warmUp) {
            var found: Set<Int> = []
            var seen = 0
            var stack = spec.dependencies
            while let next = stack.popLast() {
                guard seen & 1 << next == 0, present & 1 << next != 0 else { continue }
                seen |= 1 << next
                let dependency = ModelPool.modules[next]
                if dependency.handles(.warmUp) { found.insert(next) }
                stack += dependency.dependencies
            }
            result[spec.index] = found
        }
        return result
    }

    /// Whether a launch failure of `spec` aborts: its own policy, else the host's.
    func aborts(_ spec: ModelSpec) -> Bool { spec.policy.map { $0 == .abort } ?? hostAborts }

    // MARK: Delivering

    private struct Pass {
        var deliveries: [ModelDelivery] = []
        var failures: [String] = []
        var answers: [Bool] = []
        var stoppedBy: ModelSpec?
    }

    /// Delivers `event` to `recipients` in order while the host reads `state`; stops after a failure of a
    /// participant in `stoppers` (a bit set of participant indices).
    private func pass(
        _ event: ModelEvent,
        to recipients: [ModelSpec],
        in state: ApplicationState,
        stoppers: Int = 0
    ) -> Pass {
        var pass = Pass()
        for spec in recipients {
            let key = ModelKey.of(spec.index, event)
            let threw = failing.contains(key)
            let answer = event.hasBoolResult && !threw ? answers.contains(key) : nil
            pass.deliveries.append(
                ModelDelivery(event: event, participant: spec.index, state: state, answer: answer, threw: threw)
            )
            if let answer { pass.answers.append(answer) }
            if threw {
                pass.failures.append(ModelKey.name(key))
                if stoppers & 1 << spec.index != 0 {
                    pass.stoppedBy = spec
                    break
                }
            }
        }
        return pass
    }

    /// OR of the answers; `unanswered` when nobody answered.
    private func combined(_ answers: [Bool], unanswered: Bool) -> Bool {
        answers.isEmpty ? unanswered : answers.contains(true)
    }

    private func invalid() -> ModelOutcome {
        ModelOutcome(error: ModelErrorSummary(code: "invalidTransition", state: state))
    }

    /// `value` if nothing threw, else `hookFailed` listing `failures`.
    private func finish(
        _ deliveries: [ModelDelivery],
        _ failures: [String],
        value: ModelValue,
        result: Bool? = nil,
        launchResult: [Bool]? = nil
    ) -> ModelOutcome {
        guard !failures.isEmpty else { return ModelOutcome(deliveries: deliveries, value: value) }
        let error = ModelErrorSummary(
            code: "hookFailed",
            failures: failures,
            result: result,
            launchResult: launchResult,
            state: state
        )
        return ModelOutcome(deliveries: deliveries, error: error)
    }

    /// Whether the host is launched and not terminating.
    var isRunning: Bool { state == .active || state == .inactive || state == .background }

    /// The model's transition rules: what `op` delivers in `state` (each event with the state the host is
    /// in meanwhile) and where it ends, or `nil` when `state` does not allow it. Registration's catch-up
    /// and removal's teardown go to one module only; a launch that aborts rolls back instead of ending.
    static func rule(
        for op: ModelOp,
        in state: ApplicationState
    ) -> (steps: [(ModelEvent, ApplicationState)], final: ApplicationState)? {
        let running = state == .active || state == .inactive || state == .background
        switch op {
        case .launch:
            guard state == .notRunning else { return nil }
            return (ModelEvent.launchSequence.map { ($0, .launching) } + [(.didBecomeActive, .active)], .active)
        case .enterForeground:
            guard state == .background else { return nil }
            return ([(.willEnterForeground, .background), (.didBecomeActive, .active)], .active)
        case .enterBackground:
            switch state {
            case .active: return ([(.willResignActive, .active), (.didEnterBackground, .background)], .background)
            case .inactive: return ([(.didEnterBackground, .background)], .background)
            default: return nil
            }
        case .resignActive:
            guard state == .active else { return nil }
            return ([(.willResignActive, .active)], .inactive)
        case .becomeActive:
            guard state == .inactive else { return nil }
            return ([(.didBecomeActive, .active)], .active)
        case .terminate:
            guard running else { return nil }
            return ([(.willTerminate, .terminating)], .terminated)
        case .memoryWarning, .openURL, .ping, .note:
            guard running else { return nil }
            let event: ModelEvent
            switch op {
            case .openURL: event = .openURL
            case .ping: event = .ping
            case .note: event = .note
            default: event = .didReceiveMemoryWarning
            }
            return ([(event, state)], state)
        case .register:
            guard state == .notRunning || running else { return nil }
            var steps = running ? ModelEvent.launchSequence : []
            if state == .active { steps.append(.didBecomeActive) }
            if state == .background { steps.append(.didEnterBackground) }
            return (steps.map { ($0, state) }, state)
        case .remove:
            let steps: [ModelEvent]
            switch state {
            case .notRunning: steps = []
            case .active: steps = [.willResignActive, .didEnterBackground, .willTerminate]
            case .inactive: steps = [.didEnterBackground, .willTerminate]
            case .background: steps = [.willTerminate]
            default: return nil
            }
            return (steps.map { ($0, state) }, state)
        }
    }

    /// Applies `op` and returns what the host must deliver, return and throw.
    mutating func apply(_ op: ModelOp) -> ModelOutcome {
        switch op {
        case .launch:
            return launch()
        case .enterForeground, .enterBackground, .resignActive, .becomeActive, .terminate, .memoryWarning:
            guard let rule = Self.rule(for: op, in: state) else { return invalid() }
            return transition(rule.steps, to: rule.final)
        case .openURL, .ping:
            guard Self.rule(for: op, in: state) != nil else { return invalid() }
            let event: ModelEvent = op == .openURL ? .openURL : .ping
            let delivered = pass(event, to: plan(event), in: state)
            let result = combined(delivered.answers, unanswered: false)
            return finish(delivered.deliveries, delivered.failures, value: .bool(result), result: result)
        case .note:
            guard Self.rule(for: op, in: state) != nil else { return invalid() }
            let delivered = pass(.note, to: plan(.note), in: state)
            return finish(delivered.deliveries, delivered.failures, value: .none)
        case .register(let index):
            return register(ModelPool.modules[index])
        case .remove(let index):
            return remove(ModelPool.modules[index])
        }
    }

    /// Delivers each step's event to every implementer, in the state the step names, then ends in `final`.
    private mutating func transition(
        _ steps: [(ModelEvent, ApplicationState)],
        to final: ApplicationState
    ) -> ModelOutcome {
        var deliveries: [ModelDelivery] = []
        var failures: [String] = []
        for (event, stepState) in steps {
            let delivered = pass(event, to: plan(event), in: stepState)
            deliveries += delivered.deliveries
            failures += delivered.failures
        }
        state = final
        return finish(deliveries, failures, value: .none)
    }

    private mutating func launch() -> ModelOutcome {
        guard Self.rule(for: .launch, in: state) != nil else { return invalid() }
        let everyone = participants
        let aborters = everyone.filter { aborts($0) }.reduce(0) { $0 | 1 << $1.index }
        var deliveries: [ModelDelivery] = []
        var failures: [String] = []
        var results: [Bool] = []
        for (position, event) in ModelEvent.launchSequence.enumerated() {
            if event == .warmUp && !waitsForWarmUp { continue }
            // Warm-up is concurrent and never stops early here: the generator scripts no warm-up failure for
            // a participant whose failure would abort (which hooks run before the stop would be a race).
            let delivered = pass(event, to: plan(event), in: .launching, stoppers: event == .warmUp ? 0 : aborters)
            deliveries += delivered.deliveries
            failures += delivered.failures
            if event.hasBoolResult { results.append(combined(delivered.answers, unanswered: true)) }
            if let failed = delivered.stoppedBy {
                // Rollback: everyone launch had reached, except the failing participant, in reverse order.
                let reached =
                    position == 0
                    ? Array(everyone.prefix { $0 !== failed }) : everyone.filter { $0 !== failed }
                let rollback = plan(.willTerminate).filter { spec in reached.contains { $0 === spec } }
                let terminated = pass(.willTerminate, to: rollback, in: .terminating)
                state = .terminated
                launched = false
                let error = ModelErrorSummary(
                    code: "launchAborted",
                    failures: failures + terminated.failures,
                    rolledBack: rollback.map { $0.name },
                    state: state
                )
                return ModelOutcome(deliveries: deliveries + terminated.deliveries, error: error)
            }
        }
        let active = pass(.didBecomeActive, to: plan(.didBecomeActive), in: .active)
        state = .active
        launched = true
        var outcome = finish(
            deliveries + active.deliveries,
            failures + active.failures,
            value: .launch(willFinishLaunching: results[0], didFinishLaunching: results[1]),
            launchResult: results
        )
        if !waitsForWarmUp {
            // Warm-up after launch returned, while active; its failures go to onUnobservedError.
            let warmUp = pass(.warmUp, to: plan(.warmUp), in: .active)
            outcome.deliveries += warmUp.deliveries
            if !warmUp.failures.isEmpty {
                outcome.unobserved = [ModelErrorSummary(code: "hookFailed", failures: warmUp.failures, state: state)]
            }
        }
        return outcome
    }

    /// What `waitUntilReady(module)` does now (`nil` for the whole host): `true` returns, `false` throws
    /// `notReady`, `nil` waits (for a launch that has not happened).
    func readiness(of module: ModelSpec?) -> Bool? {
        if let module, !joined.contains(where: { $0 === module }) { return false }
        return launched
    }

    private mutating func register(_ spec: ModelSpec) -> ModelOutcome {
        guard let rule = Self.rule(for: .register(spec.index), in: state) else { return invalid() }
        func refused(_ code: String) -> ModelOutcome {
            ModelOutcome(
                error: ModelErrorSummary(
                    code: "registrationFailed",
                    manifestCode: code,
                    manifestModules: [spec.name],
                    state: state
                )
            )
        }
        let present = joinedMask
        if present & 1 << spec.index != 0 { return refused("duplicateModule") }
        if spec.gated && !profileEnabled { return refused("moduleDisabled") }
        if !spec.dependencies.allSatisfy({ present & 1 << $0 != 0 }) { return refused("missingDependency") }
        if spec.initThrows { return refused("moduleInitializationFailed") }
        joined.append(spec)
        guard state != .notRunning else { return ModelOutcome(value: .participant(spec.name)) }

        // Catch-up: the new module alone, in the host's current state.
        let steps = rule.steps.map { $0.0 }
        var deliveries: [ModelDelivery] = []
        var failures: [String] = []
        for event in steps {
            let delivered = pass(event, to: spec.handles(event) ? [spec] : [], in: state)
            deliveries += delivered.deliveries
            failures += delivered.failures
            if aborts(spec), !delivered.failures.isEmpty, ModelEvent.launchSequence.contains(event) {
                joined.removeLast()
                let error = ModelErrorSummary(code: "registrationFailed", failures: failures, state: state)
                return ModelOutcome(deliveries: deliveries, error: error)
            }
        }
        return finish(deliveries, failures, value: .participant(spec.name))
    }

    private mutating func remove(_ spec: ModelSpec) -> ModelOutcome {
        guard let rule = Self.rule(for: .remove(spec.index), in: state) else { return invalid() }
        guard let position = joined.firstIndex(where: { $0 === spec }) else {
            let error = ModelErrorSummary(
                code: "removalFailed",
                manifestCode: "notAParticipant",
                manifestModules: [spec.name],
                state: state
            )
            return ModelOutcome(error: error)
        }
        let dependents = modules.filter { $0.dependencies.contains(spec.index) }.map { $0.name }
        guard dependents.isEmpty else {
            let error = ModelErrorSummary(
                code: "removalFailed",
                manifestCode: "requiredByOthers",
                manifestModules: [spec.name] + dependents,
                state: state
            )
            return ModelOutcome(error: error)
        }
        // Teardown: the module alone, in the host's current state.
        let steps = rule.steps.map { $0.0 }
        var deliveries: [ModelDelivery] = []
        var failures: [String] = []
        for event in steps {
            let delivered = pass(event, to: spec.handles(event) ? [spec] : [], in: state)
            deliveries += delivered.deliveries
            failures += delivered.failures
        }
        joined.remove(at: position)
        return finish(deliveries, failures, value: .none)
    }
}
