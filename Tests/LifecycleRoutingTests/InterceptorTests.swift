import LifecycleCore
import LifecycleRouting
import LifecycleTesting
import Synchronization
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("Interceptors: each decision, and each way to misbehave")
struct InterceptorTests {
    @Test("Every interceptor continues: priority order, ties by type name, then the handler")
    func continueRunsEveryInterceptorInOrder() async throws {
        let (host, script) = try routingHost()
        let text = try await host.router!.open(ShowUser(id: 3))
        #expect(text == "user 3")
        #expect(
            script.entries == [
                "First ShowUser", "Second ShowUser", "TieA ShowUser", "TieB ShowUser", "handler ShowUser 3",
            ]
        )
        #expect(host.router!.interceptors.map(short) == ["First", "Second", "TieA", "TieB"])
    }

    @Test("A rejection fails the intent with the reason; later interceptors and the handler never run")
    func rejectStops() async throws {
        let (host, script) = try routingHost()
        script.when("Second") { _, _, decision in decision.reject(Refused()) }
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 3)) }
        #expect(error?.code == .rejected)
        #expect(error.flatMap { $0.interceptor.map(short) } == "Second")
        #expect(error?.underlying is Refused)
        #expect(error?.description.contains("not now") == true)
        #expect(script.entries == ["First ShowUser", "Second ShowUser"])
    }

    @Test("A switch opens its intent through the whole chain, then restarts the original from the first")
    func switchThenRestart() async throws {
        let (host, script) = try routingHost()
        script.when("Second") { intent, _, decision in
            if intent.is(ShowUser.self), !script.flag.load(ordering: .sequentiallyConsistent) {
                decision.switch(to: RouteIntent(Login()))
            } else {
                decision.continue()
            }
        }
        let text = try await host.router!.open(ShowUser(id: 7))
        #expect(text == "user 7")
        #expect(
            script.entries == [
                "First ShowUser", "Second ShowUser",
                "First Login", "Second Login", "TieA Login", "TieB Login", "handler Login",
                "First ShowUser", "Second ShowUser", "TieA ShowUser", "TieB ShowUser", "handler ShowUser 7",
            ]
        )
    }

    @Test("A switch with `then: .continue` goes on at the next interceptor instead of restarting")
    func switchThenContinue() async throws {
        let (host, script) = try routingHost()
        script.when("Second") { intent, _, decision in
            if intent.is(ShowUser.self) {
                decision.switch(to: RouteIntent(Login()), then: .continue)
            } else {
                decision.continue()
            }
        }
        _ = try await host.router!.open(ShowUser(id: 1))
        #expect(
            script.entries == [
                "First ShowUser", "Second ShowUser",
                "First Login", "Second Login", "TieA Login", "TieB Login", "handler Login",
                "TieA ShowUser", "TieB ShowUser", "handler ShowUser 1",
            ]
        )
    }

    @Test("A switched intent that fails fails the original, with the chain that led to it")
    func failedSwitch() async throws {
        let (host, script) = try routingHost()
        script.when("First") { intent, _, decision in
            if intent.is(ShowUser.self) { decision.switch(to: RouteIntent(Failing())) } else { decision.continue() }
        }
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 2)) }
        #expect(error?.code == .handlerFailed)
        #expect(error?.intent.hasSuffix("Failing") == true)
        #expect(error?.chain.count == 1)
        #expect(error?.chain.first?.contains("ShowUser") == true)
        #expect(error?.description.contains("switched to it by") == true)
        #expect(!script.entries.contains { $0.hasPrefix("handler ShowUser") })
    }

    @Test("Deciding twice fails the intent naming both decisions; neither is acted on")
    func decideTwice() async throws {
        let (host, script) = try routingHost()
        script.when("TieA") { _, _, decision in
            decision.continue()
            decision.reject(Refused())
        }
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 3)) }
        #expect(error?.code == .decidedTwice)
        #expect(error.flatMap { $0.interceptor.map(short) } == "TieA")
        #expect(error?.description.contains("first continue(), then reject(not now)") == true)
        #expect(script.entries.last == "TieA ShowUser")
    }

    @Test("Deciding twice from concurrent child tasks is still caught")
    func decideTwiceConcurrently() async throws {
        let (host, script) = try routingHost()
        script.when("First") { _, _, decision in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { decision.continue() } }
            }
        }
        for _ in 0..<20 {
            let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 3)) }
            #expect(error?.code == .decidedTwice)
        }
    }

    @Test("Returning without deciding fails the intent, naming the interceptor")
    func neverDecides() async throws {
        let (host, script) = try routingHost()
        script.when("Second") { _, _, _ in }
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 3)) }
        #expect(error?.code == .neverDecided)
        #expect(error.flatMap { $0.interceptor.map(short) } == "Second")
        #expect(script.entries == ["First ShowUser", "Second ShowUser"])
    }

    @Test("A decision made after `intercept` returned is ignored: the intent already failed")
    func lateDecisionIgnored() async throws {
        let (host, script) = try routingHost()
        let stash = StashedDecision()
        script.when("First") { _, _, decision in stash.keep(decision) }
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 3)) }
        #expect(error?.code == .neverDecided)
        stash.decision?.reject(Refused())  // late: nothing happens, nothing crashes
        script.when("First") { _, _, decision in decision.continue() }
        #expect(try await host.router!.open(ShowUser(id: 4)) == "user 4")
    }

    @Test("An interceptor that hangs past the router's budget times out, and the caller does not wait for it")
    func routerBudget() async throws {
        let clock = VirtualClock()
        let (host, script) = try routingHost(budget: .milliseconds(100), clock: clock)
        let hang = Hang()
        defer { hang.release() }
        script.when("Second") { _, _, decision in
            // Ignores cancellation, like code stuck waiting on something that never looks at it.
            await hang.hold()
            decision.continue()
        }
        let opening = Task { try await host.router!.open(ShowUser(id: 3)) }
        await hang.waitUntilHeld()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(99))
        #expect(!hang.wasReleased)
        clock.advance(by: .milliseconds(1))
        // It returns while the interceptor still hangs: the caller does not wait for it.
        let error = await #expect(throws: RouteError.self) { try await opening.value }
        #expect(!hang.wasReleased)
        #expect(error?.code == .timedOut)
        #expect(error.flatMap { $0.interceptor.map(short) } == "Second")
        #expect(error?.description.contains("within 0.1 seconds") == true)
        #expect(!script.entries.contains { $0.hasPrefix("handler") })
    }

    @Test("An interceptor's own budget applies even when the router has none")
    func ownBudget() async throws {
        let clock = VirtualClock()
        let (host, script) = try routingHost(interceptors: [Hasty.self], budget: nil, clock: clock)
        let hang = Hang()
        defer { hang.release() }
        script.when("Hasty") { _, _, decision in
            await hang.hold()
            decision.continue()
        }
        let opening = Task { try await host.router!.open(ShowUser(id: 3)) }
        await hang.waitUntilHeld()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(50))
        let error = await #expect(throws: RouteError.self) { try await opening.value }
        #expect(error?.code == .timedOut)
        #expect(error.flatMap { $0.interceptor.map(short) } == "Hasty")
    }

    @Test("A short budget after a long one is enforced at its own deadline, not the long one's")
    func shortBudgetAfterLongOne() async throws {
        let clock = VirtualClock()
        let (host, script) = try routingHost(
            interceptors: [First.self, Hasty.self],
            budget: .seconds(10),
            clock: clock
        )
        let hang = Hang()
        defer { hang.release() }
        script.when("First") { _, _, decision in
            clock.advance(by: .seconds(1))  // First takes 1 s of its 10
            decision.continue()
        }
        script.when("Hasty") { _, _, decision in
            await hang.hold()
            decision.continue()
        }
        let opening = Task { try await host.router!.open(ShowUser(id: 3)) }
        await hang.waitUntilHeld()
        await clock.waitForSleepers(1)
        // Hasty began at 1 s with 50 ms: due at 1.05 s, long before First's 10 s.
        clock.advance(by: .milliseconds(50))
        let error = await #expect(throws: RouteError.self) { try await opening.value }
        #expect(error?.code == .timedOut)
        #expect(error.flatMap { $0.interceptor.map(short) } == "Hasty")
        #expect(error?.description.contains("within 0.05 seconds") == true)
    }

    @Test("An interceptor that opens intents itself is cut at the depth limit too")
    func interceptorLoop() async throws {
        let (host, script) = try routingHost(interceptors: [First.self])
        // Every intent makes First open Login first: Login's own opening reaches First again, and so on.
        script.when("First") { _, context, decision in
            _ = try? await context.router.open(Login())
            decision.continue()
        }
        #expect(try await host.router!.open(ShowUser(id: 1)) == "user 1")
        #expect(script.entries.filter { $0.hasPrefix("First") }.count == Router.maximumDepth)
        #expect(script.entries.first == "First ShowUser")
    }

    @Test("Within budget, a slow interceptor still decides and the intent succeeds")
    func slowButInBudget() async throws {
        // On a virtual clock: the budget passes only if the test moves it, however loaded the machine.
        let (host, script) = try routingHost(budget: .seconds(5), clock: VirtualClock())
        script.when("First") { _, _, decision in
            try? await Task.sleep(for: .milliseconds(30))
            decision.continue()
        }
        #expect(try await host.router!.open(ShowUser(id: 9)) == "user 9")
        #expect(script.entries.count == 5)
    }

    @Test("Switches round a loop are cut at the depth limit, with the chain")
    func switchLoop() async throws {
        let (host, script) = try routingHost()
        // ShowUser switches to Login, Login switches to ShowUser, and so on.
        script.when("First") { intent, _, decision in
            decision.switch(to: intent.is(ShowUser.self) ? RouteIntent(Login()) : RouteIntent(ShowUser(id: 1)))
        }
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 1)) }
        #expect(error?.code == .loopLimit)
        #expect(error?.chain.count == Router.maximumDepth + 1)
        #expect(error?.description.contains("ShowUser") == true)
        #expect(error?.description.contains("Login") == true)
        // The intent past the limit is refused before any interceptor judges it.
        #expect(script.entries.count == Router.maximumDepth)
    }

    @Test("Endless restarts are cut at the restart limit")
    func restartLoop() async throws {
        let (host, script) = try routingHost()
        script.when("First") { intent, _, decision in
            if intent.is(ShowUser.self) { decision.switch(to: RouteIntent(Login())) } else { decision.continue() }
        }
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(ShowUser(id: 1)) }
        #expect(error?.code == .loopLimit)
        #expect(error?.description.contains("\(Router.maximumRestarts) restarts") == true)
        #expect(script.entries.filter { $0 == "handler Login" }.count == Router.maximumRestarts + 1)
    }

    @Test("A looping chain and an incomplete command line: the error says both, with the loop's code")
    func loopAndInvalidInput() async throws {
        let (host, script) = try routingHost()
        script.when("First") { intent, _, decision in
            if intent.is(Greet.self) { decision.switch(to: RouteIntent(Login())) } else { decision.continue() }
        }
        // `greet` needs <name>: the command line is incomplete, and the chain never lets it through.
        let error = await #expect(throws: RouteError.self) { try await host.router!.run(arguments: ["greet"]) }
        #expect(error?.code == .loopLimit)
        #expect(error?.refusedInput?.code == .missingArgument)
        #expect(error?.description.contains("\(Router.maximumRestarts) restarts") == true)
        #expect(error?.description.contains("needs the argument <name>") == true)
        #expect(error?.description.contains("Usage: greet [--times N] [--shout] <name>") == true)
        // A complete command line under the same loop: the loop alone.
        let alone = await #expect(throws: RouteError.self) { try await host.router!.run(arguments: ["greet", "ada"]) }
        #expect(alone?.code == .loopLimit)
        #expect(alone?.refusedInput == nil)
    }

    @Test("An interceptor that never decides on a bad URL: the error says both, with the interceptor's code")
    func misbehaviourAndInvalidInput() async throws {
        let (host, script) = try routingHost()
        script.when("Second") { _, _, _ in }
        let error = await #expect(throws: RouteError.self) {
            try await host.router!.open(url: URL(string: "/users/seven")!)
        }
        #expect(error?.code == .neverDecided)
        #expect(error?.refusedInput?.code == .invalidParameter)
        #expect(error?.description.contains("\"seven\"") == true)
    }

    @Test("A rejection says nothing about the input it refused")
    func rejectionHidesInvalidInput() async throws {
        let (host, script) = try routingHost()
        script.when("First") { _, _, decision in decision.reject(Refused()) }
        let error = await #expect(throws: RouteError.self) { try await host.router!.run(arguments: ["greet"]) }
        #expect(error?.code == .rejected)
        #expect(error?.refusedInput == nil)
        #expect(error?.description.contains("<name>") == false)
    }

    @Test("A handler that opens its own route again is cut at the depth limit")
    func handlerLoop() async throws {
        let (host, _) = try routingHost(interceptors: [])
        let error = await #expect(throws: RouteError.self) { try await host.router!.open(Recursive()) }
        #expect(error?.code == .loopLimit)
        #expect(error?.chain.count == Router.maximumDepth + 1)
    }

    @Test("A route's own interceptor runs after every global one, and can reject")
    func ownInterceptor() async throws {
        let (host, script) = try routingHost(interceptors: [First.self])
        #expect(try await host.router!.open(url: URL(string: "/guarded/yes")!) as? String == "guarded yes")
        #expect(script.entries == ["First Guarded", "own Guarded"])
        let error = await #expect(throws: RouteError.self) {
            try await host.router!.open(url: URL(string: "/guarded/no")!)
        }
        #expect(error?.code == .rejected)
        #expect(error?.interceptor?.contains("Guarded's interceptor in") == true)
        #expect(host.router!.routes.first { $0.type == Guarded.self }?.hasInterceptor == true)
    }

    @Test("A factory intent passes through the global interceptors too")
    func factoryIsIntercepted() async throws {
        let (host, script) = try routingHost()
        let value = try await host.router!.open(named: "compute") { _ in 41 + 1 }
        #expect(value == 42)
        #expect(script.entries == ["First compute", "Second compute", "TieA compute", "TieB compute"])
        script.when("First") { _, _, decision in decision.reject(Refused()) }
        await #expect(throws: RouteError.self) { _ = try await host.router!.open(named: "compute") { _ in 1 } }
    }

    @Test("Interceptors see the resolved intent: its route value, parameters and source")
    func interceptorsSeeResolvedIntent() async throws {
        let (host, script) = try routingHost()
        let seen = Seen()
        script.when("First") { intent, context, decision in
            seen.set(
                "\(short(intent.name)) \(intent.parameters?["day"] ?? "-") \((intent.route as? ShowReport)?.day ?? -1)"
            )
            #expect(context.chain.isEmpty)
            decision.continue()
        }
        _ = try await host.router!.open(url: URL(string: "app://reports/12")!)
        #expect(seen.value == "ShowReport 12 12")
    }
}

final class StashedDecision: Sendable {
    private let stored = Locked<InterceptorDecision?>(nil)
    func keep(_ decision: InterceptorDecision) { stored.withLock { $0 = decision } }
    var decision: InterceptorDecision? { stored.withLock { $0 } }
}

final class Seen: Sendable {
    private let stored = Locked("")
    func set(_ value: String) { stored.withLock { $0 = value } }
    var value: String { stored.withLock { $0 } }
}

/// Holds an interceptor until released, ignoring cancellation, as code stuck on something that never looks
/// at it would.
final class Hang: Sendable {
    private let held = OneShot<Void>()
    private let released = OneShot<Void>()

    func hold() async {
        held.settle(())
        await released.value()
    }

    func waitUntilHeld() async {
        while !held.isSettled { await Task.yield() }
    }

    func release() { released.settle(()) }

    var wasReleased: Bool { released.isSettled }
}
