import LifecycleCore
import Testing

struct Refresh: CustomEvent {
    typealias Result = Bool
}

struct Named: CustomEvent {
    static let name = "named-event"
}

@Suite("LifecycleEvent")
struct LifecycleEventTests {
    @Test("Exactly the three teardown events are delivered in reverse")
    func directions() {
        let reverse = LifecycleEvent.builtinEvents.filter { $0.direction == .reverse }
        #expect(reverse == [.willResignActive, .didEnterBackground, .willTerminate])
        #expect(LifecycleEvent(custom: Refresh.self).direction == .forward)
    }

    @Test("Launch events default to true and open-URL to false; the rest have no result")
    func resultRules() {
        #expect(LifecycleEvent.willFinishLaunching.resultRule == .anyTrue(whenUnanswered: true))
        #expect(LifecycleEvent.didFinishLaunching.resultRule == .anyTrue(whenUnanswered: true))
        #expect(LifecycleEvent.openURL.resultRule == .anyTrue(whenUnanswered: false))
        let noResult = LifecycleEvent.builtinEvents.filter { $0.resultRule == .none }
        #expect(noResult.count == 9, "six transition events and the three launch stages")
        #expect([LifecycleEvent.setup, .initialize, .warmUp].allSatisfy { $0.direction == .forward })
    }

    @Test("Custom events are identified by type and named by their type or their declared name")
    func customIdentity() {
        #expect(LifecycleEvent(custom: Refresh.self) == LifecycleEvent(custom: Refresh.self))
        #expect(LifecycleEvent(custom: Refresh.self) != LifecycleEvent(custom: Named.self))
        #expect(LifecycleEvent(custom: Refresh.self).name == "Refresh")
        #expect(LifecycleEvent(custom: Named.self).name == "named-event")
        #expect(LifecycleEvent(custom: Named.self).isCustom)
        #expect(LifecycleEvent.openURL.isCustom == false)
    }

    @Test("Bool custom results OR-combine; NoResult has one value")
    func customResults() {
        #expect(Bool.unanswered == false)
        #expect([false, true, false].reduce(Bool.unanswered, Bool.combine) == true)
        #expect([false, false].reduce(Bool.unanswered, Bool.combine) == false)
        #expect(NoResult.combine(NoResult(), NoResult()) == NoResult.unanswered)
    }

    @Test("Allowed requests per state match the state diagram")
    func allowedRequests() {
        #expect(HostRequest.allowed(in: .notRunning) == [.launch])
        #expect(HostRequest.allowed(in: .terminated).isEmpty)
        #expect(HostRequest.allowed(in: .background) == [.enterForeground, .terminate])
        #expect(ApplicationState.allCases.filter(\.isRunning) == [.active, .inactive, .background])
    }
}
