public import LifecycleCore

/// A module that runs work: long-running tasks tied to the application's lifecycle, supervised by the
/// host (Docs/Work.md).
///
/// The discovery plugin finds modules that adopt it, like every other capability. The work is declared by
/// the type, so the host checks it before it creates anything (two works with one name, a policy that
/// cannot work: `ManifestError.Code.invalidWork`), and runs each work as a child task of the one task
/// group it owns for work, with the module instance it created:
///
/// ```swift
/// struct QueueConsumer: WorkingModule {
///     let queue = JobQueue()
///     init(context: LifecycleContext) {}
///
///     static func declareWork(_ work: inout WorkList<Self>) {
///         // Runs while the application is active; stopped before willResignActive, started again after
///         // didBecomeActive.
///         work.run("consume", .whileActive) { module, context in
///             while !context.isShuttingDown {
///                 try await module.queue.processNext()
///             }
///         }
///     }
/// }
/// ```
public protocol WorkingModule: LifecycleModule {
    /// Declares the work this module runs, in the order it starts; it stops in the reverse order.
    static func declareWork(_ work: inout WorkList<Self>)
}
