public import LifecycleCore
public import LifecycleWork
import Synchronization

/// Counts the works of the work rows that started and that stopped, so each repetition can check that every
/// work ran and stopped: the host's, `ServiceGroup`'s services and the hand-written tasks alike.
///
/// Atomic increments, not ``HookTally``'s relaxed load and store: the works run concurrently, and a lost count
/// would fail the check. One locked add per start and per stop, the same in every system.
public enum WorkTally {
    static let startedCount = Atomic<Int>(0)
    static let stoppedCount = Atomic<Int>(0)

    /// A work started.
    @inline(never)
    public static func started() { startedCount.wrappingAdd(1, ordering: .relaxed) }

    /// A work is stopping: it returned from its graceful-shutdown wait.
    @inline(never)
    public static func stopped() { stoppedCount.wrappingAdd(1, ordering: .relaxed) }

    /// The works started and stopped since the last ``reset()``.
    public static var counts: (started: Int, stopped: Int) {
        (startedCount.load(ordering: .acquiring), stoppedCount.load(ordering: .acquiring))
    }

    /// Sets both counts to zero.
    public static func reset() {
        startedCount.store(0, ordering: .relaxed)
        stoppedCount.store(0, ordering: .relaxed)
    }
}

/// Working module number `Number.value`: one work, `serve`, that starts, reports ready, waits for graceful
/// shutdown and returns; no lifecycle hook, no dependency, normal priority.
///
/// The body is what `ServiceGroup`'s services and the hand-written tasks of the work rows do too:
/// ``WorkTally/started()``, report ready, wait to be asked to stop, ``WorkTally/stopped()``. The default
/// policy (`.standard`: a 10 s grace period, armed on the host's watchdog at each stop) and the default schedule
/// (`.application()`: from the end of launch to termination).
public struct WorkingNumbered<Number: TypeNumber>: WorkingModule {
    public static var priority: ModulePriority { .normal }

    public init(context: LifecycleContext) {}

    public static func declareWork(_ work: inout WorkList<Self>) {
        work.run("serve", reportsReadiness: true) { _, context in
            WorkTally.started()
            context.reportReady()
            await context.gracefulShutdown()
            WorkTally.stopped()
        }
    }
}

extension SyntheticCatalog {
    /// `WorkingNumbered` module types 0 ..< ``SyntheticGraph/maximumCount``.
    public static let workers: [any LifecycleModule.Type] = (0..<SyntheticGraph.maximumCount).map {
        workerType(typeNumber($0))
    }

    private static func workerType<Number: TypeNumber>(_: Number.Type) -> any LifecycleModule.Type {
        WorkingNumbered<Number>.self
    }
}
