#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleRouting
import LifecycleScopes
import LifecycleWork

/// The program's own application delegate in the demo: it hears launch first and termination last.
public struct DemoAppDelegate: ApplicationDelegate, DidFinishLaunching, WillTerminate {
    let console: DemoConsole

    public init(console: DemoConsole) {
        self.console = console
    }

    public func didFinishLaunching(_ context: LifecycleContext) -> Bool {
        console.write("    AppDelegate: launch options read; \(context.launchOptions.arguments.count) argument(s)")
        return true
    }

    public func willTerminate(_ context: LifecycleContext) {
        console.write("    AppDelegate: goodbye")
    }
}

/// The `lifecycle-demo` program: builds a host from the demo manifest, prints its plan, and drives it
/// through a whole lifecycle while printing every delivery.
public enum LifecycleDemo {
    /// `lifecycle-demo [command] [options]`: builds the demo host, then runs the command `arguments` name
    /// through the host's router, whose command routes its modules serve (``DemoCommandsModule``). `--help`
    /// lists the commands from those routes.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program's name.
    ///   - manifest: The modules to run. `lifecycle-demo` passes its generated `ModuleManifest.discovered`.
    /// - Returns: The command's exit code; 64 for a command line the routes do not accept, a bad
    ///   `--terminate-deadline`, or module switches that cannot be read or name no module (see
    ///   ``helpEpilogue`` for every code).
    public static func main(
        arguments: [String],
        console: DemoConsole,
        manifest: ModuleManifest = .DemoModules,
        launchOptions: LaunchOptions = .current
    ) async -> Int32 {
        // The terminate deadline is the host's configuration, so it is read before the host is built.
        let deadline: Duration
        switch launchOptions.argument("--terminate-deadline").map({ Double($0) }) {
        case nil: deadline = .seconds(10)
        case let seconds?? where seconds > 0: deadline = .milliseconds(Int(seconds * 1000))
        case let other:
            console.write(
                "error: --terminate-deadline needs a positive number of seconds, not \(String(describing: other))"
            )
            return 64
        }
        let host: ApplicationHost
        do {
            host = try buildHost(
                console: console,
                manifest: manifest,
                launchOptions: launchOptions,
                terminateDeadline: deadline
            )
        } catch {
            console.write("error: \(error)")
            // Switches that cannot be read, or name no module, are a command line (or environment) to fix.
            return error.code == .invalidModuleSwitches ? 64 : 1
        }
        guard let router = host.router else { return 1 }
        if let help = router.help(for: arguments, program: "lifecycle-demo") {
            console.write(help)
            if arguments.first == "--help" || arguments.first == "-h" { console.write(helpEpilogue) }
            return 0
        }
        do {
            return try await router.run(arguments: arguments) as? Int32 ?? 1
        } catch {
            console.write("error: \(error.description)")
            return error.isCommandLineError ? 64 : 1
        }
    }

    /// Runs the demo, writing to `console`: builds a host of `manifest` and calls ``run(host:console:)``.
    ///
    /// - Parameter manifest: The modules to run; tests pass `ModuleManifest.DemoModules`, generated for this
    ///   target. It lists the modules in source order; priority decides the delivery order, and source
    ///   order breaks the tie between HealthCheck and CacheWarmup.
    /// - Returns: The process exit code: 0 when every step behaved as documented, 1 otherwise.
    public static func run(
        console: DemoConsole,
        manifest: ModuleManifest = .DemoModules,
        launchOptions: LaunchOptions = .current
    ) async -> Int32 {
        guard let host = makeHost(console: console, manifest: manifest, launchOptions: launchOptions) else { return 1 }
        return await run(host: host, console: console)
    }

