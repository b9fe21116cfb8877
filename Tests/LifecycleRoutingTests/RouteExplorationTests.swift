import LifecycleCore
import LifecycleProxy
import LifecycleRouting
import LifecycleTesting
import Testing

// Random lifecycles with faults injected into route handlers (LifecycleExploration, Docs/Testing.md).

/// How many openings one run made while running, and how many were served.
private final class Openings: Sendable {
    private let state = Locked<(opened: Int, served: Int)>((0, 0))

    var allServed: Bool { state.withLock { $0.opened == $0.served } }
    func opened() { state.withLock { $0.opened += 1 } }
    func served() { state.withLock { $0.served += 1 } }
}

private enum OpeningsKey: LaunchOptionKey {
    static let defaultValue = Openings()
}

private struct ShowMenu: Route {
    init() {}
    init(parameters: RouteParameters) {}
}

private struct MenuBoard: RouteServing {
    static let priority: ModulePriority = .normal
    let openings: Openings
    init(context: LifecycleContext) { openings = context.launchOptions[OpeningsKey.self] }

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ShowMenu.self) { board, _, _ in board.openings.served() }
    }
}

@Suite("Routes: faults injected by random lifecycles")
struct RouteExplorationTests {
    @Test("A route handler's fault is found, shrunk to the opening it replaced, and named")
    func aRouteHandlerIsFaulted() async throws {
        let open = ExplorationAction("open the menu") { host in
            guard host.state.isRunning, let router = host.router else { return }
            host.context.launchOptions[OpeningsKey.self].opened()
            try await router.open(ShowMenu())
        }
        let exploration = LifecycleExploration(
            manifest: ModuleManifest(name: "Menu", [MenuBoard.self]).withRouting(),
            invariants: [
                LifecycleInvariant("every opening is served") { snapshot in
                    snapshot.launchOptions[OpeningsKey.self].allServed
                }
            ],
            actions: [open],
            faults: ExplorationFaults(rate: 0.3),
            launchOptions: {
                var options = LaunchOptions()
                options[OpeningsKey.self] = Openings()
                return options
            }
        )
        let failure = try #require(try await exploration.run(100).failure)
        #expect(failure.shrunkSteps == [.launch, .action("open the menu")])
        let fault = try #require(failure.shrunkFaults.first)
        #expect(failure.shrunkFaults.count == 1)
        #expect(fault.participant == MenuBoard.moduleName)
        #expect(fault.site == "route \(ShowMenu.routeName)")
        #expect(fault.kind == .failure)
    }
}
