import Foundation
import LifecycleCore
import LifecycleProxy
import Synchronization

/// How a scenario's host supervises its hooks, and whether delivery is observed.
enum ModelSupervision: String, Sendable {
    /// No budget, no deadline, `onDelivery` observing: the inline loop, with records.
    case inline
    /// No budget, no deadline, no observer, no journal: the fast loop (hooks still log themselves).
    case fastPath
    /// The default budgets and terminate deadline, the default journal, and `onDelivery`.
    case budgets
}

/// One generated test case: a host and the operations to run on it.
struct ModelScenario: Sendable, CustomStringConvertible {
    var seed: UInt64
    /// Indices into `ModelPool.modules`, in manifest order; may be empty, repeat a type, or miss a dependency.
    var manifest: [Int]
    var hasDelegate: Bool
    var hostAborts: Bool
    /// `Configuration.didFinishLaunchingWaitsForWarmUp`.
    var waitsForWarmUp: Bool
    /// Whether the launch profile enables the gated module (India).
    var profileEnabled: Bool
    var supervision: ModelSupervision
    /// `ModelKey`s of the hooks that throw, sorted.
    var failing: [Int]
    /// `ModelKey`s of the Bool hooks that answer `true`, sorted.
    var answers: [Int]
    var ops: [ModelOp]

    /// Pool indices of the modules that may appear in a manifest (Hotel's initializer always throws).
    static let regularModules = [0, 1, 2, 3, 4, 5, 6, 8, 9]
    static let hotel = 7
    static let juliet = 9

    /// The scenario of `seed`: the same seed always gives the same scenario.
    static func generate(seed: UInt64) -> ModelScenario {
        var random = ModelRandom(seed: seed)
        let hasDelegate = random.chance(0.5)
        let hostAborts = random.chance(0.25)
        let supervisionRoll = random.below(100)
        let supervision: ModelSupervision =
            supervisionRoll < 10 ? .budgets : supervisionRoll < 25 ? .fastPath : .inline
        let waitsForWarmUp = !random.chance(0.15)
        let profileEnabled = random.chance(0.7)

        // The manifest: mostly valid (a subset closed over dependencies, shuffled so ties vary); sometimes
        // empty, with a duplicate, with the module whose initializer throws, or missing a dependency.
        let shape = random.below(100)
        var manifest: [Int] = []
        if shape >= 3 {
            manifest = regularModules.filter { _ in random.chance(0.5) }
            if shape < 10 || shape >= 20 { manifest = closedOverDependencies(manifest) }
            // Without the profile, a dependent of the gated module is a missingDependency error: keep a few.
            if shape >= 20, !profileEnabled, random.chance(0.8) { manifest.removeAll { $0 == juliet } }
            manifest = random.shuffle(manifest)
            if shape < 7, !manifest.isEmpty {
                manifest.insert(random.pick(manifest), at: random.below(manifest.count + 1))
            } else if shape < 10 {
                manifest.insert(hotel, at: random.below(manifest.count + 1))
            }
        }

        // Scripted failures, in any hook a participant of this host may ever have. A warm-up failure that
        // would abort launch is left out: which concurrent warm-ups run before the stop is a race.
        var failing: Set<Int> = []
        let participants = (hasDelegate ? [ModelPool.delegate] : []) + regularModules.map { ModelPool.modules[$0] }
        if random.chance(0.4) {
            var candidates: [Int] = []
            for spec in participants {
                let aborts = spec.policy.map { $0 == .abort } ?? hostAborts
                for event in ModelEvent.allCases where spec.handles(event) && !(event == .warmUp && aborts) {
                    candidates.append(ModelKey.of(spec.index, event))
                }
            }
            for _ in 0..<random.int(in: 1...3) { failing.insert(random.pick(candidates)) }
        }
        var answers: Set<Int> = []
        for spec in participants {
            for event in ModelEvent.allCases where event.hasBoolResult && spec.handles(event) && random.chance(0.3) {
                answers.insert(ModelKey.of(spec.index, event))
            }
        }

        // Operations. Four in ten are drawn uniformly from every kind, so many are invalid in the state they
        // meet; the others uniformly from those the model says are allowed now, so sequences get deep enough
        // to reach every state, catch-up and teardown.
        var ops: [ModelOp] = []
        let specs = manifest.map { ModelPool.modules[$0] }
        var model: ModelReference? =
            ModelReference.buildError(specs, profileEnabled: profileEnabled) == nil
            ? ModelReference(
                manifest: specs,
                delegate: hasDelegate ? ModelPool.delegate : nil,
                hostAborts: hostAborts,
                waitsForWarmUp: waitsForWarmUp,
                profileEnabled: profileEnabled,
                failing: failing,
                answers: answers
            ) : nil
        var afterTermination = 0
        for _ in 0..<random.int(in: 1...40) {
            // A terminated host refuses everything: two refusals are enough.
            if model?.state == .terminated {
                afterTermination += 1
                if afterTermination > 2 { break }
            }
            let allowed = model.map { allowedOps($0) } ?? []
            let op = allowed.isEmpty || random.chance(0.4) ? anyOp(&random) : random.pick(random.pick(allowed))
            ops.append(op)
            _ = model?.apply(op)
        }
        return ModelScenario(
            seed: seed,
            manifest: manifest,
            hasDelegate: hasDelegate,
            hostAborts: hostAborts,
            waitsForWarmUp: waitsForWarmUp,
            profileEnabled: profileEnabled,
            supervision: supervision,
            failing: failing.sorted(),
            answers: answers.sorted(),
            ops: ops
        )
    }

