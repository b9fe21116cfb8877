import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleTesting
import Testing

// Random lifecycles with faults injected into message handlers (LifecycleExploration, Docs/Testing.md): a
// handler's fault replaces its call, whether a send or a broadcast calls it.

/// What the receivers of one run answered.
private final class Answers: Sendable {
    private let state = Locked<(asked: Bool, warmed: Bool, knocks: Int, replies: Int)>((false, false, 0, 0))

    /// Whether the chef asked for the pantry to warm, and the pantry did not.
    var askedInVain: Bool { state.withLock { $0.asked && !$0.warmed } }
    var warmed: Bool { state.withLock { $0.warmed } }
    func ask() { state.withLock { $0.asked = true } }
    var knocksAnswered: Bool { state.withLock { $0.knocks == $0.replies } }
    func warm() { state.withLock { $0.warmed = true } }
    func knocked(replies: Int) {
        state.withLock { state in
            state.knocks += 1
            state.replies += replies
        }
    }
}

private enum AnswersKey: LaunchOptionKey {
    static let defaultValue = Answers()
}

private struct Warm: Message {}
private struct Knock: Message {}

/// Warms itself when told to; answers knocks.
private struct Pantry: MessageReceiving {
    static let priority: ModulePriority = .normal
    let answers: Answers
    init(context: LifecycleContext) { answers = context.launchOptions[AnswersKey.self] }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Warm.self) { pantry, _, _ in pantry.answers.warm() }
        handlers.on(Knock.self) { _, _, _ in }
    }
}

/// Tells the pantry to warm up at launch, and carries on if it cannot: the bug the exploration must find.
private struct Chef: LifecycleModule, DidFinishLaunching {
    static let priority: ModulePriority = .low
    let answers: Answers
    init(context: LifecycleContext) { answers = context.launchOptions[AnswersKey.self] }
    func didFinishLaunching(_ context: LifecycleContext) async -> Bool {
        answers.ask()
        _ = try? await context.messages.send(Warm(), to: Pantry.self)
        return true
    }
}

private struct InjectedKnockFailure: Error {}

private let freshAnswers: @Sendable () -> LaunchOptions = {
    var options = LaunchOptions()
    options[AnswersKey.self] = Answers()
    return options
}

@Suite("Messages: faults injected by random lifecycles")
struct MessageExplorationTests {
    @Test("A message handler's fault, in a send from a launch hook, is found and shrunk to that launch")
    func aSendsHandlerIsFaulted() async throws {
        let exploration = LifecycleExploration(
            manifest: ModuleManifest(name: "Kitchen", [Pantry.self, Chef.self]).withMessages(),
            invariants: [
                // A fault in the chef's own hook means it never asked: only the pantry's handler can break this.
                LifecycleInvariant("the pantry warms when the chef asks") { snapshot in
                    !snapshot.launchOptions[AnswersKey.self].askedInVain
                }
            ],
            faults: ExplorationFaults(rate: 0.3),
            launchOptions: freshAnswers
        )
        let failure = try #require(try await exploration.run(100).failure)
        #expect(failure.shrunkSteps == [.launch])
        let fault = try #require(failure.shrunkFaults.first)
        #expect(failure.shrunkFaults.count == 1)
        #expect(fault.participant == Pantry.moduleName)
        #expect(fault.site == "message \(Warm.name)")
        // A handler may have no budget to be abandoned at: its faults are failures, even with hangs allowed.
        #expect(fault.kind == .failure)
    }

    @Test("A handler a synchronous broadcast calls is faulted too, and the broadcast names it")
    func aBroadcastsHandlerIsFaulted() async throws {
        let knock = ExplorationAction("knock") { host in
            guard host.state.isRunning else { return }
            let replies = (try? host.context.messages.broadcastSynchronously(Knock())) ?? 0
            host.context.launchOptions[AnswersKey.self].knocked(replies: replies)
        }
        let exploration = LifecycleExploration(
            manifest: ModuleManifest(name: "Kitchen", [Pantry.self]).withMessages(),
            invariants: [
                LifecycleInvariant("every knock while running is answered") { snapshot in
                    snapshot.launchOptions[AnswersKey.self].knocksAnswered
                }
            ],
            actions: [knock],
            faults: ExplorationFaults(rate: 0.3, hangs: false),
            launchOptions: freshAnswers
        )
        let failure = try #require(try await exploration.run(100).failure)
        #expect(failure.shrunkSteps == [.launch, .action("knock")])
        let fault = try #require(failure.shrunkFaults.first)
        #expect(failure.shrunkFaults.count == 1)
        #expect(fault.site == "message \(Knock.name)")
        #expect(fault.step == 2)
    }

    @Test("In a host nobody observes, a broadcast calls bound handlers, and the seam is asked there too")
    func unobservedBroadcastsAreFaulted() async throws {
        // No journal and no `onDelivery`: a synchronous broadcast calls each receiver's bound handler, the
        // path the exploration's observed hosts do not take.
        var configuration = ApplicationHost.Configuration(journalCapacity: 0)
        configuration.faultInjection = FaultInjection { participant, site in
            site == .handler("message \(Knock.name)") ? .failure(InjectedKnockFailure()) : nil
        }
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Kitchen", [Pantry.self]).withMessages(),
            launchOptions: freshAnswers(),
            configuration: configuration
        )
        try await host.launch()
        let error = try #require(throws: MessageError.self) {
            try host.context.messages.broadcastSynchronously(Knock())
        }
        #expect(error.code == .receiverFailed)
        #expect(error.failures.map(\.receiver) == [Pantry.moduleName])
        #expect(error.failures.first?.error is InjectedKnockFailure)
        try await host.terminate()
    }

    @Test("A host without faults answers sends and broadcasts as before")
    func noFaultsNoWrapping() async throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Kitchen", [Pantry.self]).withMessages(),
            launchOptions: freshAnswers()
        )
        try await host.launch()
        #expect(try host.context.messages.broadcastSynchronously(Knock()) == 1)
        try await host.context.messages.send(Warm(), to: Pantry.self)
        #expect(host.context.launchOptions[AnswersKey.self].warmed)
        try await host.terminate()
    }
}