    /// `lifecycle-demo run`: drives `host` through a whole lifecycle while printing every delivery.
    ///
    /// After launch it prints the launch profile and how each module did against its launch budget; under
    /// `budgets.enforce`, a module over its budget ends the run there: the host terminates and the exit
    /// code is 5.
    public static func run(
        host: ApplicationHost,
        console: DemoConsole,
        budgets: LaunchBudgetOptions = LaunchBudgetOptions()
    ) async -> Int32 {
        let scale: Double
        do {
            scale = try budgets.resolvedScale(environment: host.context.launchOptions.environment)
        } catch {
            console.write("error: \(error)")
            return 64
        }
        printPlan(of: host, to: console)
        let jobs = host.context.launchOptions[DemoServicesKey.self]?.jobs

        do {
            console.write("")
            console.write("▶ launch()")
            let launch = try await host.launch()
            console.write(
                "  = willFinishLaunching \(launch.willFinishLaunching), didFinishLaunching \(launch.didFinishLaunching)"
                    + "; state \(host.state)"
            )
            printLaunchProfile(of: host, to: console)
            if let exit = checkLaunchBudgets(of: host, scale: scale, enforce: budgets.enforce, console: console) {
                try await host.terminate()
                return exit
            }

            // QueueConsumer's work runs while the host is active: it takes the jobs as they come.
            if let jobs {
                console.write("▶ enqueue job 1, job 2")
                jobs.enqueue("job 1")
                jobs.enqueue("job 2")
                await jobs.waitUntilIdle()
            }

            console.write("▶ enterBackground()")
            do {
                try await host.enterBackground()
            } catch let error where error.code == .hookFailed {
                // The failing module is isolated: the others went to the background as usual.
                console.write("  = hookFailed: \(error.failures.map(\.description).joined(separator: "; "))")
            }
            console.write("  = state \(host.state)")

            // The open-URL event reaches the router after every module; its maintenance interceptor refuses
            // every route while the host is in the background.
            try await openReport(on: host, console: console)

            // The consumer's work stopped before willResignActive: a job that comes now waits for the foreground.
            if let jobs {
                console.write("▶ enqueue job 3")
                jobs.enqueue("job 3")
                console.write("  = \(jobs.waiting) job(s) waiting while the consumer is paused")
            }

            console.write("▶ enterForeground()")
            try await host.enterForeground()
            await jobs?.waitUntilIdle()  // its work started again after didBecomeActive and took job 3
            console.write("  = state \(host.state)")

            console.write("▶ receiveMemoryWarning()")
            try await host.receiveMemoryWarning()
            try await host.waitUntilIdle()  // the CachePurged event the cache posted is delivered by now
            console.write("  = state \(host.state)")

            // The cache is cold now: the report's interceptor switches to WarmCache, then restarts the report.
            try await openReport(on: host, console: console)

            // A background job runs in a job scope, below the application's lifecycle.
            guard await runExportJob(on: host, console: console) else {
                try? await host.terminate()
                return 1
            }

            // A module can leave a running host and join it again: removal takes it down from `active`
            // (it implements only willResignActive of those), registration catches it up (didBecomeActive).
            console.write("▶ remove(HealthCheckModule), then register(HealthCheckModule)")
            try await host.remove(HealthCheckModule.self)
            try await host.register(HealthCheckModule.self)
            console.write("  = \(host.participants.count) participants; state \(host.state)")

            for link in ["demo://product/42", "https://example.com/pricing"] {
                console.write("▶ open(\(link))")
                let handled = try await host.open(URL(string: link)!)
                console.write("  = handled \(handled)")
            }

            console.write("▶ send(ReloadConfiguration)")
            let changed = try await host.send(ReloadConfiguration(reason: "SIGHUP"))
            console.write("  = changed \(changed)")

            console.write("▶ enterForeground() while active (not allowed)")
            do {
                try await host.enterForeground()
                console.write("  unexpected: the host accepted it")
                return 1
            } catch {
                console.write("  = \(error.code): \(error.description)")
            }

            console.write("▶ terminate()")
            try await host.terminate()
            console.write("  = state \(host.state)")
        } catch {
            console.write("error: \(error)")
            if host.state.isRunning { try? await host.terminate() }  // still release what the modules hold
            return 1
        }
        return 0
    }

