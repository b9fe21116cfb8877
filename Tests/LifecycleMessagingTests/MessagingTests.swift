import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleTesting
import Synchronization
import Testing

@Suite("Messages: addressing, replies and order")
struct MessagingTests {
    @Test("To one: the reply comes back typed, and the receiver sees the sender")
    func toOne() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Beta.self, Gamma.self, Silent.self])
        let messages = host.context.messages(from: Silent.self)
        #expect(try await messages.send(HowMany(), to: Beta.self) == 2)
        #expect(try await messages.send(CanHandle(path: "/alpha"), to: Alpha.self))
        try await messages.send(Ping(text: "hello"), to: Alpha.self)
        #expect(recorder.entries.last == "Alpha got hello from Silent")
        try await host.context.messages.send(Ping(text: "anon"), to: Alpha.self)
        #expect(recorder.entries.last == "Alpha got anon from nobody")
    }

    @Test("To one: a module that does not receive the message, or is not in the host, is a typed error")
    func missingReceiver() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Gamma.self])
        let messages = host.context.messages
        let notReceiving = await #expect(throws: MessageError.self) {
            try await messages.send(CanHandle(path: "/"), to: Gamma.self)
        }
        #expect(notReceiving?.code == .noReceiver)
        #expect(notReceiving?.description.contains("does not receive `CanHandle`") == true)
        let absent = await #expect(throws: MessageError.self) {
            try await messages.send(Ping(text: "x"), to: Beta.self)
        }
        #expect(absent?.code == .noReceiver)
        #expect(absent?.description.contains("is not a module of this host") == true)
        #expect(recorder.entries.isEmpty)
    }

    @Test("To all: every receiver, in dependency, then priority, then manifest order")
    func toAllInLifecycleOrder() async throws {
        // Alpha is high priority; Beta depends on Gamma, which is low priority, so Gamma comes before Beta.
        let (host, recorder) = try await launchedHost([Beta.self, Gamma.self, Alpha.self])
        let count = try await host.context.messages.broadcast(Ping(text: "all"))
        #expect(count == 3)
        #expect(recorder.entries == ["Alpha got all from nobody", "Gamma got all", "Beta got all"])
        #expect(host.context.messageBus?.receivers(of: Ping.self).map { short($0.name) } == ["Alpha", "Gamma", "Beta"])
    }

    @Test("To many: by tag, by protocol conformance, by a list of modules; always in delivery order")
    func toMany() async throws {
        let (host, _) = try await launchedHost([Beta.self, Gamma.self, Alpha.self])
        let messages = host.context.messages
        #expect(try await messages.broadcast(HowMany(), to: .tagged("cache"), combining: .collect) == [1, 2])
        #expect(try await messages.broadcast(HowMany(), to: .tagged("beta"), combining: .collect) == [2])
        #expect(try await messages.broadcast(HowMany(), to: .tagged("nobody"), combining: .collect) == [])
        #expect(
            try await messages.broadcast(HowMany(), to: .conforming(to: (any Auditing).self), combining: .collect) == [
                1, 3,
            ]
        )
        // Asked twice: the second answer comes from the route's cache, and must agree.
        #expect(
            try await messages.broadcast(HowMany(), to: .conforming(to: (any Auditing).self), combining: .collect) == [
                1, 3,
            ]
        )
        #expect(
            try await messages.broadcast(HowMany(), to: .modules([Beta.self, Alpha.self]), combining: .collect) == [
                1, 2,
            ]
        )
    }

    @Test("Replies combine by the declared rule, and no rule stops early")
    func replyRules() async throws {
        let (host, recorder) = try await launchedHost([Beta.self, Gamma.self, Alpha.self])
        let messages = host.context.messages
        #expect(try await messages.broadcast(HowMany(), combining: .collect) == [1, 3, 2])
        #expect(try await messages.broadcast(HowMany(), combining: .count) == 3)
        #expect(try await messages.broadcast(HowMany(), combining: ReplyRule(initial: 0) { $0 += $1 }) == 6)
        // OR: Alpha answers true first, Beta is still asked.
        #expect(try await messages.broadcast(CanHandle(path: "/alpha"), combining: .anyTrue))
        #expect(recorder.entries == ["Alpha judged /alpha", "Beta judged /alpha"])
        #expect(try await messages.broadcast(CanHandle(path: "/none"), combining: .anyTrue) == false)
        // First non-nil in delivery order: both answer "a", Alpha comes first.
        #expect(try await messages.broadcast(WhoOwns(key: "a"), combining: .firstNonNil()) == "Alpha")
        #expect(try await messages.broadcast(WhoOwns(key: "b"), combining: .firstNonNil()) == "Beta")
        #expect(try await messages.broadcast(WhoOwns(key: "z"), combining: .firstNonNil()) == nil)
    }

    @Test("A receiver that throws is reported with every other one, and the others are still called")
    func failures() async throws {
        let (host, recorder) = try await launchedHost([Beta.self, Gamma.self, Alpha.self])
        let error = await #expect(throws: MessageError.self) { try await host.context.messages.broadcast(Fail()) }
        #expect(error?.code == .receiverFailed)
        #expect(error?.modules.map(short) == ["Alpha", "Gamma"])
        #expect(error?.description.contains("Alpha refused") == true)
        #expect(recorder.entries == ["Alpha failed", "Gamma failed", "Beta fine"])
        let one = await #expect(throws: MessageError.self) {
            try await host.context.messages.send(Fail(), to: Alpha.self)
        }
        #expect(one?.code == .receiverFailed)
        #expect((one?.failures.first?.error as? FixtureError)?.name == "Alpha")
    }

    @Test("A synchronous send refuses an async receiver before calling anyone; an awaited send reaches it")
    func syncAndAsync() async throws {
        let (host, recorder) = try await launchedHost([Beta.self, Gamma.self, Alpha.self])
        let messages = host.context.messages
        // Called from a synchronous function, so the synchronous overloads are chosen.
        func sendSynchronously() throws(MessageError) -> Int { try messages.sendSynchronously(Slow(), to: Gamma.self) }
        func broadcastSynchronously() throws(MessageError) -> [Int] {
            try messages.broadcastSynchronously(Slow(), combining: .collect)
        }
        let refusedOne = #expect(throws: MessageError.self) { try sendSynchronously() }
        #expect(refusedOne?.code == .asynchronousReceiver)
        let refused = #expect(throws: MessageError.self) { try broadcastSynchronously() }
        #expect(refused?.code == .asynchronousReceiver)
        #expect(refused?.modules.map(short) == ["Gamma"])
        #expect(recorder.entries.isEmpty)
        #expect(try await messages.send(Slow(), to: Gamma.self) == 30)
        #expect(try await messages.broadcast(Slow(), combining: .collect) == [30])
        #expect(recorder.entries == ["Gamma slow", "Gamma slow"])
    }
}