    /// Any operation, each kind equally likely.
    static func anyOp(_ random: inout ModelRandom) -> ModelOp {
        switch random.below(12) {
        case 0: return .launch
        case 1: return .enterForeground
        case 2: return .enterBackground
        case 3: return .resignActive
        case 4: return .becomeActive
        case 5: return .memoryWarning
        case 6: return .openURL
        case 7: return .ping
        case 8: return .note
        case 9: return .terminate
        case 10: return .register(random.below(ModelPool.modules.count))
        default: return .remove(random.below(ModelPool.modules.count))
        }
    }

    /// The operations `model` accepts in its current state, by kind: each allowed transition or event alone,
    /// then the registrations that would be accepted, then the removals that would be.
    static func allowedOps(_ model: ModelReference) -> [[ModelOp]] {
        var kinds: [[ModelOp]]
        switch model.state {
        case .notRunning: kinds = [[.launch]]
        case .active: kinds = [[.enterBackground], [.resignActive], [.terminate]]
        case .inactive: kinds = [[.becomeActive], [.enterBackground], [.terminate]]
        case .background: kinds = [[.enterForeground], [.terminate]]
        default: return []
        }
        if model.state != .notRunning { kinds += [[.memoryWarning], [.openURL], [.ping], [.note]] }
        let present = model.joinedMask
        var registrations: [ModelOp] = []
        var removals: [ModelOp] = []
        for spec in ModelPool.modules {
            if present & 1 << spec.index != 0 {
                if !model.joined.contains(where: { $0.dependencies.contains(spec.index) }) {
                    removals.append(.remove(spec.index))
                }
            } else if !spec.initThrows, !spec.gated || model.profileEnabled,
                spec.dependencies.allSatisfy({ present & 1 << $0 != 0 })
            {
                registrations.append(.register(spec.index))
            }
        }
        return kinds + [registrations, removals].filter { !$0.isEmpty }
    }

    /// `indices` plus every module they depend on, directly or not.
    static func closedOverDependencies(_ indices: [Int]) -> [Int] {
        var result = indices
        var index = 0
        while index < result.count {
            for dependency in ModelPool.modules[result[index]].dependencies where !result.contains(dependency) {
                result.append(dependency)
            }
            index += 1
        }
        return result
    }

