import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleTesting
import Synchronization
import Testing

@Suite("Messages: channels resolved once")
struct ChannelTests {
    @Test("A channel delivers as a send does: the reply, the sender, sync and async, every send exactly once")
    func delivery() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Beta.self, Gamma.self, Silent.self, Counter.self])
        let messages = host.context.messages(from: Silent.self)
        let howMany = try messages.channel(for: HowMany.self, to: Beta.self)
        #expect(howMany.receiver.name == Beta.moduleName)
        #expect(howMany.isOpen)
        #expect(!howMany.isAsynchronous)
        #expect(try howMany.sendSynchronously(HowMany()) == 2)
        #expect(try await howMany.send(HowMany()) == 2)

        let ping = try messages.channel(for: Ping.self, to: Alpha.self)
        try ping.sendSynchronously(Ping(text: "one"))
        try await ping.send(Ping(text: "two"))
        #expect(recorder.entries == ["Alpha got one from Silent", "Alpha got two from Silent"])
        try host.context.messages.channel(for: Ping.self, to: Alpha.self).sendSynchronously(Ping(text: "anon"))
        #expect(recorder.entries.last == "Alpha got anon from nobody")

        // Every send through a channel reaches its receiver once, from many tasks at once.
        let counter = try host.context.messages.channel(for: HowMany.self, to: Counter.self)
        let replies = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask { try (0..<50).map { _ in try counter.sendSynchronously(HowMany()) } }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(replies.count == 400)
        #expect(Set(replies).count == 400)
    }

    @Test("An async handler: sendSynchronously refuses it before calling it, send reaches it")
    func asyncHandler() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Gamma.self])
        let slow = try host.context.messages.channel(for: Slow.self, to: Gamma.self)
        #expect(slow.isAsynchronous)
        let refused = #expect(throws: MessageError.self) { try slow.sendSynchronously(Slow()) }
        #expect(refused?.code == .asynchronousReceiver)
        #expect(refused?.modules == [Gamma.moduleName])
        #expect(recorder.entries.isEmpty)
        #expect(try await slow.send(Slow()) == 30)
        #expect(recorder.entries == ["Gamma slow"])
    }

    @Test("Resolving checks what a send checks: the receiver, and that messages flow")
    func resolution() async throws {
        let (host, _) = try messagingHost([Alpha.self, Gamma.self])
        let early = #expect(throws: MessageError.self) {
            try host.context.messages.channel(for: Ping.self, to: Alpha.self)
        }
        #expect(early?.code == .notLaunched)
        try await host.launch()
        let notReceiving = #expect(throws: MessageError.self) {
            try host.context.messages.channel(for: CanHandle.self, to: Gamma.self)
        }
        #expect(notReceiving?.code == .noReceiver)
        let absent = #expect(throws: MessageError.self) {
            try host.context.messages.channel(for: Ping.self, to: Beta.self)
        }
        #expect(absent?.code == .noReceiver)
        #expect(absent?.description.contains("is not a module of this host") == true)
    }

    @Test("A receiver that throws, and the journal: as a send through the messenger")
    func failureAndJournal() async throws {
        let (host, _) = try await launchedHost([Alpha.self, Silent.self], journal: 100)
        let fail = try host.context.messages(from: Silent.self).channel(for: Fail.self, to: Alpha.self)
        let error = #expect(throws: MessageError.self) { try fail.sendSynchronously(Fail()) }
        #expect(error?.code == .receiverFailed)
        #expect(error?.modules == [Alpha.moduleName])
        let canHandle = try host.context.messages(from: Silent.self).channel(for: CanHandle.self, to: Alpha.self)
        #expect(try canHandle.sendSynchronously(CanHandle(path: "/alpha")))
        let records = try #require(host.journal?.entries).filter(\.isMessage)
        #expect(records.map(\.event) == ["Fail", "CanHandle"])
        #expect(records.map { $0.sender.map(short) } == ["Silent", "Silent"])
        #expect(records.map(\.result) == [nil, true])
        #expect(records[0].error == "Alpha refused")
    }

    @Test("After its receiver is removed, a channel throws noReceiver naming module, message and fix, and calls nobody")
    func removed() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Gamma.self])
        let ping = try host.context.messages.channel(for: Ping.self, to: Gamma.self)
        try ping.sendSynchronously(Ping(text: "before"))
        _ = try await host.remove(Gamma.self)
        #expect(!ping.isOpen)
        for attempt in 0..<2 {
            let error: MessageError?
            if attempt == 0 {
                error = #expect(throws: MessageError.self) { try ping.sendSynchronously(Ping(text: "after")) }
            } else {
                error = await #expect(throws: MessageError.self) { try await ping.send(Ping(text: "after")) }
            }
            #expect(error?.code == .noReceiver)
            #expect(error?.modules == [Gamma.moduleName])
            #expect(error?.message == "Ping")
            #expect(error?.description.contains("removed `\(Gamma.moduleName)`") == true)
            #expect(error?.description.contains("resolve the channel again") == true)
        }
        #expect(recorder.entries == ["Gamma got before"])

        // Registered again, it is a new instance: the old channel stays closed, a new one reaches it.
        _ = try await host.register(Gamma.self)
        #expect(throws: MessageError.self) { try ping.sendSynchronously(Ping(text: "old channel")) }
        try host.context.messages.channel(for: Ping.self, to: Gamma.self).sendSynchronously(Ping(text: "new"))
        #expect(recorder.entries == ["Gamma got before", "Gamma got new"])
    }

    @Test("Registrations in between change nothing: the removal still closes a channel resolved before them")
    func removedAfterOtherChanges() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Gamma.self])
        let ping = try host.context.messages.channel(for: Ping.self, to: Gamma.self)
        _ = try await host.register(Silent.self)
        _ = try await host.remove(Silent.self)
        try ping.sendSynchronously(Ping(text: "still here"))
        _ = try await host.remove(Gamma.self)
        let error = #expect(throws: MessageError.self) { try ping.sendSynchronously(Ping(text: "gone")) }
        #expect(error?.code == .noReceiver)
        #expect(recorder.entries == ["Gamma got still here"])
    }

    @Test("After its receiver is switched off, a channel throws noReceiver; switched on again, resolve it again")
    func switchedOff() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Gamma.self])
        let howMany = try host.context.messages.channel(for: HowMany.self, to: Gamma.self)
        #expect(try howMany.sendSynchronously(HowMany()) == 3)
        let off = ModuleSwitches(switches: [Gamma.moduleName: .init(isOn: false, source: "test")])
        #expect(try await host.reloadModules(off).turnedOff.map(\.module) == [Gamma.moduleName])
        let error = await #expect(throws: MessageError.self) { try await howMany.send(HowMany()) }
        #expect(error?.code == .noReceiver)
        #expect(error?.modules == [Gamma.moduleName])
        #expect(error?.description.contains("switched off") == true)

        #expect(try await host.reloadModules(ModuleSwitches.none).turnedOn == [Gamma.moduleName])
        #expect(throws: MessageError.self) { try howMany.sendSynchronously(HowMany()) }
        #expect(try host.context.messages.channel(for: HowMany.self, to: Gamma.self).sendSynchronously(HowMany()) == 3)
        #expect(recorder.entries.isEmpty)
    }

    @Test("After the host terminated, a channel throws terminated")
    func terminated() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self])
        let ping = try host.context.messages.channel(for: Ping.self, to: Alpha.self)
        try await host.terminate()
        #expect(!ping.isOpen)
        let error = #expect(throws: MessageError.self) { try ping.sendSynchronously(Ping(text: "late")) }
        #expect(error?.code == .terminated)
        let asyncError = await #expect(throws: MessageError.self) { try await ping.send(Ping(text: "late")) }
        #expect(asyncError?.code == .terminated)
        #expect(recorder.entries.isEmpty)
    }

    @Test("Handlers that send through a channel in a loop are cut at the documented depth")
    func recursion() async throws {
        let (host, recorder) = try await launchedHost([Looper.self])
        let box = host.context.launchOptions[ChannelBoxKey.self]
        let loop = try host.context.messages.channel(for: Loop.self, to: Looper.self)
        box.channel.withLock { $0 = loop }
        let error = #expect(throws: MessageError.self) { try loop.sendSynchronously(Loop()) }
        #expect(error?.code == .recursionLimit)
        #expect(recorder.count("Looper looped") == Messenger.maximumDepth)
        #expect(error?.chain.first?.receiver == Looper.moduleName)
        box.channel.withLock { $0 = nil }
    }
}

// MARK: - Fixtures

struct Loop: Message {}

/// The channel `Looper` sends through, set by the test.
final class ChannelBox: Sendable {
    let channel = Locked<MessageChannel<Loop>?>(nil)
}

enum ChannelBoxKey: LaunchOptionKey {
    static let defaultValue = ChannelBox()
}

/// On `Loop`, sends `Loop` to itself through the channel in its box: a loop without end.
struct Looper: MessageReceiving {
    static let priority: ModulePriority = .normal
    let box: ChannelBox
    let recorder: Recorder
    init(context: LifecycleContext) {
        box = context.launchOptions[ChannelBoxKey.self]
        recorder = context.recorder
    }

    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Loop.self) { module, message, _ in
            module.recorder.record("Looper looped")
            try module.box.channel.withLock { $0 }?.sendSynchronously(message)
        }
    }
}
