import Foundation
import LifecycleCore
import LifecycleProxy
import LifecycleTesting
import Testing

/// Off in every profile, to show in the plan with its reason.
struct NeverEnabled: LifecycleModule, EnvironmentGatedModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    static func enablement(for options: LaunchOptions) -> ModuleEnablement { .disabled("never, in these tests") }
}

@Suite("A plan that explains itself", .timeLimit(.minutes(1)))
struct PlanExplanationTests {
    @Test("Forward: the delegate first, a dependency before its dependent, then priority, then manifest order")
    func forward() throws {
        let host = try makeHost(
            [Cache.self, Database.self, NormalA.self, NormalB.self, NeverEnabled.self],
            delegate: true
        )
        let plan = host.explainPlan(for: .didBecomeActive)
        #expect(plan.event == "didBecomeActive" && plan.direction == "forward")
        // The cache has the highest priority, and still comes last: it waits for the low-priority database.
        #expect(
            plan.steps.map(\.participant) == [
                "LifecycleProxyTests.Delegate", NormalA.moduleName, NormalB.moduleName, Database.moduleName,
                Cache.moduleName,
            ]
        )
        #expect(plan.steps[0].placement == [.delegate])
        let dependency = PlanExplanation.Placement.dependency(
            on: Database.moduleName,
            reason: "declared in `dependencies`"
        )
        #expect(plan.reason(for: Cache.moduleName, comingAfter: Database.moduleName) == dependency)
        #expect(plan.reason(for: Cache.moduleName, comingAfter: NormalA.moduleName) == dependency, "held back")
        #expect(plan.reason(for: NormalB.moduleName, comingAfter: NormalA.moduleName) == .tie(with: NormalA.moduleName))
        #expect(plan.reason(for: Database.moduleName, comingAfter: NormalA.moduleName) == .priority(1_000))
        #expect(plan.reason(for: NormalA.moduleName, comingAfter: Cache.moduleName) == nil, "it comes before")
        #expect(plan.disabled.map(\.module) == [NeverEnabled.moduleName])
        #expect(plan.disabled.map(\.reason) == ["never, in these tests"])
        #expect(plan.description.contains("5. Cache  after Database, a dependency (declared in `dependencies`)"))
    }

    @Test("The test kit asserts a placement and its reason, and reports the plan when it is wrong")
    func testKit() throws {
        let host = try makeHost([Cache.self, Database.self, NormalA.self, NormalB.self])
        expectPlaced(Cache.self, after: Database.self, because: .dependency, for: .didBecomeActive, in: host)
        expectPlaced(Database.self, after: Cache.self, because: .dependency, for: .willTerminate, in: host)
        expectPlaced(NormalB.self, after: NormalA.self, because: .manifestOrder, for: .didBecomeActive, in: host)
        expectPlaced(Database.self, after: NormalB.self, because: .priority, for: .didBecomeActive, in: host)
        withKnownIssue {
            expectPlaced(NormalA.self, after: NormalB.self, because: .priority, for: .didBecomeActive, in: host)
        }
        withKnownIssue {
            expectPlaced(Cache.self, after: NormalA.self, because: .priority, for: .didBecomeActive, in: host)
        }
    }

    @Test("Reverse: the mirror, a dependent before the module it depends on, the delegate last")
    func reverse() throws {
        let host = try makeHost([Cache.self, Database.self, NormalA.self], delegate: true)
        let plan = host.explainPlan(for: .willTerminate)
        #expect(plan.direction == "reverse")
        #expect(plan.steps.map(\.participant).last == "LifecycleProxyTests.Delegate")
        #expect(
            plan.reason(for: Database.moduleName, comingAfter: Cache.moduleName)
                == .dependent(Cache.moduleName, reason: "declared in `dependencies`")
        )
        // Explanations round-trip as JSON, for tools.
        let data = try JSONEncoder().encode(plan)
        #expect(try JSONDecoder().decode(PlanExplanation.self, from: data) == plan)
    }

    @Test("The stages each participant takes part in are named")
    func stages() throws {
        let host = try makeHost([Late.self, High.self])
        let plan = host.explainPlan(for: .didFinishLaunching)
        #expect(plan.steps.first { $0.participant == Late.moduleName }?.stages == ["setup", "initialize", "warmUp"])
        #expect(plan.steps.first { $0.participant == High.moduleName }?.stages == [])
    }

    @Test("The DOT graph parses: modules as nodes, dependencies as edges, stages as clusters, the off dashed")
    func graph() throws {
        let host = try makeHost([Cache.self, Database.self, Late.self, NeverEnabled.self])
        let dot = host.planGraph()
        let graph = try DOTSyntax.parse(dot)
        #expect(Set(graph.nodes) == [Cache.moduleName, Database.moduleName, Late.moduleName, NeverEnabled.moduleName])
        #expect(graph.edges.map { "\($0.from) -> \($0.to)" } == ["\(Cache.moduleName) -> \(Database.moduleName)"])
        #expect(graph.subgraphs == ["cluster_warmUp"])
        #expect(dot.contains(#"[label="NeverEnabled\noff: never, in these tests", style=dashed, color=gray];"#))
    }

    @Test(
        "The DOT checker refuses what is not DOT",
        arguments: [
            "digraph g { a -> b; }",  // b and a never declared as nodes
            "digraph g { \"a\" [label=\"x]; }",  // a string that never ends
            "digraph g { a; ",  // no closing brace
            "graph { a [label=] }",  // an attribute without a value
        ]
    )
    func checkerRefuses(_ text: String) {
        #expect(throws: DOTSyntax.SyntaxError.self) { try DOTSyntax.parse(text) }
    }
}