    var description: String {
        let names = manifest.map { ModelPool.modules[$0].name }
        return "manifest \(names), delegate \(hasDelegate ? "yes" : "no"), "
            + "launchFailurePolicy \(hostAborts ? ".abort" : ".continue"), supervision \(supervision.rawValue), "
            + "didFinishLaunchingWaitsForWarmUp \(waitsForWarmUp), profile \(profileEnabled ? ModelPool.profile : "none"), "
            + "failing \(failing.map { ModelKey.name($0) }), answering true \(answers.map { ModelKey.name($0) })\n"
            + "ops (\(ops.count)): \(ops.isEmpty ? "none" : ops.map { $0.description }.joined(separator: ", "))"
    }
}

/// One delivery as `onDelivery` reported it.
struct ModelRecordEntry: Sendable, Equatable, CustomStringConvertible {
    /// The host's event name.
    let event: String
    /// A participant index, or -1 for a participant the model does not know.
    let participant: Int
    let result: Bool?
    let threw: Bool

    var description: String {
        var text = "\(event) \(participant < 0 ? "unknown" : ModelPool.name(participant))"
        if let result { text += " → \(result)" }
        if threw { text += " threw" }
        return text
    }
}

/// What `onDelivery` and `onUnobservedError` reported.
final class ModelObserver: Sendable {
    private let records = Locked<[ModelRecordEntry]>([])
    private let unobserved = Locked<[ModelErrorSummary]>([])

    func record(_ record: DeliveryRecord) {
        let entry = ModelRecordEntry(
            event: record.event.name,
            participant: ModelPool.index(record.participant.name),
            result: record.result,
            threw: record.error != nil
        )
        records.withLock { $0.append(entry) }
    }

    func unobserved(_ error: LifecycleError) { unobserved.withLock { $0.append(ModelRunner.summary(error)) } }

    var count: Int { records.withLock { $0.count } }
    func entries(from start: Int = 0) -> [ModelRecordEntry] { records.withLock { Array($0[start...]) } }
    var unobservedErrors: [ModelErrorSummary] { unobserved.withLock { $0 } }

    /// The errors reported from `start` on, once there are at least `count` of them (or after 5 s).
    func unobservedErrors(from start: Int, atLeast count: Int) async -> [ModelErrorSummary] {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while unobserved.withLock({ $0.count }) < start + count, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return unobserved.withLock { Array($0[start...]) }
    }
}

/// Where a run first disagreed with the model.
struct ModelMismatch: Sendable, CustomStringConvertible {
    /// The operation, or `nil` when building the host disagreed, or `ops.count` for the end-of-run checks.
    let opIndex: Int?
    let details: String

    var description: String { details }
}

/// What one run produced.
struct ModelRunResult: Sendable {
    var mismatch: ModelMismatch?
    var operations = 0
    var deliveries = 0
    var errorsChecked = 0
    /// How often each kind of operation met each state, and how it ended: "register in active → hookFailed".
    var coverage: [String: Int] = [:]

    mutating func add(_ other: ModelRunResult) {
        operations += other.operations
        deliveries += other.deliveries
        errorsChecked += other.errorsChecked
        coverage.merge(other.coverage, uniquingKeysWith: +)
    }
}

/// Runs scenarios against a real host and the reference model, side by side.
enum ModelRunner {
    static let url = URL(string: "model://open/path?query=1")!

    /// Deliberate model defects, for checking that the suite notices them.
    enum Mutation: Sendable {
        /// Deliver reverse events in forward order.
        case reverseEventsForward
    }

