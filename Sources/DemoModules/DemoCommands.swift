public import LifecycleCore
public import LifecycleRouting

/// `lifecycle-demo` (or `lifecycle-demo run`): drives the demo host through a whole lifecycle.
public struct RunCommand: Route {
    public static let command: RouteCommand? = RouteCommand(
        "run",
        summary: "Drives the demo host through a whole lifecycle, printing every delivery",
        options: LaunchBudgetOptions.declared + moduleSwitchOptions,
        isDefault: true
    )
    public typealias Result = Int32

    /// `--enforce-budgets` and `--budget-scale`.
    public let budgets: LaunchBudgetOptions

    public init(parameters: RouteParameters) throws {
        budgets = try LaunchBudgetOptions(parameters: parameters)
    }
}

/// `lifecycle-demo plan`: prints who receives each event, delivering nothing.
public struct PlanCommand: Route {
    public static let command: RouteCommand? = RouteCommand(
        "plan",
        summary: "Prints the discovered modules, routes and the delivery order of every event; delivers nothing",
        options: [
            .init(
                "format",
                value: "text|json|dot",
                summary: "text (default): why each participant is where it is; json for tools; dot for Graphviz"
            )
        ] + moduleSwitchOptions
    )
    public typealias Result = Int32

    /// How `plan` prints.
    public enum Format: String, Sendable, RouteParameterValue {
        /// The modules, routes, and each event's plan with why each participant is where it is.
        case text
        /// Every event's ``LifecycleCore/PlanExplanation``, as JSON.
        case json
        /// The modules and their dependencies as a Graphviz graph (`ApplicationHost.planGraph()`).
        case dot
    }

    /// `--format`, `text` by default.
    public let format: Format

    public init(parameters: RouteParameters) throws {
        format = try parameters.get("format", as: Format.self) ?? .text
    }
}

/// `lifecycle-demo trace FILE`: drives the demo host through launch, background, foreground and terminate,
/// then writes its journal as a Chrome trace (Perfetto) to `FILE`.
public struct TraceCommand: Route {
    public static let command: RouteCommand? = RouteCommand(
        "trace",
        summary: "Runs the lifecycle once and writes it as a Chrome trace for ui.perfetto.dev",
        arguments: [.init("file", summary: "where to write the trace, as launch.json")],
        options: moduleSwitchOptions
    )
    public typealias Result = Int32

    /// Where the trace goes.
    public let file: String

    public init(parameters: RouteParameters) throws {
        file = try parameters.require("file", as: String.self)
    }
}

/// `lifecycle-demo timeline FILE`: launches and terminates the demo host, then writes its launch as an SVG
/// Gantt chart to `FILE` (`Scripts/render-timeline.sh` regenerates `Docs/launch-timeline.svg`).
public struct TimelineCommand: Route {
    public static let command: RouteCommand? = RouteCommand(
        "timeline",
        summary: "Launches once and writes the launch as an SVG timeline, the slowest modules labelled",
        arguments: [.init("file", summary: "where to write the SVG, as launch-timeline.svg")],
        options: moduleSwitchOptions
    )
    public typealias Result = Int32

    /// Where the SVG goes.
    public let file: String

    public init(parameters: RouteParameters) throws {
        file = try parameters.require("file", as: String.self)
    }
}

/// `lifecycle-demo serve`: runs the demo host under a `HostRunner` until a signal ends it.
public struct ServeCommand: Route {
    public static let command: RouteCommand? = RouteCommand(
        "serve",
        summary: "Runs the demo host until a signal ends it (Docs/Hosting.md)",
        options: [
            .init(
                "signals",
                value: "MAP",
                summary:
                    "the signal map, as \"TERM=terminate HUP=reload\"; default LIFECYCLE_SIGNALS or the standard one"
            ),
            .init("terminate-deadline", value: "SECONDS", summary: "the host's terminate deadline; default 10"),
            .init("slow-terminate", value: "SECONDS|forever", summary: "enables SlowShutdownModule"),
        ] + LaunchBudgetOptions.declared + moduleSwitchOptions
    )
    public typealias Result = Int32

    /// `--signals`, as given; `nil` for the default.
    public let signals: String?
    /// `--enforce-budgets` and `--budget-scale`.
    public let budgets: LaunchBudgetOptions

    public init(parameters: RouteParameters) throws {
        signals = try parameters.get("signals", as: String.self)
        budgets = try LaunchBudgetOptions(parameters: parameters)
    }
}

/// The options every command takes that choose the modules: the launch profile (`EnvironmentGatedModule`)
/// and the switches that turn modules off and on (`ModuleSwitches`; Docs/Modules.md). The host reads them
/// itself when it is built, and `serve` reads the modules file again on SIGHUP.
let moduleSwitchOptions: [RouteCommand.Option] = [
    .init(
        "profile",
        value: "NAME",
        summary: "the launch profile (production enables AuditLogModule); default LIFECYCLE_PROFILE"
    ),
    .init("modules-file", value: "PATH", summary: "a file of NAME = on|off lines; default LIFECYCLE_MODULES_FILE"),
    .init("disable-module", value: "NAME", summary: "turns a module off (and the modules that depend on it)"),
    .init("enable-module", value: "NAME", summary: "turns a module on over the environment and the file"),
]

/// Serves the demo's commands: each runs the host the router belongs to.
public struct DemoCommandsModule: LifecycleModule, RouteServing {
    public static let priority: ModulePriority = .minimum
    let services: DemoServices

    public init(context: LifecycleContext) throws {
        services = try context.demoServices(for: Self.moduleName)
    }

    public static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(RunCommand.self) { module, run, context in
            guard let host = context.host else { return 1 }
            return await LifecycleDemo.run(host: host, console: module.services.console, budgets: run.budgets)
        }
        routes.on(PlanCommand.self) { module, plan, context in
            guard let host = context.host else { return 1 }
            return LifecycleDemo.plan(host: host, console: module.services.console, format: plan.format)
        }
        routes.on(TraceCommand.self) { module, trace, context in
            guard let host = context.host else { return 1 }
            return await LifecycleDemo.trace(host: host, console: module.services.console, to: trace.file)
        }
        routes.on(TimelineCommand.self) { module, timeline, context in
            guard let host = context.host else { return 1 }
            return await LifecycleDemo.timeline(host: host, console: module.services.console, to: timeline.file)
        }
        routes.on(ServeCommand.self) { module, serve, context in
            guard let host = context.host else { return 1 }
            return await LifecycleDemo.serve(
                host: host,
                console: module.services.console,
                signals: serve.signals,
                budgets: serve.budgets
            )
        }
    }
}
