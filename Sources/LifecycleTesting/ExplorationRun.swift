import LifecycleCore
import LifecycleProxy

/// An invariant that did not hold, and when.
struct ExplorationViolation: Sendable {
    /// The invariant's name, or the exploration's own "every step finishes" for a stuck step.
    let invariant: String
    /// How many steps had been taken.
    let afterStep: Int
    /// Whether it failed at the final check, after the closing `terminate()`.
    let isFinal: Bool
}

/// One random lifecycle: a new host over the manifest, driven step by step, with the invariants checked after
/// each step.
struct ExplorationRun {
    /// Where the steps come from: drawn from a seed, live, in the state the host is in; or a given list (a
    /// replay by the shrinker).
    enum Script: Sendable {
        case drawn(seed: UInt64)
        case exactly([ExplorationStep])
    }

    struct Result: Sendable {
        /// The steps taken, the closing `terminate()` included.
        var steps: [ExplorationStep] = []
        var injected: [InjectedFaultRecord] = []
        var violation: ExplorationViolation?
    }

    /// The name a stuck step is reported under.
    static let finishing = "every step finishes"
    /// How likely a drawn step is drawn from every step rather than from those allowed in the host's state.
    static let invalidShare = 0.1

    private let exploration: LifecycleExploration
    private let script: Script
    private let faults: FaultSchedule

    init(_ exploration: LifecycleExploration, script: Script, faults: FaultSchedule) {
        self.exploration = exploration
        self.script = script
        self.faults = faults
    }

    func run() async throws(ManifestError) -> Result {
        let clock = VirtualClock()
        let recorder = LifecycleRecorder()
        let unobserved = Locked<[LifecycleError]>([])
        var configuration = exploration.configuration
        configuration.clock = clock
        configuration.faultInjection = faults.injection
        if exploration.faults.hangs, exploration.faults.rate > 0, configuration.hookBudget == nil {
            configuration.hookBudget = .seconds(1)
        }
        let own = configuration.onDelivery
        configuration.onDelivery = { record in
            recorder.record(record)
            own?(record)
        }
        configuration.onUnobservedError = { error in unobserved.withLock { $0.append(error) } }
        let options = exploration.launchOptions()
        let host = try ApplicationHost(
            manifest: exploration.manifest,
            launchOptions: options,
            configuration: configuration
        )
        let driver = StepDriver(host: host, clock: clock, faults: faults, exploration: exploration)

        var result = Result()
        func check(_ error: (any Error)?, final: Bool) -> ExplorationViolation? {
            let snapshot = LifecycleSnapshot(
                host: host,
                launchOptions: options,
                steps: result.steps,
                error: error,
                deliveries: recorder.deliveries,
                injectedFaults: faults.injected,
                unobservedErrors: unobserved.withLock { $0 },
                isFinal: final
            )
            guard let broken = exploration.invariants.first(where: { !$0.holds(snapshot) }) else { return nil }
            return ExplorationViolation(invariant: broken.name, afterStep: result.steps.count, isFinal: final)
        }
        func take(_ step: ExplorationStep) async -> (any Error)?? {
            result.steps.append(step)
            faults.begin(step: result.steps.count)
            return await driver.drive(step)
        }

        var random = SplitMix64(seed: 0)
        var given: [ExplorationStep] = []
        switch script {
        case .drawn(let seed): random = SplitMix64(seed: seed)
        case .exactly(let steps): given = steps
        }
        var lastError: (any Error)?
        while let step = next(&random, given: &given, taken: result.steps.count, host: host) {
            guard let error = await take(step) else {
                result.violation = ExplorationViolation(
                    invariant: Self.finishing,
                    afterStep: result.steps.count,
                    isFinal: false
                )
                break
            }
            lastError = error
            if let violation = check(error, final: false) {
                result.violation = violation
                break
            }
        }
        if result.violation == nil {
            if host.state.isRunning {
                if let error = await take(.terminate) {
                    lastError = error
                    result.violation = check(error, final: true)
                } else {
                    result.violation = ExplorationViolation(
                        invariant: Self.finishing,
                        afterStep: result.steps.count,
                        isFinal: true
                    )
                }
            } else {
                result.violation = check(lastError, final: true)
            }
        }
        result.injected = faults.injected
        return result
    }