    /// Runs `scenario` on a new host and on the model, and stops at the first disagreement.
    static func run(_ scenario: ModelScenario, mutation: Mutation? = nil) async -> ModelRunResult {
        var result = ModelRunResult()
        let script = ModelScript(log: ModelHookLog(), failing: Set(scenario.failing), answers: Set(scenario.answers))
        let observer = ModelObserver()

        // Build the host, or check the manifest error the model expects.
        let specs = scenario.manifest.map { ModelPool.modules[$0] }
        let expectedBuild = ModelReference.buildError(specs, profileEnabled: scenario.profileEnabled)
        var options = LaunchOptions(arguments: ["model"])
        options[ModelScriptKey.self] = script
        if scenario.profileEnabled { options[LaunchProfileKey.self] = ModelPool.profile }
        let host: ApplicationHost
        do {
            host = try ApplicationHost(
                manifest: ModuleManifest(name: "Model", scenario.manifest.map { ModelPool.types[$0] }),
                delegate: scenario.hasDelegate ? ModelAppDelegate(script: script) : nil,
                launchOptions: options,
                configuration: configuration(for: scenario, observer)
            )
        } catch let error {
            let actual = ModelErrorSummary(
                code: error.code.description,
                manifestModules: error.modules.map { ModelPool.shortName($0) }
            )
            if actual != expectedBuild || script.log.count > 0 {
                let expected = expectedBuild.map { "\($0)" } ?? "success"
                result.mismatch = ModelMismatch(
                    opIndex: nil,
                    details: "building the host: expected \(expected), got ManifestError \(actual) after "
                        + "\(script.log.count) hook calls"
                )
            } else {
                result.errorsChecked += 1
                result.coverage["build → \(actual.code)", default: 0] += 1
            }
            return result
        }
        if let expectedBuild {
            result.mismatch = ModelMismatch(
                opIndex: nil,
                details: "building the host: expected \(expectedBuild), got a host"
            )
            return result
        }

        var model = ModelReference(
            manifest: specs,
            delegate: scenario.hasDelegate ? ModelPool.delegate : nil,
            hostAborts: scenario.hostAborts,
            waitsForWarmUp: scenario.waitsForWarmUp,
            profileEnabled: scenario.profileEnabled,
            failing: Set(scenario.failing),
            answers: Set(scenario.answers)
        )
        var problems = compareRoster(host, model)
        let disabled = host.disabledModules.map { ModelPool.shortName($0.name) }
        if disabled != model.disabled.map({ $0.name }) {
            problems.append("disabledModules \(disabled), expected \(model.disabled.map { $0.name })")
        }
        if !problems.isEmpty {
            let details = "after building the host: " + problems.joined(separator: "; ")
            result.mismatch = ModelMismatch(opIndex: nil, details: details)
            return result
        }

        let run = Run(scenario: scenario, host: host, script: script, observer: observer, mutation: mutation)
        var expectedUnobserved = 0
        for (index, op) in scenario.ops.enumerated() {
            let problems = await run.step(op, &model, &result, expectedUnobserved: &expectedUnobserved)
            if !problems.isEmpty {
                let details =
                    "op \(index + 1) of \(scenario.ops.count), \(op):\n  " + problems.joined(separator: "\n  ")
                result.mismatch = ModelMismatch(opIndex: index, details: details)
                return result
            }
        }
        problems = await run.finalChecks(model, &result, expectedUnobserved: expectedUnobserved)
        if !problems.isEmpty {
            let details = "after the last op:\n  " + problems.joined(separator: "\n  ")
            result.mismatch = ModelMismatch(opIndex: scenario.ops.count, details: details)
        }
        return result
    }

    /// The host configuration of `scenario`, reporting to `observer`.
    static func configuration(
        for scenario: ModelScenario,
        _ observer: ModelObserver
    ) -> ApplicationHost.Configuration {
        var configuration: ApplicationHost.Configuration
        switch scenario.supervision {
        case .inline:
            configuration = .init(
                hookBudget: nil,
                terminateDeadline: nil,
                onDelivery: { observer.record($0) },
                journalCapacity: 0,
                onUnobservedError: { observer.unobserved($0) }
            )
        case .fastPath:
            configuration = .init(
                hookBudget: nil,
                terminateDeadline: nil,
                journalCapacity: 0,
                onUnobservedError: { observer.unobserved($0) }
            )
        case .budgets:
            configuration = .init(onDelivery: { observer.record($0) }, onUnobservedError: { observer.unobserved($0) })
        }
        configuration.launchFailurePolicy = scenario.hostAborts ? .abort : .continue
        // The reference model has no quarantine: its scripted modules fail on every call, on purpose.
        configuration.quarantine = nil
        configuration.didFinishLaunchingWaitsForWarmUp = scenario.waitsForWarmUp
        return configuration
    }