@Suite("Messages: when they flow, the journal, re-entrancy")
struct MessagingLifecycleTests {
    @Test("Before launch a send is refused as notLaunched, after termination as terminated; during launch it flows")
    func window() async throws {
        let (host, recorder) = try messagingHost([Alpha.self, LaunchSender.self])
        let early = await #expect(throws: MessageError.self) {
            try await host.context.messages.send(Ping(text: "early"), to: Alpha.self)
        }
        #expect(early?.code == .notLaunched)
        try await host.launch()
        #expect(recorder.entries == ["Alpha got launch from LaunchSender"])
        try await host.terminate()
        let late = await #expect(throws: MessageError.self) {
            try await host.context.messages.send(Ping(text: "late"), to: Alpha.self)
        }
        #expect(late?.code == .terminated)
        #expect(recorder.entries.count == 1)
    }

    @Test("A host without messages says how to add them")
    func noBus() async throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Plain", [Alpha.self]),
            launchOptions: LaunchOptions()
        )
        try await host.launch()
        let error = await #expect(throws: MessageError.self) {
            try await host.context.messages.send(Ping(text: "x"), to: Alpha.self)
        }
        #expect(error?.code == .noBus)
        #expect(error?.description.contains("withMessages()") == true)
    }

    @Test("Two handlers for one message in one module are refused before anything is created")
    func duplicateHandler() throws {
        let error = #expect(throws: ManifestError.self) { try messagingHost([Alpha.self, Twice.self]) }
        #expect(error?.code == .duplicateMessageHandler)
        #expect(error?.description.contains("`Ping`") == true)
    }

    @Test("Every delivery goes into the host's journal with sender, receiver, message and result")
    func journal() async throws {
        let (host, _) = try await launchedHost([Beta.self, Gamma.self, Alpha.self, Silent.self], journal: 200)
        _ = try await host.context.messages(from: Silent.self).broadcast(CanHandle(path: "/beta"), combining: .anyTrue)
        _ = try? await host.context.messages.send(Fail(), to: Alpha.self)
        let entries = try #require(host.journal?.entries)
        let messages = entries.filter { $0.isMessage }
        #expect(messages.map { short($0.participant) } == ["Alpha", "Beta", "Alpha"])
        #expect(messages.map(\.event) == ["CanHandle", "CanHandle", "Fail"])
        #expect(messages.map { $0.sender.map(short) } == ["Silent", "Silent", nil])
        #expect(messages.map(\.result) == [false, true, nil])
        #expect(messages[2].error == "Alpha refused")
        #expect(host.journal?.entries.filter { !$0.isMessage }.allSatisfy { $0.sender == nil } == true)
    }

    @Test("A receiver that sends while handling works; a loop is cut at the documented depth, naming it")
    func reentrancy() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Beta.self, Gamma.self])
        try await host.context.messages.send(Bounce(hops: 3), to: Alpha.self)
        #expect(recorder.entries == ["Alpha bounce 3", "Beta bounce 2", "Alpha bounce 1", "Beta bounce 0"])
        let error = await #expect(throws: MessageError.self) {
            try await host.context.messages.send(Bounce(hops: 1_000), to: Alpha.self)
        }
        #expect(error?.code == .recursionLimit)
        #expect(error?.chain.count == Messenger.maximumDepth + 1)
        #expect(error?.chain.first?.sender == nil)
        #expect(error?.chain.dropFirst().first.map { short($0.sender ?? "") } == "Alpha")
        #expect(error?.chain.prefix(3).map { short($0.receiver) } == ["Alpha", "Beta", "Alpha"])
        #expect(recorder.count("Alpha bounce 1000") == 1)
        #expect(recorder.entries.count == 4 + Messenger.maximumDepth)
    }

    @Test("A module registered at run time receives; a removed one receives nothing")
    func registration() async throws {
        let (host, _) = try await launchedHost([Alpha.self])
        _ = try await host.register(Gamma.self)
        #expect(try await host.context.messages.broadcast(HowMany(), combining: .collect) == [1, 3])
        _ = try await host.remove(Gamma.self)
        #expect(try await host.context.messages.broadcast(HowMany(), combining: .collect) == [1])
        let gone = await #expect(throws: MessageError.self) {
            try await host.context.messages.send(HowMany(), to: Gamma.self)
        }
        #expect(gone?.code == .noReceiver)
    }

    @Test("16 tasks sending at once: every message is delivered exactly once")
    func concurrentSends() async throws {
        let tally = Tally()
        var options = LaunchOptions()
        options[TallyKey.self] = tally
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Stress", [Counter.self]).withMessages(),
            launchOptions: options
        )
        try await host.launch()
        let perTask = 500
        let replies = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var seen: [Int] = []
                    for _ in 0..<perTask {
                        seen.append(try await host.context.messages.send(HowMany(), to: Counter.self))
                    }
                    return seen
                }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(tally.value.load(ordering: .relaxed) == 16 * perTask)
        // Each delivery returned the count after it: all distinct, so none was repeated or lost.
        #expect(Set(replies) == Set(1...(16 * perTask)))
    }
}

