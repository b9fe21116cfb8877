public import LifecycleCore

/// A declared work and how its last run stands: what `ApplicationHost.workStatus` lists.
public struct WorkStatus: Sendable, Hashable, CustomStringConvertible {
    /// Where a work stands.
    public enum Phase: Sendable, Hashable {
        /// Its schedule has not started it (yet, or since launch, for `.whileActive` work in the background).
        case notStarted
        /// Running; for work that reports readiness, not ready yet.
        case running
        /// Running and ready.
        case ready
        /// Waiting its backoff before a restart.
        case restarting
        /// Asked to stop, and not stopped yet.
        case stopping
        /// Stopped when asked: by its schedule, its module's removal, or termination.
        case stopped
        /// Returned by itself, and its policy does not restart it.
        case finished
        /// Failed and not restarted: its policy's escalation applied.
        case gaveUp
        /// Ignored cancellation past its cancellation grace; the host stopped waiting for it.
        case abandoned

        init(_ phase: WorkRun.Phase) {
            self =
                switch phase {
                case .running: .running
                case .ready: .ready
                case .restarting: .restarting
                case .stopping: .stopping
                case .stopped: .stopped
                case .finished: .finished
                case .gaveUp: .gaveUp
                case .abandoned: .abandoned
                }
        }
    }

    /// The module-qualified name of the module that owns it.
    public let module: String
    /// Its name within the module.
    public let name: String
    /// When it runs.
    public let schedule: WorkSchedule
    /// What happens when it ends, and how it stops.
    public let policy: WorkPolicy
    /// Whether it holds its module's readiness until it reports.
    public let reportsReadiness: Bool
    /// Where its last run stands.
    public let phase: Phase
    /// How many times its last run started its body: 1 plus its restarts.
    public let attempts: Int

    /// `Module.work: phase, n attempt(s)`.
    public var description: String { "\(module).\(name): \(phase), \(attempts) attempt(s)" }
}

extension ApplicationHost {
    /// Every work its modules declared, in delivery order then declaration order, and how each stands.
    /// Empty when the manifest has no work (`ModuleManifest.withWork(stopOrder:)`).
    public nonisolated var workStatus: [WorkStatus] {
        (context.launchOptions[HostWorkKey.self] as? WorkSupervisor)?.status ?? []
    }
}
