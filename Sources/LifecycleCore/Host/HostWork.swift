// The seam that work modules own is built on (LifecycleWork, Docs/Work.md). The host knows nothing of work
// but where it runs: it says when it has passed a point that work starts at, and awaits the stop of the
// work bound to a state before it delivers the event that leaves that state. Stopping therefore sits in one
// place of every transition, and there is one mechanism for launch, the state changes, termination,
// rollback, registration, removal, reloads and quarantine (all of which register and remove).

/// Where work bound to the application's lifecycle starts and stops.
package enum WorkBoundary: Sendable, Hashable {
    /// After this launch event has been delivered to everyone (`setup`, `initialize`,
    /// `didFinishLaunching`). Work started here runs until termination or removal.
    case launched(LifecycleEvent)
    /// After `didBecomeActive` has been delivered; before `willResignActive` is.
    case active

    /// The launch events that work may start after, in launch order.
    package static let launchStages: [LifecycleEvent] = [.setup, .initialize, .didFinishLaunching]
}

/// Work that runs between the host's hooks. What adds it puts it in the launch options under
/// ``HostWorkKey``; the host reads it once, when it is created.
package protocol HostWork: Sendable {
    /// The host has delivered the event that opens `boundary` to `participants` (`nil`: every participant):
    /// start the work bound there. Returns without waiting for the work.
    func enter(_ boundary: WorkBoundary, participants: Set<Int>?, host: ApplicationHost)

    /// The host is about to deliver the event that closes `boundary` (`nil`: every boundary, for
    /// termination and removal) to `participants` (`nil`: every participant): stop that work, and return
    /// once it has stopped or been abandoned. Returns the names of the work abandoned.
    func leave(_ boundary: WorkBoundary?, participants: Set<Int>?) async -> [String]
}

/// Where the host finds its ``HostWork``.
package enum HostWorkKey: LaunchOptionKey {
    package static let defaultValue: (any HostWork)? = nil
}

extension ApplicationHost {
    /// Starts the work bound at `boundary`, for `participants`, if there is any work.
    func enterWork(_ boundary: WorkBoundary, participants: Set<Int>? = nil) {
        hostWork?.enter(boundary, participants: participants, host: self)
    }

    /// Stops the work bound at `boundary` (`nil`: all of it), for `participants`, and returns what was
    /// abandoned.
    func leaveWork(_ boundary: WorkBoundary?, participants: Set<Int>? = nil) async -> [String] {
        guard let hostWork else { return [] }
        return await hostWork.leave(boundary, participants: participants)
    }

    // MARK: - What work reports to the host

    /// A participant's work that reports readiness has started: the participant, and so the host, is not
    /// ready until it reports (``markWorkReady(_:)``) or stops.
    package nonisolated func markWorkPending(_ participant: Int) { readiness.addWork(participant) }

    /// A work counted by ``markWorkPending(_:)`` reported ready, or stopped before it did.
    package nonisolated func markWorkReady(_ participant: Int) { readiness.removeWork(participant) }

    /// Whether ``noteWork(_:_:work:detail:)`` records anything: a journal or an instrument. Fixed for the
    /// host's life, so work can skip building its notes when it is `false`.
    package nonisolated var recordsWork: Bool { journal != nil || !instruments.isEmpty }

    /// Works of `participants` that report readiness have started (one call for a batch).
    package nonisolated func markWorkPending(_ participants: some Sequence<Int>) { readiness.addWork(participants) }

    /// Records what happened to a work: a journal note and the instruments' ``LifecycleInstrument/workChanged(_:module:work:detail:)``.
    package nonisolated func noteWork(_ change: String, _ participant: Participant, work: String, detail: String) {
        for instrument in instruments {
            instrument.workChanged(change, module: participant.name, work: work, detail: detail)
        }
        journal?.note(change, participant, detail.isEmpty ? work : "\(work): \(detail)", at: .now)
    }

    /// Quarantines the module of `participant` after the request in progress, as hook failures past the
    /// quarantine policy do: it is taken down and out, and ``releaseQuarantine(_:file:line:)`` brings it back.
    package nonisolated func quarantine(_ participant: Participant, reason: String) {
        guard let type = dispatcher.moduleType(of: participant) else { return }
        context.events.post(HostRequest(.quarantine(HostRequest.ModuleType(type: type), reason: reason)))
    }

    /// Terminates the application gracefully because of `failure`, which ``terminationFailure`` keeps for
    /// whoever runs the host (`HostRunner` exits with code 6).
    package nonisolated func terminate(dueTo failure: LifecycleError) {
        let first = termination.withLock { control in
            guard control.failure == nil else { return false }
            control.failure = failure
            return true
        }
        if first { context.events.post(.terminate) }
    }

    /// Whether the host is ready now: launched, warmed up, and every work that reports readiness has.
    package nonisolated var isReady: Bool { readiness.isReady }

    /// The failure that made the application terminate itself (a module's work that failed past its
    /// policy, `LifecycleError.Code.workFailed`), or `nil` when nothing did.
    public nonisolated var terminationFailure: LifecycleError? { termination.withLock { $0.failure } }
}