@Suite("Messages: a receiver that hangs")
struct MessagingBudgetTests {
    @Test("A send with a budget gives up on a hanging receiver with a typed error naming it")
    func hangingReceiver() async throws {
        let clock = VirtualClock()
        let (host, _) = try await launchedHost([Alpha.self, Delta.self], clock: clock)
        let budgeted = host.context.messages.within(.milliseconds(50))
        let sending = Task { try await budgeted.send(Hang(), to: Delta.self) }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(49))
        #expect(!(await hasFinished(sending)), "49 ms: within the budget")
        clock.advance(by: .milliseconds(1))
        let error = await #expect(throws: MessageError.self) { try await sending.value }
        #expect(error?.code == .timedOut)
        #expect(error?.modules.map(short) == ["Delta"])
        #expect(error?.description.contains("did not answer `Hang` within 0.05 seconds") == true)
        // A receiver that answers in time answers as without a budget.
        #expect(try await budgeted.send(HowMany(), to: Delta.self) == 4)
        #expect(try await budgeted.broadcast(HowMany(), combining: .collect) == [1, 4])
    }

    @Test("In a broadcast, the receivers that answer are still called and the one that hangs is named")
    func hangingInBroadcast() async throws {
        let clock = VirtualClock()
        let (host, recorder) = try await launchedHost([Alpha.self, Delta.self], clock: clock)
        let broadcast = Task {
            try await host.context.messages.within(.milliseconds(50)).broadcast(Hang(), combining: .collect)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(50))
        let error = await #expect(throws: MessageError.self) { try await broadcast.value }
        #expect(error?.code == .timedOut)
        #expect(error?.modules.map(short) == ["Delta"])
        #expect(recorder.entries == ["Alpha answered Hang"])
    }
}

