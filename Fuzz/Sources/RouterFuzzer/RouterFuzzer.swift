import Dispatch
import FuzzerEntry
import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// URLs (`Router.open(url:)`, `match(_:)`) and command lines (`run(arguments:)`, `help(for:program:)`) given to
/// the router of a host with a fixed set of routes: literals, `:p`, `*`, `**`, a scheme, and two commands.
///
/// The first byte chooses: even, the rest is a URL; odd, a command line, one argument per line.
///
/// Oracle: matching and opening are deterministic (the same input twice, the same answer); a URL `match`
/// resolves opens that route with the parameters `match` gave, and one it does not fails with `noRoute` or
/// `invalidPath`; a command line either runs or fails with a command-line error (an unknown command with
/// `noRoute`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard let selector = bytes.first else { return 0 }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let router = Fixture.router
    if selector % 2 == 0 {
        guard let url = URL(string: text) else { return 0 }
        let found = router.match(url)
        let matched = found.map { "\($0.route.name) \($0.parameters)" }
        precondition(router.match(url).map { "\($0.route.name) \($0.parameters)" } == matched, "\(url)")
        let opened = blocking { await outcome { () async throws(RouteError) in try await router.open(url: url) } }
        let reopened = blocking { await outcome { () async throws(RouteError) in try await router.open(url: url) } }
        precondition(opened == reopened, "\(url): \(opened), then \(reopened)")
        if let found {
            let name = found.route.name.split(separator: ".").last.map(String.init) ?? ""
            let expected = "ok \(name) \(found.parameters)"
            precondition(opened == expected, "\(url): match gives \(expected), open gives \(opened)")
        } else {
            precondition(opened == "noRoute" || opened == "invalidPath", "\(url): no match, but \(opened)")
        }
    } else {
        let arguments = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let ran = blocking {
            await outcome { () async throws(RouteError) in try await router.run(arguments: arguments) }
        }
        let again = blocking {
            await outcome { () async throws(RouteError) in try await router.run(arguments: arguments) }
        }
        precondition(ran == again, "\(arguments): \(ran), then \(again)")
        let lineErrors = ["noRoute", "unknownOption", "missingArgument", "unexpectedArgument", "invalidParameter"]
        precondition(ran.hasPrefix("ok ") || lineErrors.contains(ran), "\(arguments): \(ran)")
        if let first = arguments.first, !first.hasPrefix("-"), !["greet", "status"].contains(first) {
            precondition(ran == "noRoute", "\(arguments): an unknown command, but \(ran)")
        }
        let help = router.help(for: arguments, program: "fuzz")
        precondition(router.help(for: arguments, program: "fuzz") == help, "\(arguments): help")
    }
    return 0
}

/// What opening returned, or the code of the error it threw.
private func outcome(_ open: () async throws(RouteError) -> any Sendable) async -> String {
    do {
        return "ok \(try await open())"
    } catch {
        return "\(error.code)"
    }
}

/// Runs `operation` to completion and returns its result. libFuzzer calls the fuzzer on its own thread, not
/// one of the cooperative pool's, so waiting on a semaphore here never holds a thread the task needs.
private func blocking(_ operation: @escaping @Sendable () async -> String) -> String {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox()
    Task {
        box.store(await operation())
        done.signal()
    }
    done.wait()
    return box.value
}

/// The result of a task, handed to the thread that waited for it.
private final class ResultBox: Sendable {
    private let stored = Mutex<String>("")
    func store(_ value: String) { stored.withLock { $0 = value } }
    var value: String { stored.withLock { $0 } }
}

/// The host the fuzzer opens URLs and command lines on, built once.
private enum Fixture {
    static let host: ApplicationHost = {
        do {
            return try ApplicationHost(manifest: ModuleManifest([FixedRoutes.self]).withRouting())
        } catch {
            preconditionFailure("the fixture host cannot be built: \(error)")
        }
    }()
    static var router: Router {
        guard let router = host.router else { preconditionFailure("a host with routing has no router") }
        return router
    }
}

struct UserByID: Route {
    static let pattern: RoutePattern? = "/users/:id"
    typealias Result = String
    let parameters: RouteParameters
    init(parameters: RouteParameters) { self.parameters = parameters }
}

struct CurrentUser: Route {
    static let pattern: RoutePattern? = "/users/me"
    typealias Result = String
    let parameters: RouteParameters
    init(parameters: RouteParameters) { self.parameters = parameters }
}

struct Report: Route {
    static let pattern: RoutePattern? = "app://reports/:day"
    typealias Result = String
    let parameters: RouteParameters
    init(parameters: RouteParameters) { self.parameters = parameters }
}

struct Files: Route {
    static let pattern: RoutePattern? = "/files/**"
    typealias Result = String
    let parameters: RouteParameters
    init(parameters: RouteParameters) { self.parameters = parameters }
}

struct AnyMiddle: Route {
    static let pattern: RoutePattern? = "/a/*/c"
    typealias Result = String
    let parameters: RouteParameters
    init(parameters: RouteParameters) { self.parameters = parameters }
}

struct Greet: Route {
    static let command: RouteCommand? = RouteCommand(
        "greet",
        summary: "Greets someone",
        arguments: [.init("name", summary: "who"), .init("title", summary: "their title", optional: true)],
        options: [.init("times", value: "N", summary: "how many times"), .init("shout", summary: "in capitals")]
    )
    typealias Result = String
    let parameters: RouteParameters
    init(parameters: RouteParameters) { self.parameters = parameters }
}

struct Status: Route {
    static let command: RouteCommand? = RouteCommand("status", summary: "Says how things are", isDefault: true)
    typealias Result = String
    let parameters: RouteParameters
    init(parameters: RouteParameters) { self.parameters = parameters }
}

struct FixedRoutes: LifecycleModule, RouteServing {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(UserByID.self) { _, route, _ in "UserByID \(route.parameters)" }
        routes.on(CurrentUser.self) { _, route, _ in "CurrentUser \(route.parameters)" }
        routes.on(Report.self) { _, route, _ in "Report \(route.parameters)" }
        routes.on(Files.self) { _, route, _ in "Files \(route.parameters)" }
        routes.on(AnyMiddle.self) { _, route, _ in "AnyMiddle \(route.parameters)" }
        routes.on(Greet.self) { _, route, _ in "Greet \(route.parameters)" }
        routes.on(Status.self) { _, route, _ in "Status \(route.parameters)" }
    }
}

@_cdecl("RouterFuzzer_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzerRunDriver(argc, argv)
}
