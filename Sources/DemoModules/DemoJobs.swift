public import LifecycleCore
import LifecycleRouting
public import LifecycleScopes

/// Logs every job the demo runs: a global action for job scopes, found by the discovery plugin.
public struct JobLogAction: ScopeAction {
    public static let kinds: ScopeKinds = [.job]
    public static let priority: ModulePriority = .normal
    let console: DemoConsole?

    public init(context: LifecycleContext) {
        console = context.launchOptions[DemoServicesKey.self]?.console
    }

    public func didBegin(_ scope: Scope) async throws {
        console?.write("    JobLog: job \"\(scope.name)\" began")
    }

    public func willEnd(_ scope: Scope) async throws {
        let failures = scope.failures.count
        console?.write("    JobLog: job \"\(scope.name)\" ended, \(failures) failure(s)")
    }
}

/// A behavior the export job adopts: counts the rows the job reports, and prints the count at the end.
public struct ExportProgress: ScopeBehavior {
    let console: DemoConsole
    var batches = 0

    public init(console: DemoConsole) { self.console = console }

    public mutating func didActivate(_ scope: Scope) async throws {
        batches += 1
        console.write("    ExportProgress: activation \(scope.activations), batch \(batches) started")
    }

    public mutating func willEnd(_ scope: Scope) async throws {
        console.write("    ExportProgress: \(batches) batch(es) done")
    }
}

extension LifecycleDemo {
    /// Runs the report export as a background job in a job scope: the global ``JobLogAction`` and the
    /// adopted ``ExportProgress`` hear its lifecycle; the job opens the reports through the router, and the
    /// host lists it as in flight while it runs.
    ///
    /// - Returns: Whether the job succeeded; it prints why not.
    static func runExportJob(on host: ApplicationHost, console: DemoConsole) async -> Bool {
        guard let scopes = host.scopes, let router = host.router else { return false }
        console.write("▶ withScope(.job, \"export reports\")")
        do {
            let progress = ExportProgress(console: console)
            let exported = try await scopes.withScope(.job, "export reports", adopting: progress) { _ in
                try await exportReports(days: [23, 24], router: router, scopes: scopes, console: console)
            }
            console.write("  = \(exported) report(s) exported; in flight now: \(scopes.inFlight().count)")
            return true
        } catch {
            console.write("  = the job failed: \(error)")
            return false
        }
    }

    /// The job's work: one report per day, through the router.
    private static func exportReports(
        days: [Int],
        router: Router,
        scopes: ScopeRegistry,
        console: DemoConsole
    ) async throws -> Int {
        let inFlight = scopes.inFlight().map { "\($0.kind) \"\($0.name)\"" }
        console.write("    in flight: \(inFlight.joined(separator: ", "))")
        for day in days { _ = try await router.open(ShowReport(day: day)) }
        return days.count
    }
}