@Suite("Messages: the edges of a host's life")
struct MessagingEdgeTests {
    @Test("A send from a module's initializer is refused as notLaunched, not as a missing bus")
    func sendFromInitializer() async throws {
        let (_, recorder) = try messagingHost([Alpha.self, EagerSender.self])
        #expect(recorder.entries == ["EagerSender refused: notLaunched"])
    }

    @Test("Async handlers that send to each other without end are cut at the documented depth")
    func asyncRecursion() async throws {
        let (host, _) = try await launchedHost([Echo.self])
        let error = await #expect(throws: MessageError.self) {
            try await host.context.messages.send(AsyncBounce(hops: 0), to: Echo.self)
        }
        #expect(error?.code == .recursionLimit)
        #expect(error?.chain.count == Messenger.maximumDepth + 1)
        #expect(error?.chain.dropFirst().allSatisfy { $0.sender.map(short) == "Echo" } == true)
    }

    @Test("A loop that starts with a broadcast shows the receiver it reached as its first hop")
    func broadcastRecursionHop() async throws {
        let (host, _) = try await launchedHost([Alpha.self, Beta.self, Gamma.self])
        // Alpha and Beta bounce by sends to one; the innermost refusal is a send, the outer hops name receivers.
        let error = await #expect(throws: MessageError.self) {
            try await host.context.messages.broadcast(Bounce(hops: 1_000), to: .modules([Alpha.self]))
        }
        #expect(error?.code == .recursionLimit)
        #expect(error?.chain.first?.receiver.hasSuffix("Alpha") == true)
    }

    @Test("A module removed while an async broadcast runs is not called by it")
    func removalDuringBroadcast() async throws {
        let box = HostBox()
        let recorder = Recorder()
        var options = LaunchOptions()
        options[HostBoxKey.self] = box
        options[RecorderKey.self] = recorder
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Removal", [Remover.self, Victim.self]).withMessages(),
            launchOptions: options
        )
        box.host.withLock { $0 = host }
        try await host.launch()
        let delivered = try await host.context.messages.broadcast(Ping(text: "x"))
        #expect(recorder.entries == ["Remover removed Victim"])
        #expect(delivered == 1)
        box.host.withLock { $0 = nil }
    }

    @Test("Two handlers for one message refuse a module registered at run time")
    func duplicateAtRegistration() async throws {
        let (host, _) = try await launchedHost([Alpha.self])
        let error = await #expect(throws: LifecycleError.self) { try await host.register(Twice.self) }
        #expect(error?.code == .registrationFailed)
        #expect((error?.underlyingError as? ManifestError)?.code == .duplicateMessageHandler)
        #expect(host.participants.count == 1)
    }

    @Test("A deallocated host lets its modules go, and a messenger kept longer is told terminated")
    func hostDeallocation() async throws {
        let watch = CanaryWatch()
        var options = LaunchOptions()
        options[CanaryKey.self] = watch
        var host: ApplicationHost? = try ApplicationHost(
            manifest: ModuleManifest(name: "Held", [Held.self]).withMessages(),
            launchOptions: options
        )
        try await host?.launch()
        let messenger = try #require(host?.context.messages)
        #expect(try await messenger.send(HowMany(), to: Held.self) == 5)
        #expect(watch.alive == 1)
        try await host?.terminate()
        host = nil
        #expect(watch.alive == 0)
        let late = await #expect(throws: MessageError.self) { try await messenger.send(HowMany(), to: Held.self) }
        #expect(late?.code == .terminated)
    }
}
