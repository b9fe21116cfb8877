#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import LifecycleTesting
import Synchronization

/// What the fixtures' interceptors and handlers did, in order, and how each interceptor behaves: shared
/// by every module and interceptor of one host.
final class Script: Sendable {
    typealias Behaviour = @Sendable (RouteIntent, RouteContext, InterceptorDecision) async -> Void

    private let lines = Locked<[String]>([])
    private let behaviours = Locked<[String: Behaviour]>([:])
    /// A flag handlers and interceptors share: "logged in", "cache warm".
    let flag = Atomic<Bool>(false)

    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.withLock { $0 } }

    /// Makes the interceptor `name` (its short type name) behave as `behaviour` instead of continuing.
    func when(_ name: String, _ behaviour: @escaping Behaviour) { behaviours.withLock { $0[name] = behaviour } }

    func run(_ name: String, _ intent: RouteIntent, _ context: RouteContext, _ decision: InterceptorDecision) async {
        record("\(name) \(short(intent.name))")
        if let behaviour = behaviours.withLock({ $0[name] }) {
            await behaviour(intent, context, decision)
        } else {
            decision.continue()
        }
    }
}

enum ScriptKey: LaunchOptionKey {
    static let defaultValue = Script()
}

func short(_ name: String) -> String { String(name.split(separator: ".").last ?? "") }

/// A host of `modules` with routing and `interceptors`, and the script they follow.
func routingHost(
    _ modules: [any LifecycleModule.Type] = [UserServer.self],
    interceptors: [any RouteInterceptor.Type] = [First.self, Second.self, TieB.self, TieA.self],
    budget: Duration? = nil,
    clock: VirtualClock? = nil
) throws -> (ApplicationHost, Script) {
    let script = Script()
    var options = LaunchOptions()
    options[ScriptKey.self] = script
    let host = try ApplicationHost(
        manifest: ModuleManifest(name: "Routes", modules).withRouting(
            interceptors: interceptors,
            interceptorBudget: budget
        ),
        launchOptions: options,
        configuration: .init(clock: clock ?? ContinuousClock(), hookBudget: nil, terminateDeadline: nil)
    )
    return (host, script)
}

// MARK: - Routes

struct ShowUser: Route {
    static let pattern: RoutePattern? = "/users/:id"
    typealias Result = String
    let id: Int
    init(id: Int) { self.id = id }
    init(parameters: RouteParameters) throws { id = try parameters.require("id") }
}

struct CurrentUser: Route {
    static let pattern: RoutePattern? = "/users/me"
    typealias Result = String
    init() {}
    init(parameters: RouteParameters) {}
}

struct ShowReport: Route {
    static let pattern: RoutePattern? = "app://reports/:day"
    typealias Result = String
    let day: Int
    let format: String
    init(parameters: RouteParameters) throws {
        day = try parameters.require("day")
        format = try parameters.get("format") ?? "text"
    }
}

struct Files: Route {
    static let pattern: RoutePattern? = "/files/**"
    typealias Result = String
    let path: String
    init(parameters: RouteParameters) { path = parameters.rest ?? "" }
}

/// Reached by value only, as a switch target.
struct Login: Route {
    init() {}
    init(parameters: RouteParameters) {}
}

struct Greet: Route {
    static let command: RouteCommand? = RouteCommand(
        "greet",
        summary: "Greets someone",
        arguments: [.init("name", summary: "who to greet"), .init("title", summary: "their title", optional: true)],
        options: [
            .init("times", value: "N", summary: "how many times"),
            .init("shout", summary: "in capitals"),
        ]
    )
    typealias Result = String
    let text: String
    init(parameters: RouteParameters) throws {
        let name = try parameters.require("name", as: String.self)
        let title = parameters["title"].map { "\($0) " } ?? ""
        let times = try parameters.get("times", as: Int.self) ?? 1
        let once = "hello \(title)\(name)"
        let text = Array(repeating: once, count: times).joined(separator: ", ")
        self.text = try parameters.flag("shout") ? text.uppercased() : text
    }
}

struct Status: Route {
    static let command: RouteCommand? = RouteCommand("status", summary: "Says how things are", isDefault: true)
    typealias Result = String
    init(parameters: RouteParameters) {}
}

/// Its handler opens itself again: a loop through handlers.
struct Recursive: Route {
    typealias Result = Int
    init() {}
    init(parameters: RouteParameters) {}
}

/// Guarded by its own interceptor.
struct Guarded: Route {
    static let pattern: RoutePattern? = "/guarded/:word"
    typealias Result = String
    let word: String
    init(parameters: RouteParameters) throws { word = try parameters.require("word") }
}

struct Failing: Route {
    init() {}
    init(parameters: RouteParameters) {}
}

struct Refused: Error, CustomStringConvertible {
    var description: String { "not now" }
}

// MARK: - Servers

struct UserServer: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal
    let script: Script
    init(context: LifecycleContext) { script = context.launchOptions[ScriptKey.self] }

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ShowUser.self) { server, user, _ in
            server.script.record("handler ShowUser \(user.id)")
            return "user \(user.id)"
        }
        routes.on(CurrentUser.self) { server, _, _ in
            server.script.record("handler CurrentUser")
            return "me"
        }
        routes.on(ShowReport.self) { _, report, _ in "report \(report.day) as \(report.format)" }
        routes.on(Files.self) { _, files, _ in "file \(files.path)" }
        routes.on(Login.self) { server, _, _ in
            server.script.record("handler Login")
            server.script.flag.store(true, ordering: .sequentiallyConsistent)
        }
        routes.on(Greet.self) { _, greet, _ in greet.text }
        routes.on(Status.self) { _, _, _ in "fine" }
        routes.on(Recursive.self) { _, _, context in
            try await context.router.open(Recursive()) + 1
        }
        routes.on(
            Guarded.self,
            intercept: { server, intent, _, decision in
                server.script.record("own \(short(intent.name))")
                let word = (intent.route as? Guarded)?.word
                if word == "no" { decision.reject(Refused()) } else { decision.continue() }
            },
            { _, guarded, _ in "guarded \(guarded.word)" }
        )
        routes.on(Failing.self) { _, _, _ in throw Refused() }
    }
}

/// Handles open-URL itself for `/legacy` URLs, as modules did before routing.
struct LegacyLinks: LifecycleModule, OpenURL {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func open(_ url: URL, context: LifecycleContext) -> Bool { url.path == "/legacy" }
}

// MARK: - Interceptors

/// The fixtures' interceptors: each follows the host's script under its short type name.
protocol ScriptedInterceptor: RouteInterceptor {
    var script: Script { get }
    init(script: Script)
}

extension ScriptedInterceptor {
    init(context: LifecycleContext) { self.init(script: context.launchOptions[ScriptKey.self]) }

    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        await script.run(short(Self.interceptorName), intent, context, decision)
    }
}

struct First: ScriptedInterceptor {
    static let priority = 10
    let script: Script
}

struct Second: ScriptedInterceptor {
    static let priority = 5
    let script: Script
}

/// Equal priority to ``TieB``: they run in the order of their type names, whatever the list's order.
struct TieA: ScriptedInterceptor {
    let script: Script
}

struct TieB: ScriptedInterceptor {
    let script: Script
}

/// Has a budget of its own, shorter than the router's.
struct Hasty: ScriptedInterceptor {
    static let budget: Duration? = .milliseconds(50)
    let script: Script
}
