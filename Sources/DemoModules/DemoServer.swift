#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import LifecycleCore
import LifecycleHosting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Takes its time in willTerminate: `--slow-terminate 2` takes two seconds, `--slow-terminate forever` never
/// returns, ignoring cancellation like a hook stuck in a blocking call. Only in `lifecycle-demo serve`, and
/// only with that option; otherwise the plan lists it as disabled.
public struct SlowShutdownModule: LifecycleModule, EnvironmentGatedModule, WillTerminate {
    public static let priority: ModulePriority = .low + 300
    let services: DemoServices
    /// How long willTerminate takes; `nil` means forever.
    let delay: Duration?

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
        delay = Self.delay(in: context.launchOptions) ?? nil
    }

    public static func enablement(for options: LaunchOptions) -> ModuleEnablement {
        delay(in: options) == nil
            ? .disabled("pass --slow-terminate <seconds|forever> to lifecycle-demo serve") : .enabled
    }

    /// The option's value: `.some(nil)` for forever, `nil` when absent or unreadable.
    static func delay(in options: LaunchOptions) -> Duration?? {
        switch options.argument("--slow-terminate") {
        case "forever": return .some(nil)
        case let value?: return Double(value).map { .some(.milliseconds(Int($0 * 1000))) }
        case nil: return nil
        }
    }

    public func willTerminate(_ context: LifecycleContext) async {
        // The wait runs in a task the hook's cancellation does not reach, so the hook ignores cancellation
        // without spinning: `Task.sleep` in a cancelled task throws at once, and a loop around it would hold
        // a thread busy, starving everything else on a two-core machine.
        guard let delay else {
            services.console.write("    SlowShutdown: flushing to a disk that never answers…")
            await Task.detached { while true { try? await Task.sleep(for: .seconds(3600)) } }.value
            return  // never reached: the wait above never ends
        }
        services.console.write("    SlowShutdown: flushing, \(delay)…")
        await Task.detached { try? await Task.sleep(for: delay) }.value
        services.console.write("    SlowShutdown: flushed")
    }
}

extension LifecycleDemo {
    /// `lifecycle-demo serve`: runs the demo modules under a ``HostRunner`` until a signal ends it, and
    /// prints each delivery as it happens, and what the runner does with each signal.
    ///
    /// Options (``ServeCommand`` declares them):
    /// - `signals`, `--signals "TERM=terminate INT=interrupt …"`: the ``SignalMap``; default the
    ///   `LIFECYCLE_SIGNALS` environment variable, or ``SignalMap/standard``.
    /// - `--terminate-deadline <seconds>`: the host's terminate deadline, read when ``main(arguments:console:manifest:launchOptions:)``
    ///   builds the host; default 10.
    /// - `--slow-terminate <seconds|forever>`: enables ``SlowShutdownModule``.
    ///
    /// - Returns: The runner's exit code (see ``HostRunner/Exit``), or 64 for a bad signal map.
    public static func serve(
        host: ApplicationHost,
        console: DemoConsole,
        signals map: String? = nil,
        budgets: LaunchBudgetOptions = LaunchBudgetOptions()
    ) async -> Int32 {
        let launchOptions = host.context.launchOptions
        let signals: SignalMap
        let scale: Double
        do {
            let text = map ?? launchOptions.environment["LIFECYCLE_SIGNALS"]
            signals = try text.map { text throws(SignalMapError) in try SignalMap(parsing: text) } ?? .standard
            scale = try budgets.resolvedScale(environment: launchOptions.environment)
        } catch {
            console.write("error: \(error)")
            return 64
        }
        let deadline = host.configuration.terminateDeadline.map { "\($0)" } ?? "none"
        console.write("lifecycle-demo serve: pid \(getpid()); signals \(signals); terminate deadline \(deadline)")
        if budgets.enforce, let exit = await launchWithinBudgets(host, scale: scale, console: console) { return exit }
        let runner = HostRunner(
            host: host,
            configuration: HostRunner.Configuration(signals: signals) { report in
                console.write("▶ runner: \(report)")
            }
        )
        return await runner.run().code
    }

    /// `serve --enforce-budgets`: launches `host` before the runner serves it, so the launch budgets are
    /// checked before serving begins. Returns the exit code when the host must not serve: 3 when launch
    /// aborted, 5 when a module went over its budget (the host terminated), 1 when the report cannot be made.
    /// Signals sent during this launch have their default effect: the runner handles them from serving on.
    private static func launchWithinBudgets(
        _ host: ApplicationHost,
        scale: Double,
        console: DemoConsole
    ) async -> Int32? {
        do {
            try await host.launch()
        } catch {
            console.write("▶ launch: \(error)")
            if host.state == .terminated { return 3 }  // aborted and rolled back; else it serves, as the runner would
        }
        try? await host.waitUntilReady()
        guard let exit = checkLaunchBudgets(of: host, scale: scale, enforce: true, console: console) else { return nil }
        _ = try? await host.terminate()
        return exit
    }
}