    /// One scenario's host and what observes it.
    private struct Run {
        let scenario: ModelScenario
        let host: ApplicationHost
        let script: ModelScript
        let observer: ModelObserver
        let mutation: Mutation?

        /// Applies `op` to the model and the host and returns every disagreement.
        func step(
            _ op: ModelOp,
            _ model: inout ModelReference,
            _ result: inout ModelRunResult,
            expectedUnobserved: inout Int
        ) async -> [String] {
            let hookStart = script.log.count
            let recordStart = observer.count
            let unobservedStart = observer.unobservedErrors.count
            let stateBefore = model.state
            let prerequisites = op == .launch ? model.warmUpPrerequisites : [:]
            var expected = model.apply(op)
            if mutation == .reverseEventsForward { expected.deliveries = unreversed(expected.deliveries) }
            let (value, error) = await perform(op, on: host)

            var problems: [String] = []
            if op == .launch, let launched = model.launched {
                // Readiness: for good after a launch, never after an abort. With warm-up after launch, this
                // also waits for that warm-up, so its deliveries count as the launch's.
                let ready = await readiness(host, nil)
                if ready != (launched ? "ready" : "notReady") {
                    problems.append("waitUntilReady() \(ready), expected \(launched ? "ready" : "notReady")")
                }
            }
            // A warm-up after launch reports its failures when it is over, which can be just after readiness
            // was marked: wait for as many as the model expects.
            let unobserved = await observer.unobservedErrors(from: unobservedStart, atLeast: expected.unobserved.count)
            expectedUnobserved += expected.unobserved.count
            if unobserved != expected.unobserved {
                problems.append("onUnobservedError \(unobserved), expected \(expected.unobserved)")
            }

            // Deliveries, as the hooks saw them and as onDelivery reported them.
            let hooks = script.log.calls(from: hookStart)
            result.operations += 1
            result.deliveries += hooks.count
            let expectedHooks = expected.deliveries.map {
                ModelHookCall(event: $0.event, participant: $0.participant, state: $0.state)
            }
            if canonical(hooks, { $0.event == .warmUp }, \.participant)
                != canonical(expectedHooks, { $0.event == .warmUp }, \.participant)
            {
                problems.append("hook calls\n    expected \(expectedHooks)\n    actual   \(hooks)")
            }
            if let late = warmUpOutOfOrder(hooks.map { ($0.event == .warmUp, $0.participant) }, prerequisites) {
                problems.append("hook calls: \(late)")
            }
            if scenario.supervision != .fastPath {
                let warmUp = ModelEvent.warmUp.rawValue
                let records = observer.entries(from: recordStart)
                let expectedRecords = expected.deliveries.map {
                    ModelRecordEntry(
                        event: $0.event.rawValue,
                        participant: $0.participant,
                        result: $0.answer,
                        threw: $0.threw
                    )
                }
                if canonical(records, { $0.event == warmUp }, \.participant)
                    != canonical(expectedRecords, { $0.event == warmUp }, \.participant)
                {
                    problems.append("onDelivery records\n    expected \(expectedRecords)\n    actual   \(records)")
                }
                if let late = warmUpOutOfOrder(records.map { ($0.event == warmUp, $0.participant) }, prerequisites) {
                    problems.append("onDelivery records: \(late)")
                }
            }

            // The result, the error, the state and the participants.
            if value != expected.value {
                problems.append("returned \(value), expected \(expected.value)")
            }
            if error != expected.error {
                let actual = error.map { "\($0)" } ?? "nothing"
                problems.append("threw \(actual), expected \(expected.error.map { "\($0)" } ?? "nothing")")
            }
            problems += compareRoster(host, model)
            guard problems.isEmpty else { return problems }

            if expected.error != nil { result.errorsChecked += 1 }
            let kind = "\(op)".prefix { $0 != "(" }
            let ending = expected.error.map { $0.code + ($0.manifestCode.map { "/" + $0 } ?? "") } ?? "ok"
            result.coverage["\(kind) in \(stateBefore) → \(ending)", default: 0] += 1
            if op == .launch, !scenario.waitsForWarmUp, model.launched == true {
                let background = expected.unobserved.isEmpty ? "ok" : "hookFailed"
                result.coverage["warm-up after launch → \(background)", default: 0] += 1
            }
            return []
        }

