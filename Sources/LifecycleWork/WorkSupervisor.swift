import LifecycleCore

/// A host's work: what its working modules declared, the runs in progress, and the group they run in. The
/// host calls it at each boundary (``HostWork``); the runs report back through the host (readiness,
/// journal, instruments, quarantine, termination).
final class WorkSupervisor: HostWork {
    /// A working module as installed: its participant, instance and declared work.
    struct Installed: Sendable {
        let participant: Participant
        let instance: any LifecycleModule
        let work: [WorkDeclaration]
        /// Its place in delivery order.
        var order: Int
    }

    struct Key: Hashable {
        let participant: Int
        let index: Int
    }

    private struct State {
        var installed: [Int: Installed] = [:]
        /// The working modules' ids in delivery order, and the boundaries any of their work starts at: kept
        /// at installation, so the launch stages without work cost one look-up (``enter(_:participants:host:)``
        /// runs at four boundaries per launch).
        var inOrder: [Int] = []
        var boundaries: Set<WorkBoundary> = []
        var running: [Key: WorkRun] = [:]
        /// Each declared work's last run, kept after it ends, for ``WorkStatus``.
        var last: [Key: WorkRun] = [:]
        var group: WorkGroup?
        /// The host terminated: no work starts any more.
        var closed = false
        var lifecycle: LifecycleContext?
    }

    let stopOrder: WorkStopOrder
    private let link = HostLink()
    private let state = Locked(State())

    init(stopOrder: WorkStopOrder) { self.stopOrder = stopOrder }

    // MARK: - Installation

    /// The host's modules now, in delivery order, with the work of the working ones (`work` says which).
    func install(
        _ modules: [InstalledModule],
        context: LifecycleContext,
        work: (any LifecycleModule.Type) -> [WorkDeclaration]?
    ) {
        var installed: [Int: Installed] = [:]
        let known = state.withLock { $0.installed }
        for (order, module) in modules.enumerated() {
            let id = module.participant.id
            if var existing = known[id] {
                existing.order = order
                installed[id] = existing
            } else if let declared = work(module.type), !declared.isEmpty {
                installed[id] = Installed(
                    participant: module.participant,
                    instance: module.instance,
                    work: declared,
                    order: order
                )
            }
        }
        let inOrder = installed.values.map { (order: $0.order, id: $0.participant.id) }.sorted { $0.order < $1.order }
            .map(\.id)
        let boundaries = Set(installed.values.lazy.flatMap { $0.work.lazy.map(\.schedule.boundary) })
        state.withLock { state in
            state.installed = installed
            // A module gone (removed, switched off, quarantined) lists no work: its runs have stopped, and
            // its last ones, kept for the status, must not keep its instance alive for ever.
            state.last = state.last.filter { installed[$0.key.participant] != nil }
            state.inOrder = inOrder
            state.boundaries = boundaries
            state.lifecycle = context
        }
    }

    /// Cancels everything: the host was let go.
    func uninstall() {
        let group = state.withLock { state in
            state.closed = true
            return state.group
        }
        group?.cancel()
    }

    // MARK: - HostWork

