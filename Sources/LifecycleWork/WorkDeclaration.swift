import LifecycleCore

/// One work a module declared: its name, schedule, policy and body.
public struct WorkDeclaration: Sendable {
    /// The work's name within its module.
    public let name: String
    /// When it runs.
    public let schedule: WorkSchedule
    /// What happens when it ends, and how it stops.
    public let policy: WorkPolicy
    /// Whether its module is ready only once it reports readiness.
    public let reportsReadiness: Bool
    let body: @Sendable (any LifecycleModule, WorkContext) async throws -> Void
}
