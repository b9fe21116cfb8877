import LifecycleCore

/// The work a ``WorkingModule`` declares (``WorkingModule/declareWork(_:)``), in declaration order.
public struct WorkList<Module: WorkingModule>: Sendable {
    /// The work declared so far.
    public private(set) var declarations: [WorkDeclaration] = []

    init() {}

    /// Declares a work named `name`: `body` runs on `schedule` with the host's instance of the module,
    /// supervised by `policy`.
    ///
    /// - Parameters:
    ///   - name: Unique within the module; the journal, the plan and errors name the work `Module.name`.
    ///   - schedule: When it runs: for the application's lifetime (the default, from launch's end), or
    ///     while the application is active.
    ///   - policy: What happens when it returns or throws, and how long it has to stop.
    ///     ``WorkPolicy/standard`` by default.
    ///   - reportsReadiness: Whether it says when it is ready (``WorkContext/reportReady()``). Until it
    ///     does, its module and the host are not ready: `waitUntilReady()`, the readiness endpoint and
    ///     systemd's `READY=1` wait for it.
    ///   - body: The work. It runs until it returns, throws, or is asked to stop: await
    ///     ``WorkContext/gracefulShutdown()``, or read ``WorkContext/isShuttingDown``. It is cancelled if it
    ///     does not stop within the policy's ``WorkPolicy/gracePeriod``.
    public mutating func run(
        _ name: String,
        _ schedule: WorkSchedule = .application(),
        policy: WorkPolicy = .standard,
        reportsReadiness: Bool = false,
        _ body: @escaping @Sendable (Module, WorkContext) async throws -> Void
    ) {
        declarations.append(
            WorkDeclaration(
                name: name,
                schedule: schedule,
                policy: policy,
                reportsReadiness: reportsReadiness,
                body: { instance, context in
                    // The host hands each work the instance it created of this very type.
                    guard let module = instance as? Module else { return }
                    try await body(module, context)
                }
            )
        )
    }
}

extension WorkingModule {
    /// The work this type declares, in order.
    static var declaredWork: [WorkDeclaration] {
        var list = WorkList<Self>()
        declareWork(&list)
        return list.declarations
    }
}