        /// After the last operation: every plan, the custom events, the journal, readiness of every module,
        /// every unobserved error accounted for, and nothing degraded.
        func finalChecks(
            _ model: ModelReference,
            _ result: inout ModelRunResult,
            expectedUnobserved: Int
        ) async -> [String] {
            var problems: [String] = []
            for event in ModelEvent.allCases {
                let lifecycleEvent = lifecycleEvent(event)
                let plan = host.plan(for: lifecycleEvent).map { ModelPool.shortName($0.name) }
                let expectedPlan = model.plan(event).map { $0.name }
                if plan != expectedPlan {
                    problems.append("plan(for: \(event.rawValue)) \(plan), expected \(expectedPlan)")
                }
                if host.responds(to: lifecycleEvent) != !expectedPlan.isEmpty {
                    problems.append("responds(to: \(event.rawValue)) disagrees with the plan")
                }
            }
            let customEvents = host.customEvents.map { $0.name }
            if customEvents != model.customEvents.map({ $0.rawValue }) {
                problems.append("customEvents \(customEvents), expected \(model.customEvents.map { $0.rawValue })")
            }
            if let journal = host.journal {
                let entries = journal.entries.map {
                    ModelRecordEntry(
                        event: $0.event,
                        participant: ModelPool.index($0.participant),
                        result: $0.result,
                        threw: $0.error != nil
                    )
                }
                let records = observer.entries()
                if entries.count + journal.droppedCount != records.count
                    || entries != Array(records.suffix(entries.count))
                {
                    problems.append(
                        "the journal disagrees with onDelivery:\n    journal \(entries)\n    records \(records)"
                    )
                }
            }
            if observer.unobservedErrors.count != expectedUnobserved {
                problems.append("onUnobservedError got \(observer.unobservedErrors), expected \(expectedUnobserved)")
            }
            for (type, spec) in zip(ModelPool.types, ModelPool.modules) {
                guard let expected = model.readiness(of: spec) else { continue }
                let ready = await readiness(host, type)
                if ready != (expected ? "ready" : "notReady") {
                    problems.append(
                        "waitUntilReady(\(spec.name)) \(ready), expected \(expected ? "ready" : "notReady")"
                    )
                }
            }
            let degraded = await host.degradedModules
            if !degraded.isEmpty { problems.append("degraded modules without any timeout: \(degraded)") }
            return problems
        }
    }

    /// Runs `op` on `host` and reports what it returned or threw.
    static func perform(_ op: ModelOp, on host: ApplicationHost) async -> (ModelValue, ModelErrorSummary?) {
        do throws(LifecycleError) {
            switch op {
            case .launch:
                let launched = try await host.launch()
                return (
                    .launch(
                        willFinishLaunching: launched.willFinishLaunching,
                        didFinishLaunching: launched.didFinishLaunching
                    ), nil
                )
            case .enterForeground: try await host.enterForeground()
            case .enterBackground: try await host.enterBackground()
            case .resignActive: try await host.resignActive()
            case .becomeActive: try await host.becomeActive()
            case .memoryWarning: try await host.receiveMemoryWarning()
            case .openURL: return (.bool(try await host.open(url)), nil)
            case .ping: return (.bool(try await host.send(ModelPing())), nil)
            case .note: try await host.send(ModelNote())
            case .terminate: try await host.terminate()
            case .register(let index):
                let participant = try await host.register(ModelPool.types[index])
                return (.participant(ModelPool.shortName(participant.name)), nil)
            case .remove(let index): try await host.remove(ModelPool.types[index])
            }
            return (.none, nil)
        } catch {
            return (.none, summary(error))
        }
    }