    func enter(_ boundary: WorkBoundary, participants: Set<Int>?, host: ApplicationHost) {
        link.attach(host)
        var replaced: [WorkRun] = []
        let (batch, group): ([WorkRun], WorkGroup?) = state.withLock { state in
            guard !state.closed, state.boundaries.contains(boundary), let lifecycle = state.lifecycle else {
                return ([], nil)
            }
            var batch: [WorkRun] = []
            // One closure for the batch: a run's key is its participant and index.
            let onEnd: @Sendable (WorkRun) -> Void = { [weak self] run in
                self?.ended(run, key: Key(participant: run.participant.id, index: run.index))
            }
            if participants == nil {
                state.running.reserveCapacity(state.running.count + state.inOrder.count)
                state.last.reserveCapacity(state.last.count + state.inOrder.count)
            }
            for id in state.inOrder {
                guard let module = state.installed[id] else { continue }
                if let participants, !participants.contains(module.participant.id) { continue }
                for (index, declaration) in module.work.enumerated() where declaration.schedule.boundary == boundary {
                    let key = Key(participant: module.participant.id, index: index)
                    guard state.running[key] == nil else { continue }
                    if let previous = state.last[key] { replaced.append(previous) }
                    let run = WorkRun(
                        participant: module.participant,
                        index: index,
                        declaration: declaration,
                        instance: module.instance,
                        lifecycle: lifecycle,
                        link: link,
                        onEnd: onEnd
                    )
                    state.running[key] = run
                    state.last[key] = run
                    batch.append(run)
                }
            }
            guard !batch.isEmpty else { return ([], nil) }
            if state.group == nil { state.group = WorkGroup() }
            return (batch, state.group)
        }
        let pending = batch.lazy.filter(\.declaration.reportsReadiness).map(\.participant.id)
        if !pending.isEmpty { host.markWorkPending(pending) }
        // A run that gave up held readiness back; the new run of its work takes over, counted just above.
        for run in replaced { run.stopCountingReadiness() }
        group?.start(batch)
    }

    func leave(_ boundary: WorkBoundary?, participants: Set<Int>?) async -> [String] {
        let terminating = boundary == nil && participants == nil
        let (runs, group): ([WorkRun], WorkGroup?) = state.withLock { state in
            if terminating { state.closed = true }
            let runs = state.running.values.filter { run in
                if let participants, !participants.contains(run.participant.id) { return false }
                guard let boundary else { return true }
                return run.declaration.schedule.boundary == boundary
            }
            // Each run's place looked up once, not twice per comparison.
            let order = state.installed.mapValues(\.order)
            let keyed = runs.map { (order: order[$0.participant.id] ?? .max, index: $0.index, run: $0) }
            return (
                keyed.sorted { ($0.order, $0.index) < ($1.order, $1.index) }.map(\.run),
                terminating ? state.group : nil
            )
        }
        var abandoned: [String] = []
        if !runs.isEmpty {
            var dependents: [Int: [Int]] = [:]
            if stopOrder == .dependentsFirst, let host = link.host {
                for participant in host.participants {
                    for dependency in host.dependencies(of: participant) {
                        dependents[dependency.module.id, default: []].append(participant.id)
                    }
                }
            }
            let plan = WorkStopPlan(runs, order: stopOrder) { dependents[$0] ?? [] }
            abandoned = await plan.execute()
        }
        // Termination: the group takes no more work, and ends once its runs have (an abandoned run keeps it,
        // and its root task, until the run returns; the host does not wait for it).
        group?.close()
        return abandoned
    }

    private func ended(_ run: WorkRun, key: Key) {
        state.withLock { state in
            if state.running[key] === run { state.running[key] = nil }
        }
    }

    // MARK: - Status

    /// Every declared work, in delivery order then declaration order, with its last run's state.
    var status: [WorkStatus] {
        state.withLock { state in
            state.inOrder.compactMap { state.installed[$0] }.flatMap { module in
                module.work.enumerated().map { index, declaration in
                    let run = state.last[Key(participant: module.participant.id, index: index)]
                    return WorkStatus(
                        module: module.participant.name,
                        name: declaration.name,
                        schedule: declaration.schedule,
                        policy: declaration.policy,
                        reportsReadiness: declaration.reportsReadiness,
                        phase: run.map { WorkStatus.Phase($0.phase) } ?? .notStarted,
                        attempts: run?.attempts ?? 0
                    )
                }
            }
        }
    }

    /// The work of `participant`, for the plan: one line each.
    func explain(_ participant: Participant) -> [String] {
        state.withLock { state in
            state.installed[participant.id]?.work.map { "work `\($0.name)`: \($0.schedule); \($0.policy)" } ?? []
        }
    }
}