    /// Opens `app://reports/24` through the host's open-URL event, and prints what came of it.
    static func openReport(on host: ApplicationHost, console: DemoConsole) async throws(LifecycleError) {
        console.write("▶ open(app://reports/24) while \(host.state)")
        do {
            console.write("  = handled \(try await host.open(URL(string: "app://reports/24")!))")
        } catch let error where error.code == .hookFailed {
            console.write("  = hookFailed: \(error.failures.map(\.description).joined(separator: "; "))")
        }
    }

    /// Prints the discovered modules and the resolved delivery order of every event, delivering nothing.
    public static func plan(console: DemoConsole, manifest: ModuleManifest = .DemoModules) -> Int32 {
        guard let host = makeHost(console: console, manifest: manifest, launchOptions: .current) else { return 1 }
        return plan(host: host, console: console)
    }

    /// `lifecycle-demo plan`: prints the discovered modules of `host`, its routes, and the resolved delivery
    /// order of every event, delivering nothing.
    public static func plan(host: ApplicationHost, console: DemoConsole, format: PlanCommand.Format = .text) -> Int32 {
        guard let manifest = host.context.launchOptions[DemoManifestKey.self] else { return 1 }
        let events = LifecycleEvent.builtinEvents + host.customEvents
        switch format {
        case .text:
            break
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            guard let data = try? encoder.encode(events.map { host.explainPlan(for: $0) }) else { return 1 }
            console.write(String(decoding: data, as: UTF8.self))
            return 0
        case .dot:
            console.write(host.planGraph())
            return 0
        }
        console.write(
            "Discovered \(manifest.entries.count) modules in \(manifest.sourceModules.joined(separator: ", ")):"
        )
        for entry in manifest.entries {
            console.write("  \(entry.moduleName)  priority \(entry.priority)")
        }
        console.write("")
        printPlan(of: host, to: console)
        console.write("")
        console.write("Why each participant is where it is (Docs/Ordering.md):")
        for event in events {
            for line in host.explainPlan(for: event).description.split(separator: "\n") { console.write(String(line)) }
        }
        return 0
    }

    /// What `lifecycle-demo --help` adds after the commands: the environment it reads and its exit codes,
    /// the same table as Docs/Hosting.md's "Exit codes" (a test compares the two).
    static let helpEpilogue = """

        Environment:
          LIFECYCLE_SIGNALS          serve's signal map, as "TERM=terminate HUP=reload" (--signals wins)
          LIFECYCLE_MODULES_FILE     a file of NAME = on|off lines, read again on SIGHUP (--modules-file wins)
          LIFECYCLE_DISABLE_MODULES  modules to turn off, comma-separated (--disable-module wins)
          LIFECYCLE_ENABLE_MODULES   modules to turn on, comma-separated (--enable-module wins)
          LIFECYCLE_PROFILE          the launch profile, as production (--profile wins)
          LIFECYCLE_BUDGET_SCALE     every launch budget times this factor (--budget-scale wins)
          NOTIFY_SOCKET              serve tells systemd READY, RELOADING, STOPPING, STATUS through it
          WATCHDOG_USEC              serve pets systemd's watchdog every half of it

        Exit codes:
          0        clean: the host terminated and every willTerminate hook returned
          1        terminate failed: willTerminate hooks threw; or run: a step did not behave as documented
          3        launch failed: launch aborted, or the host was already terminated
          4        deadline exceeded: termination ran past a time limit
          5        launch budget exceeded: under --enforce-budgets, a module launched slower than its budget
          6        work failed: a module's work failed past its policy and terminated the application
          64       usage: a command line, signal map or module switch that cannot be used; nothing ran
          128 + n  interrupted: signal n cut termination short (130 for a second SIGINT)
        """

    /// `lifecycle-demo trace FILE`: launch, background, foreground and terminate, then the journal as a
    /// Chrome trace in `path`. Hook failures are part of what the trace shows, so they do not stop it.
    public static func trace(host: ApplicationHost, console: DemoConsole, to path: String) async -> Int32 {
        _ = try? await host.launch()
        _ = try? await host.enterBackground()
        _ = try? await host.enterForeground()
        _ = try? await host.terminate()
        guard let journal = host.journal else { return 1 }
        do {
            try journal.exportTrace().write(to: URL(fileURLWithPath: path))
        } catch {
            console.write("error: cannot write the trace to \(path): \(error)")
            return 1
        }
        console.write("trace: \(journal.entries.count) deliveries written to \(path); open it in ui.perfetto.dev")
        return 0
    }

    /// `lifecycle-demo timeline FILE`: launch and terminate, then the launch as an SVG Gantt chart in `path`.
    public static func timeline(host: ApplicationHost, console: DemoConsole, to path: String) async -> Int32 {
        _ = try? await host.launch()
        _ = try? await host.terminate()
        guard let journal = host.journal else { return 1 }
        do {
            try Data(journal.launchTimelineSVG(title: "lifecycle-demo: launch").utf8).write(
                to: URL(fileURLWithPath: path)
            )
        } catch {
            console.write("error: cannot write the timeline to \(path): \(error)")
            return 1
        }
        console.write("timeline: the launch written to \(path)")
        return 0
    }

    static func makeHost(
        console: DemoConsole,
        manifest: ModuleManifest,
        launchOptions: LaunchOptions,
        terminateDeadline: Duration? = .seconds(60)
    ) -> ApplicationHost? {
        do {
            return try buildHost(
                console: console,
                manifest: manifest,
                launchOptions: launchOptions,
                terminateDeadline: terminateDeadline
            )
        } catch {
            console.write("error: \(error)")
            return nil
        }
    }

    static func buildHost(
        console: DemoConsole,
        manifest: ModuleManifest,
        launchOptions: LaunchOptions,
        terminateDeadline: Duration? = .seconds(60)
    ) throws(ManifestError) -> ApplicationHost {
        var options = launchOptions
        options[DemoServicesKey.self] = DemoServices(console: console)
        options[DemoManifestKey.self] = manifest
        let configuration = ApplicationHost.Configuration(
            terminateDeadline: terminateDeadline,
            onDelivery: { record in
                console.write((record.error == nil ? "  ✓ " : "  ✗ ") + describe(record))
            }
        )
        return try ApplicationHost(
            // A job's end may take 5 seconds; the job actions themselves are discovered.
            manifest: manifest.withScopes(endBudget: .seconds(5)),
            delegate: DemoAppDelegate(console: console),
            launchOptions: options,
            configuration: configuration
        )
    }

    static func printPlan(of host: ApplicationHost, to console: DemoConsole) {
        console.write("Participants (\(host.participants.count)), in priority order:")
        for participant in host.participants {
            console.write("  \(shortName(participant))  \(participant.priority.map { "\($0)" } ?? "program delegate")")
        }
        for (name, reason) in host.disabledModules {
            console.write("  \(String(name.split(separator: ".").last ?? ""))  disabled: \(reason)")
        }
        let constrained = host.participants.filter { !host.dependencies(of: $0).isEmpty }
        if !constrained.isEmpty {
            console.write("")
            console.write("Ordering: who waits for whom, and why (forward events after, reverse events before)")
            for participant in constrained {
                for dependency in host.dependencies(of: participant) {
                    console.write(
                        "  \(shortName(participant)) after \(shortName(dependency.module)): \(dependency.reason)"
                    )
                }
            }
        }
        if !host.workStatus.isEmpty {
            console.write("")
            console.write("Work: what each module runs, when, and its policy (stops in reverse order)")
            for work in host.workStatus {
                let name = "\(String(work.module.split(separator: ".").last ?? "")).\(work.name)"
                let ready = work.reportsReadiness ? "; reports readiness" : ""
                console.write("  \(name.padding(24)) \(work.schedule)\(ready): \(work.policy)")
            }
        }
        if let routes = host.context.messageBus?.routes, !routes.isEmpty {
            console.write("")
            console.write("Messages: who receives each message type, in delivery order")
            for (message, receivers) in routes {
                let padded = message + String(repeating: " ", count: max(0, 24 - message.count))
                console.write("  \(padded) → \(receivers.map { label($0) }.joined(separator: ", "))")
            }
        }
        if let router = host.router, !router.routes.isEmpty {
            console.write("")
            console.write(
                "Routes: who serves each route, after the interceptors \(router.interceptors.map { String($0.split(separator: ".").last ?? "") }.joined(separator: " → "))"
            )
            for route in router.routes {
                let reach = [route.pattern.map { "\($0)" }, route.command.map { "command `\($0.name)`" }]
                    .compactMap { $0 }.joined(separator: ", ")
                let name = String(route.name.split(separator: ".").last ?? "")
                let server = String(route.server.split(separator: ".").last ?? "")
                console.write("  \(name.padding(14)) \((reach.isEmpty ? "by value" : reach).padding(22)) → \(server)")
            }
        }
        console.write("")
        console.write("Launch plan: who receives each event, in delivery order")
        for event in LifecycleEvent.builtinEvents + host.customEvents {
            let receivers = host.plan(for: event).map { label($0) }
            let direction = event.direction == .forward ? "→" : "←"
            let padded = event.name + String(repeating: " ", count: max(0, 24 - event.name.count))
            console.write(
                "  \(padded) \(direction) \(receivers.isEmpty ? "(nobody)" : receivers.joined(separator: ", "))"
            )
        }
    }

    /// The launch-time profile from the host's journal, slowest participant first.
    static func printLaunchProfile(of host: ApplicationHost, to console: DemoConsole) {
        guard let journal = host.journal else { return }
        console.write("  Launch profile, slowest first (from host.journal):")
        let rows = journal.profile(for: [
            .willFinishLaunching, .setup, .initialize, .warmUp, .didFinishLaunching, .didBecomeActive,
        ])
        for row in rows {
            let name = String(row.participant.split(separator: ".").last ?? Substring(row.participant))
            let padded = name + String(repeating: " ", count: max(0, 22 - name.count))
            let priority = row.priority.map(String.init) ?? "delegate"
            let calls = row.calls == 1 ? "1 call " : "\(row.calls) calls"
            console.write("    \(padded) \(priority.padding(8)) \(calls)  \(row.total.microsecondsDescription)")
        }
    }

    static func describe(_ record: DeliveryRecord) -> String {
        var text = "\(record.event.name) → \(label(record.participant))"
        if record.event.isMessage { text = "message \(text) from \(record.sender.map(shortName) ?? "nobody")" }
        text += " (\(record.duration.microsecondsDescription))"
        if let result = record.result { text += " → \(result)" }
        if let error = record.error { text += " threw \(error)" }
        return text
    }

    static func label(_ participant: Participant) -> String {
        "\(shortName(participant)) [\(participant.priority.map { String($0.rawValue) } ?? "delegate")]"
    }

    static func shortName(_ participant: Participant) -> String {
        String(participant.name.split(separator: ".").last ?? Substring(participant.name))
    }
}

/// The manifest the demo host was built from, for `plan`.
enum DemoManifestKey: LaunchOptionKey {
    static let defaultValue: ModuleManifest? = nil
}

extension RouteError {
    /// Whether the command line itself was wrong: the program exits 64 (EX_USAGE) then.
    var isCommandLineError: Bool {
        [
            .noRoute, .unknownOption, .missingArgument, .unexpectedArgument, .invalidParameter, .missingParameter,
            .invalidInput,
        ]
        .contains(code)
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