    /// The parts of `error` the model predicts.
    static func summary(_ error: LifecycleError) -> ModelErrorSummary {
        let manifestError = error.underlyingError as? ManifestError
        let failures = error.failures.map { failure in
            let name = "\(ModelPool.shortName(failure.participant.name)).\(failure.event.name)"
            // The error must be the scripted one, from the hook the failure names.
            if let scripted = failure.error as? ModelHookFailure, ModelKey.name(scripted.key) == name {
                return name
            }
            return "\(name) (\(failure.error))"
        }
        return ModelErrorSummary(
            code: error.code.description,
            manifestCode: manifestError?.code.description,
            manifestModules: manifestError?.modules.map { ModelPool.shortName($0) } ?? [],
            failures: failures,
            result: error.result,
            launchResult: error.launchResult.map { [$0.willFinishLaunching, $0.didFinishLaunching] },
            rolledBack: error.rolledBack.map { ModelPool.shortName($0.name) },
            state: error.state
        )
    }

    /// What `waitUntilReady` did: "ready", or the error code.
    static func readiness(_ host: ApplicationHost, _ module: (any LifecycleModule.Type)?) async -> String {
        do throws(LifecycleError) {
            if let module { try await host.waitUntilReady(module) } else { try await host.waitUntilReady() }
            return "ready"
        } catch {
            return error.code.description
        }
    }

    /// The host's state and participants against the model's.
    static func compareRoster(_ host: ApplicationHost, _ model: ModelReference) -> [String] {
        var problems: [String] = []
        if host.state != model.state { problems.append("state \(host.state), expected \(model.state)") }
        let participants = host.participants.map { ModelPool.index($0.name) }
        let expected = model.participants.map { $0.index }
        if participants != expected {
            let names = host.participants.map { ModelPool.shortName($0.name) }
            problems.append("participants \(names), expected \(model.participants.map { $0.name })")
        }
        return problems
    }

    /// The host's name for a model event.
    static func lifecycleEvent(_ event: ModelEvent) -> LifecycleEvent {
        switch event {
        case .willFinishLaunching: return .willFinishLaunching
        case .setup: return .setup
        case .initialize: return .initialize
        case .warmUp: return .warmUp
        case .didFinishLaunching: return .didFinishLaunching
        case .willEnterForeground: return .willEnterForeground
        case .didBecomeActive: return .didBecomeActive
        case .willResignActive: return .willResignActive
        case .didEnterBackground: return .didEnterBackground
        case .willTerminate: return .willTerminate
        case .didReceiveMemoryWarning: return .didReceiveMemoryWarning
        case .openURL: return .openURL
        case .ping: return LifecycleEvent(custom: ModelPing.self)
        case .note: return LifecycleEvent(custom: ModelNote.self)
        }
    }

    /// `list` with every run of consecutive warm-up entries sorted by participant: warm-up is concurrent, so
    /// only the set of its calls is fixed (`warmUpOutOfOrder` checks the order it must keep).
    static func canonical<Entry>(
        _ list: [Entry],
        _ isWarmUp: (Entry) -> Bool,
        _ participant: (Entry) -> Int
    ) -> [Entry] {
        var result: [Entry] = []
        result.reserveCapacity(list.count)
        var run: [Entry] = []
        for entry in list {
            if isWarmUp(entry) {
                run.append(entry)
                continue
            }
            if !run.isEmpty {
                result += run.sorted { participant($0) < participant($1) }
                run = []
            }
            result.append(entry)
        }
        result += run.sorted { participant($0) < participant($1) }
        return result
    }

