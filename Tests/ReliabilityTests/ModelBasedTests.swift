import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

/// Model-based random testing (issue 5): random sequences of host operations, valid and invalid, run
/// against a real host and against `ModelReference`, which must agree on every delivery (who, which event,
/// in which order, in which state, with which answer), every returned value and every error.
///
/// Reproduce one sequence with `MODEL_SEED=0x… swift test --filter ModelBasedTests`; a failure prints that
/// line, the scenario, and the shortest failing operation list the shrinker found.
@Suite("Model-based random sequences")
struct ModelBasedTests {
    /// Sequence `i` of base seed `b` uses `ModelRandom.sequenceSeed(base: b, index: i)`.
    static let baseSeeds: [UInt64] = [0x5EED_0000_0000_0001, 0xC0FF_EE15_600D_F00D, 0x0DDB_A115_BADC_0DE5, 0x2025_0005]
    static let sequencesPerSeed = 2_500
    /// At most this many failing sequences are shrunk and reported.
    static let reportedFailures = 3

    /// The seeds to run: `MODEL_SEED` alone if set, else every base seed's sequences.
    static func seeds() -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["MODEL_SEED"] {
            let digits = text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
            if let seed = UInt64(digits, radix: 16) { return [seed] }
        }
        return baseSeeds.flatMap { base in
            (0..<sequencesPerSeed).map { ModelRandom.sequenceSeed(base: base, index: $0) }
        }
    }

    static func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16, uppercase: true) }

    /// The report of a failing sequence: the seed, the shrunk scenario, and what disagreed.
    static func report(
        _ scenario: ModelScenario,
        _ mismatch: ModelMismatch,
        mutation: ModelRunner.Mutation? = nil
    ) async -> String {
        let shrunk = await ModelShrinker.shrink(scenario, mismatch, mutation: mutation)
        return """
            The host disagrees with the model. Seed \(hex(scenario.seed)); reproduce with
              MODEL_SEED=\(hex(scenario.seed)) swift test --filter ModelBasedTests
            Generated: \(scenario)
            Shrunk (\(scenario.ops.count) → \(shrunk.scenario.ops.count) ops, \(shrunk.runs) runs): \(shrunk.scenario)
            First disagreement: \(shrunk.mismatch)
            """
    }

    /// What one lane of the run found.
    struct Lane: Sendable {
        var totals = ModelRunResult()
        var sequences = 0
        var refusedManifests = 0
        var failing: [(index: Int, scenario: ModelScenario, mismatch: ModelMismatch)] = []
    }

    /// Runs the sequences `lane`, `lane + lanes`, … of `seeds`, stopping after `reportedFailures` failures.
    static func run(_ seeds: [UInt64], lane: Int, lanes: Int) async -> Lane {
        var result = Lane()
        for index in stride(from: lane, to: seeds.count, by: lanes) {
            let scenario = ModelScenario.generate(seed: seeds[index])
            let run = await ModelRunner.run(scenario)
            result.sequences += 1
            result.totals.add(run)
            let specs = scenario.manifest.map { ModelPool.modules[$0] }
            if ModelReference.buildError(specs, profileEnabled: scenario.profileEnabled) != nil {
                result.refusedManifests += 1
            }
            guard let mismatch = run.mismatch else { continue }
            result.failing.append((index, scenario, mismatch))
            if result.failing.count == reportedFailures { break }
        }
        return result
    }

    /// Outcomes every full run must have met at least once, so a generator change cannot quietly stop
    /// testing them: every allowed request in every state it is allowed in, and each kind of error.
    static let requiredCoverage: [String] = {
        let running = ["active", "inactive", "background"]
        let allowed: [(String, [String])] = [
            ("launch", ["notRunning"]), ("enterForeground", ["background"]),
            ("enterBackground", ["active", "inactive"]),
            ("resignActive", ["active"]), ("becomeActive", ["inactive"]), ("terminate", running),
            ("receiveMemoryWarning", running), ("open", running), ("send", running),
            ("register", ["notRunning"] + running), ("remove", ["notRunning"] + running),
        ]
        var keys = allowed.flatMap { kind, states in states.map { "\(kind) in \($0) → ok" } }
        keys += [
            "launch in notRunning → hookFailed", "launch in notRunning → launchAborted",
            "launch in active → invalidTransition", "enterForeground in active → invalidTransition",
            "register in terminated → invalidTransition", "remove in terminated → invalidTransition",
            "open in terminated → invalidTransition", "send in notRunning → invalidTransition",
            "enterForeground in background → hookFailed", "enterBackground in active → hookFailed",
            "terminate in active → hookFailed", "open in active → hookFailed", "send in active → hookFailed",
            "register in active → hookFailed", "register in background → hookFailed",
            "register in active → registrationFailed", "register in inactive → registrationFailed",
            "register in active → registrationFailed/duplicateModule",
            "register in notRunning → registrationFailed/missingDependency",
            "register in active → registrationFailed/moduleInitializationFailed",
            "remove in active → hookFailed", "remove in inactive → hookFailed",
            "remove in active → removalFailed/notAParticipant", "remove in active → removalFailed/requiredByOthers",
            "remove in notRunning → removalFailed/requiredByOthers",
            "build → emptyManifest", "build → duplicateModule", "build → missingDependency",
            "build → moduleInitializationFailed", "register in active → registrationFailed/moduleDisabled",
            "warm-up after launch → ok", "warm-up after launch → hookFailed",
        ]
        return keys
    }()

    @Test("10,000 random operation sequences: deliveries, results and errors match the reference model")
    func randomSequencesMatchTheModel() async {
        let clock = ContinuousClock()
        let start = clock.now
        let seeds = Self.seeds()
        let lanes = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let results = await withTaskGroup(of: Lane.self) { group in
            for lane in 0..<lanes { group.addTask { await Self.run(seeds, lane: lane, lanes: lanes) } }
            var all: [Lane] = []
            for await lane in group { all.append(lane) }
            return all
        }
        var totals = ModelRunResult()
        var sequences = 0
        var refusedManifests = 0
        for lane in results {
            totals.add(lane.totals)
            sequences += lane.sequences
            refusedManifests += lane.refusedManifests
        }
        let failing = results.flatMap { $0.failing }.sorted { $0.index < $1.index }.prefix(Self.reportedFailures)
        for failure in failing {
            Issue.record(Comment(rawValue: await Self.report(failure.scenario, failure.mismatch)))
        }
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "ModelBasedTests: \(sequences) sequences, \(totals.operations) operations, "
                + "\(totals.deliveries) events delivered, \(totals.errorsChecked) expected errors checked "
                + "(\(refusedManifests) of them invalid manifests), \(failing.count) failing, "
                + String(format: "%.1f s", seconds) + " on \(lanes) lanes"
        )
        if ProcessInfo.processInfo.environment["MODEL_COVERAGE"] != nil {
            for (key, count) in totals.coverage.sorted(by: { $0.key < $1.key }) { print("  \(count)\t\(key)") }
        }
        let failingCount = failing.count
        #expect(failingCount == 0, "sequences that disagree with the model; each is reported above")
        // A full run that failed stopped early: its figures say nothing about coverage.
        guard seeds.count > 1, failingCount == 0 else { return }
        #expect(sequences == seeds.count)
        let missing = Self.requiredCoverage.filter { totals.coverage[$0, default: 0] == 0 }
        #expect(missing.isEmpty, "outcomes no sequence reached: \(missing)")
    }

    @Test("The suite can fail: a model that delivers reverse events forward is caught, with a short reproduction")
    func aWrongModelIsCaught() async throws {
        var caught: (ModelScenario, ModelMismatch)?
        for index in 0..<200 {
            let scenario = ModelScenario.generate(seed: ModelRandom.sequenceSeed(base: Self.baseSeeds[0], index: index))
            if let mismatch = await ModelRunner.run(scenario, mutation: .reverseEventsForward).mismatch {
                caught = (scenario, mismatch)
                break
            }
        }
        let (scenario, mismatch) = try #require(caught, "200 sequences never exercised a reverse event")
        let shrunk = await ModelShrinker.shrink(scenario, mismatch, mutation: .reverseEventsForward)
        // Two participants receiving a reverse event, and the ops to reach it: at most launch and one more.
        #expect(shrunk.scenario.ops.count <= 2)
        #expect(shrunk.scenario.ops.count <= scenario.ops.count)
        #expect(shrunk.mismatch.details.contains("hook calls"))
        let text = await Self.report(scenario, mismatch, mutation: .reverseEventsForward)
        #expect(text.contains("MODEL_SEED=\(Self.hex(scenario.seed))"))
    }

    @Test("The same seed always generates the same scenario")
    func generationIsDeterministic() {
        for index in 0..<50 {
            let seed = ModelRandom.sequenceSeed(base: Self.baseSeeds[1], index: index)
            #expect(ModelScenario.generate(seed: seed).description == ModelScenario.generate(seed: seed).description)
        }
        var random = ModelRandom(seed: 42)
        let first = (0..<4).map { _ in random.next() }
        random = ModelRandom(seed: 42)
        #expect((0..<4).map { _ in random.next() } == first)
    }

    @Test("The model's table of participants agrees with the fixtures' conformances")
    func poolMatchesFixtures() throws {
        var options = LaunchOptions()
        options[ModelScriptKey.self] = ModelScript()
        options[LaunchProfileKey.self] = ModelPool.profile
        let regular = ModelScenario.regularModules
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Model", regular.map { ModelPool.types[$0] }),
            delegate: ModelAppDelegate(script: ModelScript()),
            launchOptions: options
        )
        let model = ModelReference(
            manifest: regular.map { ModelPool.modules[$0] },
            delegate: ModelPool.delegate,
            hostAborts: false,
            failing: [],
            answers: []
        )
        for event in ModelEvent.allCases {
            let plan = host.plan(for: ModelRunner.lifecycleEvent(event)).map { ModelPool.shortName($0.name) }
            #expect(plan == model.plan(event).map { $0.name }, "\(event.rawValue)")
        }
        for (type, spec) in zip(ModelPool.types, ModelPool.modules) {
            #expect(type.priority.rawValue == spec.priority, "\(spec.name)")
            let dependencies = (type as? any DependentModule.Type)?.dependencies.map { ModelPool.index($0.moduleName) }
            #expect((dependencies ?? []) == spec.dependencies, "\(spec.name)")
            let policy = (type as? any FailurePolicyModule.Type).map { $0.failurePolicy }
            #expect(policy == spec.policy.map { $0 == .abort ? .abort : .isolate }, "\(spec.name)")
            #expect((type is any EnvironmentGatedModule.Type) == spec.gated, "\(spec.name)")
        }
    }
}
