import DemoModules
import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

@Suite("lifecycle-demo")
struct LifecycleDemoTests {
    /// The deliveries the demo prints, as "event → Module", in order.
    static let expectedDeliveries = [
        // launch(): delegate first, then priority order; HealthCheck/CacheWarmup tie → manifest order.
        "willFinishLaunching → ConfigurationModule", "willFinishLaunching → LoggingModule",
        // The concurrent warm-up stage: the cache depends on the pool, so it starts after it.
        "setup → ServiceRegistryModule", "initialize → ServiceRegistryModule",
        "warmUp → DatabasePoolModule", "warmUp → CacheWarmupModule",
        "didFinishLaunching → DemoAppDelegate",
        "didBecomeActive → HealthCheckModule", "didBecomeActive → MetricsModule",
        // enterBackground(): reverse order.
        "willResignActive → HealthCheckModule",
        // The report exporter fails (✗); the others still go to the background.
        "didEnterBackground → MetricsModule", "didEnterBackground → ReportExporterModule",
        "didEnterBackground → DatabasePoolModule",
        // open(app://reports/24) in the background: the router, last, is refused by its maintenance interceptor.
        "openURL → DeepLinkModule", "openURL → RouterModule",
        // enterForeground()
        "willEnterForeground → DatabasePoolModule",
        "didBecomeActive → HealthCheckModule", "didBecomeActive → MetricsModule",
        // receiveMemoryWarning(), then the CachePurged event the cache posted from its hook.
        "didReceiveMemoryWarning → CacheWarmupModule", "didReceiveMemoryWarning → MetricsModule",
        "CachePurged → MetricsModule",
        // open(app://reports/24) with the cache cold: switched to WarmCache, restarted, served.
        "openURL → DeepLinkModule", "openURL → RouterModule",
        // The health check leaves (its teardown from active) and rejoins (its catch-up to active).
        "willResignActive → HealthCheckModule", "didBecomeActive → HealthCheckModule",
        // open(_:) twice: the deep link asks the cache for the product's name, a message, during its hook.
        // Neither is a route: the router answers false.
        "message CachedProductName → CacheWarmupModule", "openURL → DeepLinkModule", "openURL → RouterModule",
        "openURL → DeepLinkModule", "openURL → RouterModule",
        // The custom ReloadConfiguration event: the configuration tells the modules that care, by message,
        // in delivery order, while it handles the event.
        "message ConfigurationChanged → CacheWarmupModule", "message ConfigurationChanged → MetricsModule",
        "ReloadConfiguration → ConfigurationModule",
        // terminate(): reverse order, the program's delegate last.
        "willTerminate → MetricsModule", "willTerminate → DatabasePoolModule", "willTerminate → LoggingModule",
        "willTerminate → ServiceRegistryModule",
        "willTerminate → DemoAppDelegate",
    ]

    @Test("The demo runs the whole lifecycle, delivers in the documented order and exits 0")
    func demoRunsInOrder() async throws {
        let console = DemoConsole(echo: false)
        let status = await LifecycleDemo.run(
            console: console,
            launchOptions: LaunchOptions(arguments: ["lifecycle-demo"])
        )
        #expect(status == 0, "\(console.transcript.joined(separator: "\n"))")

        let deliveries = console.transcript
            .filter { $0.hasPrefix("  ✓ ") || $0.hasPrefix("  ✗ ") }
            .map { line in line.dropFirst(4).split(separator: " [")[0] }
            .map(String.init)
        #expect(deliveries == Self.expectedDeliveries)
    }