    /// The first warm-up call that came before a warm-up it must wait for, if any. `calls` are (is it a
    /// warm-up, participant index).
    static func warmUpOutOfOrder(_ calls: [(Bool, Int)], _ prerequisites: [Int: Set<Int>]) -> String? {
        guard !prerequisites.isEmpty else { return nil }
        var warmed: Set<Int> = []
        let inRun = Set(calls.filter { $0.0 }.map { $0.1 })
        for (isWarmUp, participant) in calls where isWarmUp {
            let waiting = (prerequisites[participant] ?? []).intersection(inRun).subtracting(warmed)
            if !waiting.isEmpty {
                return "\(ModelPool.name(participant)) warmed up before \(waiting.sorted().map { ModelPool.name($0) })"
            }
            warmed.insert(participant)
        }
        return nil
    }

    /// The deliveries with every reverse event's run turned around: the defect `reverseEventsForward`.
    static func unreversed(_ deliveries: [ModelDelivery]) -> [ModelDelivery] {
        var result: [ModelDelivery] = []
        var run: [ModelDelivery] = []
        func flush() {
            result += run.reversed()
            run = []
        }
        for delivery in deliveries {
            if let last = run.last, last.event != delivery.event || last.state != delivery.state { flush() }
            if delivery.event.isReverse {
                run.append(delivery)
            } else {
                flush()
                result.append(delivery)
            }
        }
        flush()
        return result
    }
}

/// Shrinks a failing scenario by delta debugging: drops chunks of operations, then single operations,
/// scripted failures, answers, manifest entries and the delegate, keeping each change while the run still
/// disagrees with the model.
enum ModelShrinker {
    static func shrink(
        _ scenario: ModelScenario,
        _ mismatch: ModelMismatch,
        mutation: ModelRunner.Mutation? = nil,
        maximumRuns: Int = 3_000
    ) async -> (scenario: ModelScenario, mismatch: ModelMismatch, runs: Int) {
        var best = scenario
        var bestMismatch = mismatch
        var runs = 0
        best.ops = truncated(best.ops, at: mismatch)

        /// Keeps `candidate` if it still fails.
        func attempt(_ candidate: ModelScenario) async -> Bool {
            guard runs < maximumRuns else { return false }
            runs += 1
            guard let failure = await ModelRunner.run(candidate, mutation: mutation).mismatch else { return false }
            best = candidate
            best.ops = truncated(candidate.ops, at: failure)
            bestMismatch = failure
            return true
        }

        var changed = true
        while changed, runs < maximumRuns {
            changed = false
            // Operations: chunks of half, a quarter, …, then one at a time.
            var chunk = max(1, best.ops.count / 2)
            while chunk >= 1 {
                var start = 0
                while start < best.ops.count {
                    var candidate = best
                    candidate.ops.removeSubrange(start..<min(start + chunk, best.ops.count))
                    if await attempt(candidate) { changed = true } else { start += chunk }
                }
                chunk /= 2
            }
            // The host's set-up: each scripted failure, answer and manifest entry, the delegate, the options.
            for key in best.failing {
                var candidate = best
                candidate.failing.removeAll { $0 == key }
                if await attempt(candidate) { changed = true }
            }
            for key in best.answers {
                var candidate = best
                candidate.answers.removeAll { $0 == key }
                if await attempt(candidate) { changed = true }
            }
            var position = 0
            while position < best.manifest.count {
                var candidate = best
                candidate.manifest.remove(at: position)
                if await attempt(candidate) { changed = true } else { position += 1 }
            }
            if best.hasDelegate {
                var candidate = best
                candidate.hasDelegate = false
                if await attempt(candidate) { changed = true }
            }
            if best.hostAborts {
                var candidate = best
                candidate.hostAborts = false
                if await attempt(candidate) { changed = true }
            }
            if best.supervision != .inline {
                var candidate = best
                candidate.supervision = .inline
                if await attempt(candidate) { changed = true }
            }
        }
        return (best, bestMismatch, runs)
    }

    /// The operations up to and including the one that disagreed: later ones cannot matter.
    private static func truncated(_ ops: [ModelOp], at mismatch: ModelMismatch) -> [ModelOp] {
        guard let index = mismatch.opIndex else { return [] }
        return Array(ops.prefix(index + 1))
    }
}