    /// The next step: the next given one, or one drawn for the host's `state`; `nil` when the run is over.
    private func next(
        _ random: inout SplitMix64,
        given: inout [ExplorationStep],
        taken: Int,
        host: ApplicationHost
    ) -> ExplorationStep? {
        let state = host.state
        if case .exactly = script { return given.isEmpty ? nil : given.removeFirst() }
        guard taken < exploration.steps, state != .terminated else { return nil }
        if taken == 0, state == .notRunning { return .launch }
        var every: [ExplorationStep] = [
            .launch, .resignActive, .becomeActive, .enterBackground, .enterForeground, .memoryWarning, .terminate,
        ]
        if !exploration.urls.isEmpty { every.append(.openURL(exploration.urls[random.below(exploration.urls.count)])) }
        every += exploration.actions.map { .action($0.name) }
        if exploration.changesMembership, !exploration.manifest.entries.isEmpty {
            // One module, drawn: removed if it takes part, released if quarantined, registered again if not.
            let module = exploration.manifest.entries[random.below(exploration.manifest.entries.count)].type
            let name = module.moduleName
            if host.quarantinedModules.contains(where: { $0.module == name }) {
                every.append(.releaseQuarantine(name))
            } else {
                every.append(host.participant(for: module) == nil ? .register(name) : .remove(name))
            }
        }
        if random.unit() < Self.invalidShare { return every[random.below(every.count)] }
        let allowed = every.filter { step in
            guard step != .terminate else { return false }
            guard let request = step.request else { return state.isRunning }
            return HostStateMachine.allows(HostRequest(request), in: state)
        }
        let candidates = allowed.isEmpty ? every : allowed
        return candidates[random.below(candidates.count)]
    }
}

/// Takes one step on a host and waits until the host is idle, moving the virtual clock while an injected hang
/// waits on it.
private struct StepDriver {
    let host: ApplicationHost
    let clock: VirtualClock
    let faults: FaultSchedule
    let exploration: LifecycleExploration

    /// How far the clock moves at a time while a hang waits.
    static let tick = Duration.milliseconds(100)

    /// What the step threw (`.some(nil)` when it succeeded); `nil` when it did not finish within the step time
    /// limit, in real time.
    ///
    /// It waits for the step without polling. Only while an injected hang waits does it move the clock, a
    /// ``tick`` at a time with a short pause between, until the hang ends.
    func drive(_ step: ExplorationStep) async -> (any Error)?? {
        enum Signal {
            case finished((any Error)?)
            case hang, timeUp
        }
        let (signals, signal) = AsyncStream<Signal>.makeStream()
        faults.observeHangs { signal.yield(.hang) }
        let host = self.host
        let exploration = self.exploration
        let task = Task {
            var thrown: (any Error)?
            do {
                try await step.take(on: host, in: exploration)
            } catch {
                thrown = error
            }
            // What the step's hooks posted is part of the step. It throws only as the step itself did.
            try? await host.waitUntilIdle()
            signal.yield(.finished(thrown))
        }
        let limit = exploration.stepTimeLimit
        let end = ContinuousClock.now.advanced(by: limit)
        let watch = Task {
            try? await Task.sleep(for: limit)
            signal.yield(.timeUp)
        }
        defer {
            watch.cancel()
            signal.finish()
        }
        for await event in signals {
            switch event {
            case .finished(let thrown):
                return .some(thrown)
            case .timeUp:
                task.cancel()
                return nil
            case .hang:
                // The host abandons the hang at its budget's deadline, fixed from the hang's start; small steps
                // reach it before any later deadline (the termination's, for one).
                while faults.isHanging {
                    if ContinuousClock.now > end {
                        task.cancel()
                        return nil
                    }
                    clock.advance(by: Self.tick)
                    try? await Task.sleep(for: .microseconds(200))
                }
            }
        }
        return nil
    }
}