    @Test("The demo prints the combined results and the refused transition")
    func demoPrintsResults() async throws {
        let console = DemoConsole(echo: false)
        _ = await LifecycleDemo.run(console: console, launchOptions: LaunchOptions(arguments: ["lifecycle-demo"]))
        let transcript = console.transcript
        #expect(transcript.contains("  = willFinishLaunching true, didFinishLaunching true; state active"))
        #expect(transcript.contains("  = handled true"))
        #expect(transcript.contains("  = handled false"))
        #expect(transcript.contains("  = changed false"))
        #expect(
            transcript.contains(
                "  = hookFailed: `DemoModules.ReportExporterModule` threw in didEnterBackground: "
                    + "report endpoint unreachable (connection refused)"
            )
        )
        #expect(transcript.contains { $0.hasPrefix("  ✗ didEnterBackground → ReportExporterModule") })
        #expect(
            transcript.contains {
                $0.hasPrefix("  = invalidTransition: Cannot enterForeground() while the host is active")
            }
        )
        #expect(transcript.last == "  = state terminated")
    }

    @Test("The export job runs in a job scope: the discovered action and the adopted behavior hear it, in order")
    func exportJob() async throws {
        let console = DemoConsole(echo: false)
        let code = await LifecycleDemo.run(
            console: console,
            launchOptions: LaunchOptions(arguments: ["lifecycle-demo"])
        )
        #expect(code == 0)
        let transcript = console.transcript
        let start = try #require(transcript.firstIndex(of: "▶ withScope(.job, \"export reports\")"))
        #expect(
            Array(transcript[start...].prefix(9)) == [
                "▶ withScope(.job, \"export reports\")",
                "    JobLog: job \"export reports\" began",
                "    ExportProgress: activation 1, batch 1 started",
                "    in flight: job \"export reports\"",
                "    ReportExporter: report for day 23: 128 products cached",
                "    ReportExporter: report for day 24: 128 products cached",
                "    ExportProgress: 1 batch(es) done",
                "    JobLog: job \"export reports\" ended, 0 failure(s)",
                "  = 2 report(s) exported; in flight now: 0",
            ]
        )
    }

    @Test("After launch the demo prints the launch profile from the journal, the deliberately slow pool first")
    func launchProfile() async throws {
        let console = DemoConsole(echo: false)
        _ = await LifecycleDemo.run(console: console, launchOptions: LaunchOptions(arguments: ["lifecycle-demo"]))
        let transcript = console.transcript
        let heading = try #require(transcript.firstIndex(of: "  Launch profile, slowest first (from host.journal):"))
        let rows = transcript[(heading + 1)...].prefix { $0.hasPrefix("    ") && !$0.hasPrefix("    ·") }
        // The pool sleeps 5 ms while "connecting"; every other launch hook takes microseconds.
        #expect(rows.first?.hasPrefix("    DatabasePoolModule     5500     1 call ") == true, "\(rows)")
        // Eight participants have a launch hook: the delegate, the service registry (setup and initialize)
        // and every module but DeepLink.
        #expect(rows.count == 8)
        #expect(!rows.contains { $0.contains("DeepLinkModule") })
    }

    @Test("The modules' work is visible: the pool opens, the cache warms and the pool closes")
    func modulesDoVisibleWork() async throws {
        let console = DemoConsole(echo: false)
        _ = await LifecycleDemo.run(
            console: console,
            launchOptions: LaunchOptions(arguments: ["lifecycle-demo", "--env", "staging"])
        )
        let work = console.transcript.filter { $0.hasPrefix("    ") }
        #expect(work.first == "    Configuration: environment=staging, pool size=4, cache rows=128")
        #expect(work.contains("    CacheWarmup: warmed 128 entries from the database"))
        #expect(work.contains("    DatabasePool: closed 4 connection(s)"))
        #expect(work.contains("    Configuration: told 2 module(s) through the message bus"))
        #expect(
            work.contains(
                "    Metrics: activations=2, backgrounds=1, memory warnings=1, purged entries=128, configuration changes=1"
            )
        )
    }

    @Test("The queue consumer's work pauses in the background and resumes in the foreground, between the hooks")
    func queueConsumerFollowsTheActiveState() async throws {
        let console = DemoConsole(echo: false)
        #expect(
            await LifecycleDemo.run(console: console, launchOptions: LaunchOptions(arguments: ["lifecycle-demo"])) == 0
        )
        let lines = console.transcript
        func index(_ line: String, after start: Int = 0) throws -> Int {
            try #require(lines[start...].firstIndex { $0.hasPrefix(line) }, "no \(line) after line \(start)")
        }
        // Launched and active: the work takes the first two jobs.
        let jobs = try index("▶ enqueue job 1, job 2")
        #expect(
            Array(lines[(jobs + 1)...(jobs + 2)]) == [
                "    QueueConsumer: processed job 1", "    QueueConsumer: processed job 2",
            ]
        )
        // Background: the work stops before the first willResignActive hook; the next job waits.
        let background = try index("▶ enterBackground()")
        #expect(lines[background + 1] == "    QueueConsumer: paused, 0 job(s) waiting")
        #expect(try index("  ✓ willResignActive", after: background) > background + 1)
        let queued = try index("▶ enqueue job 3")
        #expect(lines[queued + 1] == "  = 1 job(s) waiting while the consumer is paused")
        // Foreground: it starts again after didBecomeActive and takes the job that waited.
        let foreground = try index("▶ enterForeground()", after: queued)
        let processed = try index("    QueueConsumer: processed job 3", after: foreground)
        #expect(processed > (try index("  ✓ didBecomeActive", after: foreground)))
        // Termination: it stops once more, before willTerminate.
        let terminate = try index("▶ terminate()")
        #expect(lines[terminate + 1] == "    QueueConsumer: paused, 0 job(s) waiting")
        #expect(lines.filter { $0.hasPrefix("    QueueConsumer: paused") }.count == 2)
    }

    @Test("The generated manifest lists the demo modules in source order")
    func generatedManifest() {
        #expect(
            ModuleManifest.DemoModules.entries.map(\.moduleName) == [
                "DemoModules.DemoCommandsModule", "DemoModules.ConfigurationModule", "DemoModules.LoggingModule",
                "DemoModules.DatabasePoolModule",
                "DemoModules.HealthCheckModule", "DemoModules.CacheWarmupModule", "DemoModules.DeepLinkModule",
                "DemoModules.MetricsModule", "DemoModules.AuditLogModule", "DemoModules.ReportExporterModule",
                "DemoModules.SlowShutdownModule", "DemoModules.QueueConsumerModule", "DemoModules.ListenerModule",
            ]
        )
        #expect(ModuleManifest.DemoModules.sourceModules == ["DemoModules"])
    }

    @Test("The generated manifest is complete: every module type of DemoModules is in it")
    func generatedManifestIsComplete() throws {
        try verifyModuleManifestCompleteness(.DemoModules)
    }

    @Test("plan prints every discovered module and the order of every event, and delivers nothing")
    func planListsModulesAndOrder() {
        let console = DemoConsole(echo: false)
        #expect(LifecycleDemo.plan(console: console) == 0)
        let transcript = console.transcript
        #expect(transcript.first == "Discovered 13 modules in DemoModules:")
        #expect(
            transcript.contains(
                "  AuditLogModule  disabled: enabled only in profile production; the launch profile is not set"
            )
        )
        #expect(transcript.contains("  DemoModules.ConfigurationModule  priority 11000"))
        #expect(
            transcript.contains {
                $0.hasPrefix("  willTerminate            ← MetricsModule [1000], DatabasePoolModule [5500]")
            }
        )
        // The edges a required service adds, with the service named.
        #expect(transcript.contains("  CacheWarmupModule after DatabasePoolModule: requires service `DatabaseClient`"))
        #expect(
            transcript.contains("  ReportExporterModule after DatabasePoolModule: requires service `DatabaseClient`")
        )
        #expect(!transcript.contains { $0.hasPrefix("  ✓ ") })
    }

    @Test("With --profile production the gated audit log takes part")
    func productionProfile() async throws {
        let console = DemoConsole(echo: false)
        let status = await LifecycleDemo.run(
            console: console,
            launchOptions: LaunchOptions(arguments: ["lifecycle-demo", "--profile", "production"])
        )
        #expect(status == 0)
        #expect(console.transcript.contains("    AuditLog: shipping audit records to the compliance store"))
        #expect(console.transcript.contains { $0.hasPrefix("  ✓ willTerminate → AuditLogModule [1100]") })
    }

    @Test("A demo module created without its services fails with an error that names it")
    func missingServices() {
        let error = #expect(throws: ManifestError.self) {
            try DelegateProxy(manifest: .DemoModules)
        }
        #expect(error?.code == .moduleInitializationFailed)
        #expect(
            error?.modules.count == 10,
            "every enabled module; the audit log and the listener are disabled without a profile and serve"
        )
        #expect(error?.description.contains("DemoServices") == true)
    }

    @Test("The report route: refused in the background; with the cache cold, switched to WarmCache and restarted")
    func reportRoute() async throws {
        let console = DemoConsole(echo: false)
        #expect(
            await LifecycleDemo.run(console: console, launchOptions: LaunchOptions(arguments: ["lifecycle-demo"])) == 0
        )
        let lines = console.transcript
        let background = try #require(lines.firstIndex(of: "▶ open(app://reports/24) while background"))
        #expect(
            lines[background...].contains(
                "    MaintenanceInterceptor: rejecting DemoModules.ShowReport while in the background"
            )
        )
        #expect(
            lines[background...].contains {
                $0.hasPrefix(
                    "  = hookFailed: `LifecycleRouting.RouterModule` threw in openURL: DemoModules.MaintenanceInterceptor rejected"
                )
            }
        )
        let active = try #require(lines.firstIndex(of: "▶ open(app://reports/24) while active"))
        #expect(
            Array(lines[(active + 1)...].filter { $0.hasPrefix("    ") }.prefix(4)) == [
                "    DeepLink: app://reports/24 is not a product link",
                "    CacheWarmInterceptor: the cache is cold; switching to WarmCache, then restarting",
                "    CacheWarmup: warmed 128 entries on demand",
                "    ReportExporter: report for day 24: 128 products cached",
            ]
        )
        #expect(lines[active...].contains("  = handled true"))
    }

    @Test("--help lists the environment and the exit codes, the same codes as Docs/Hosting.md's table")
    func helpListsExitCodes() async throws {
        let console = DemoConsole(echo: false)
        let options = LaunchOptions(arguments: ["lifecycle-demo", "--help"])
        #expect(await LifecycleDemo.main(arguments: ["--help"], console: console, launchOptions: options) == 0)
        let help = console.transcript.joined(separator: "\n")
        for variable in [
            "LIFECYCLE_SIGNALS", "LIFECYCLE_MODULES_FILE", "LIFECYCLE_DISABLE_MODULES", "LIFECYCLE_ENABLE_MODULES",
            "LIFECYCLE_PROFILE", "LIFECYCLE_BUDGET_SCALE", "NOTIFY_SOCKET", "WATCHDOG_USEC",
        ] {
            #expect(help.contains("\n  \(variable) "), "\(variable)")
        }
        // The codes --help lists, in order, against the first column of the table in Docs/Hosting.md.
        let listed = help.components(separatedBy: "Exit codes:\n").last?.split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") ? line.dropFirst(2).components(separatedBy: "  ").first : nil
        }
        let hosting = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../Docs/Hosting.md"
            ),
            encoding: .utf8
        )
        let table = try #require(hosting.components(separatedBy: "### Exit codes\n").last)
        let documented = table.split(separator: "\n").prefix { !$0.hasPrefix("#") }.compactMap { row -> String? in
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard row.hasPrefix("| "), let code = cells.first, code != "code", !code.hasPrefix("---") else {
                return nil
            }
            return code
        }
        #expect(documented == ["0", "1", "3", "4", "5", "6", "64", "128 + n"])
        #expect(listed == documented)
    }

    @Test("plan explains the order: as text, as JSON for tools, as a DOT graph that parses")
    func planFormats() async throws {
        func plan(_ format: String?) async -> (Int32, [String]) {
            let arguments = ["plan"] + (format.map { ["--format", $0] } ?? [])
            let console = DemoConsole(echo: false)
            let status = await LifecycleDemo.main(
                arguments: arguments,
                console: console,
                launchOptions: LaunchOptions(arguments: ["lifecycle-demo"] + arguments)
            )
            return (status, console.transcript)
        }
        let (textStatus, text) = await plan(nil)
        #expect(textStatus == 0)
        #expect(
            text.contains(
                "  2. CacheWarmupModule  after DatabasePoolModule, a dependency (requires service `DatabaseClient`); "
                    + "priority 5000  [stages: warmUp]  [launch budget 100.0 ms]"
            )
        )
        let (jsonStatus, json) = await plan("json")
        #expect(jsonStatus == 0)
        let plans = try JSONDecoder().decode([PlanExplanation].self, from: Data(json.joined(separator: "\n").utf8))
        let warmUp = try #require(plans.first { $0.event == "warmUp" })
        #expect(
            warmUp.reason(for: "DemoModules.CacheWarmupModule", comingAfter: "DemoModules.DatabasePoolModule")
                == .dependency(on: "DemoModules.DatabasePoolModule", reason: "requires service `DatabaseClient`")
        )
        #expect(warmUp.disabled.contains { $0.module == "DemoModules.AuditLogModule" })
        let (dotStatus, dot) = await plan("dot")
        #expect(dotStatus == 0)
        let graph = try DOTSyntax.parse(dot.joined(separator: "\n"))
        #expect(
            graph.edges.contains {
                $0.from == "DemoModules.CacheWarmupModule" && $0.to == "DemoModules.DatabasePoolModule"
            }
        )
        #expect(graph.subgraphs.contains("cluster_warmUp"))
        #expect(await plan("yaml").0 == 64)
    }

    @Test("trace FILE writes the lifecycle as a Chrome trace: every delivery, the launch enclosing its events")
    func traceCommand() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let console = DemoConsole(echo: false)
        let arguments = ["trace", path]
        let status = await LifecycleDemo.main(
            arguments: arguments,
            console: console,
            launchOptions: LaunchOptions(arguments: ["lifecycle-demo"] + arguments)
        )
        #expect(status == 0)
        let written = try #require(console.transcript.last)
        #expect(written.hasPrefix("trace: ") && written.hasSuffix("written to \(path); open it in ui.perfetto.dev"))
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let events = try #require((document as? [String: Any])?["traceEvents"] as? [[String: Any]])
        let delivered = Set(
            events.filter { $0["cat"] as? String == "delivery" }.compactMap { $0["name"] as? String }
        )
        #expect(delivered.isSuperset(of: ["DemoModules.DatabasePoolModule", "DemoModules.CacheWarmupModule"]))
        #expect(events.contains { $0["name"] as? String == "launch" && $0["ph"] as? String == "X" })
        #expect(events.contains { $0["name"] as? String == "willTerminate" && $0["cat"] as? String == "event" })
        #expect(await LifecycleDemo.main(arguments: ["trace"], console: DemoConsole(echo: false)) == 64)
    }

    @Test("timeline FILE writes the launch as an SVG that parses and names every launching module")
    func timelineCommand() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID()).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = ["timeline", path]
        let console = DemoConsole(echo: false)
        let status = await LifecycleDemo.main(
            arguments: arguments,
            console: console,
            launchOptions: LaunchOptions(arguments: ["lifecycle-demo"] + arguments)
        )
        #expect(status == 0)
        #expect(console.transcript.last == "timeline: the launch written to \(path)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>"))
        for module in ["ConfigurationModule", "DatabasePoolModule", "CacheWarmupModule", "ServiceRegistryModule"] {
            #expect(svg.contains(">\(module)</text>"), "\(module)")
        }
    }

    @Test("--enforce-budgets: a module over its launch budget makes run and serve exit 5, the host terminated")
    func enforceBudgets() async throws {
        func demo(_ arguments: [String], environment: [String: String] = [:]) async -> (Int32, [String]) {
            let console = DemoConsole(echo: false)
            let options = LaunchOptions(arguments: ["lifecycle-demo"] + arguments, environment: environment)
            let status = await LifecycleDemo.main(arguments: arguments, console: console, launchOptions: options)
            return (status, console.transcript)
        }
        // A budget scaled to a nanosecond: every budgeted module is over, whatever the machine.
        for command in ["run", "serve"] {
            let (status, transcript) = await demo([command, "--enforce-budgets", "--budget-scale", "0.000001"])
            #expect(status == 5, "\(command)")
            #expect(transcript.contains("  2 of 2 modules over budget (budgets × 1e-06):"), "\(command)")
            #expect(
                transcript.contains { $0.hasPrefix("error: --enforce-budgets: DatabasePoolModule, CacheWarmupModule") },
                "\(command)"
            )
            // The host terminated: its modules released what they hold.
            #expect(transcript.contains { $0.hasPrefix("  ✓ willTerminate → LoggingModule") }, "\(command)")
        }
        // Budgets scaled to minutes: within, so the scripted run goes on to the end.
        let (within, transcript) = await demo(
            ["run", "--enforce-budgets"],
            environment: ["LIFECYCLE_BUDGET_SCALE": "1000"]
        )
        #expect(within == 0)
        #expect(transcript.contains("  every module within its launch budget (budgets × 1000.0):"))
        // A scale that is no positive number is a usage error: nothing runs.
        for bad in [["run", "--budget-scale", "0"], ["serve", "--budget-scale", "abc"]] {
            let (status, transcript) = await demo(bad)
            #expect(status == 64, "\(bad)")
            #expect(!transcript.contains { $0.hasPrefix("  ✓ ") }, "nothing was delivered")
        }
        let (fromEnvironment, _) = await demo(["run"], environment: ["LIFECYCLE_BUDGET_SCALE": "-2"])
        #expect(fromEnvironment == 64)
    }

    @Test("Module switches that name no module, or a file that cannot be read, exit 64 before anything runs")
    func badSwitchesExit64() async throws {
        for arguments in [
            ["plan", "--disable-module", "NoSuchModule"], ["run", "--modules-file", "/nonexistent/m.conf"],
        ] {
            let console = DemoConsole(echo: false)
            let options = LaunchOptions(arguments: ["lifecycle-demo"] + arguments)
            #expect(await LifecycleDemo.main(arguments: arguments, console: console, launchOptions: options) == 64)
            #expect(console.transcript.last?.hasPrefix("error: The module switches of manifest") == true)
            #expect(!console.transcript.contains { $0.hasPrefix("  ✓ ") }, "nothing was delivered")
        }
    }

    @Test("The subcommands are the router's command routes: --help lists them, an unknown one exits 64")
    func commandsAreRoutes() async throws {
        let console = DemoConsole(echo: false)
        let options = LaunchOptions(arguments: ["lifecycle-demo", "--help"])
        #expect(await LifecycleDemo.main(arguments: ["--help"], console: console, launchOptions: options) == 0)
        let help = console.transcript.joined(separator: "\n")
        for command in ["plan", "run", "serve"] { #expect(help.contains("\n  \(command) ")) }
        #expect(help.contains("(default)"))

        let serveHelp = DemoConsole(echo: false)
        #expect(
            await LifecycleDemo.main(arguments: ["serve", "--help"], console: serveHelp, launchOptions: options) == 0
        )
        #expect(serveHelp.transcript.first?.hasPrefix("usage: lifecycle-demo serve [--signals MAP]") == true)

        let unknown = DemoConsole(echo: false)
        #expect(await LifecycleDemo.main(arguments: ["deploy"], console: unknown, launchOptions: options) == 64)
        #expect(unknown.transcript.last?.hasPrefix("error: Unknown command `deploy`") == true)

        let typo = DemoConsole(echo: false)
        #expect(
            await LifecycleDemo.main(arguments: ["plan", "--fromat", "json"], console: typo, launchOptions: options)
                == 64
        )
        #expect(
            typo.transcript.last
                == "error: `plan` has no option --fromat. Usage: plan [--format text|json|dot] [--profile NAME] "
                + "[--modules-file PATH] [--disable-module NAME] [--enable-module NAME]"
        )

        let plan = DemoConsole(echo: false)
        #expect(await LifecycleDemo.main(arguments: ["plan"], console: plan, launchOptions: options) == 0)
        #expect(
            plan.transcript.contains { $0.hasPrefix("  ShowReport     app://reports/:day     → ReportExporterModule") }
        )
        #expect(!plan.transcript.contains { $0.hasPrefix("  ✓ ") })
    }
}
