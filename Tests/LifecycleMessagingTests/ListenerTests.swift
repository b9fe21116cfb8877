import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleTesting
import Testing

@Suite("Messages: listeners that are not modules")
struct ListenerTests {
    @Test("A listener receives every message of its type, whatever the audience, after the modules")
    func receives() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Gamma.self])
        let listener = try host.context.messages.listen(to: Ping.self)
        try await host.context.messages.send(Ping(text: "one"), to: Alpha.self)
        _ = try await host.context.messages.broadcast(Ping(text: "two"))
        _ = try await host.context.messages.broadcast(HowMany(), combining: .count)
        var iterator = listener.makeAsyncIterator()
        #expect(await iterator.next()?.text == "one")
        #expect(await iterator.next()?.text == "two")
        #expect(recorder.entries == ["Alpha got one from nobody", "Alpha got two from nobody", "Gamma got two"])
        listener.cancel()
        #expect(await iterator.next() == nil)
    }

    @Test("A listener hears what reached the receivers, even when one threw; not what was refused")
    func heardAndRefused() async throws {
        let (host, _) = try await launchedHost([Alpha.self, Gamma.self])
        let messages = host.context.messages
        let failures = try messages.listen(to: Fail.self)
        _ = try? await messages.send(Fail(), to: Alpha.self)
        _ = try? await messages.broadcast(Fail())
        var iterator = failures.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        #expect(await iterator.next() != nil)
        failures.cancel()
        // A synchronous broadcast to Gamma's async handler is refused before anyone is called: not heard.
        func refusedSynchronously() throws(MessageError) -> [Int] {
            try messages.broadcastSynchronously(Slow(), combining: .collect)
        }
        let slow = try messages.listen(to: Slow.self, for: .milliseconds(50))
        #expect(throws: MessageError.self) { try refusedSynchronously() }
        var heard = 0
        for await _ in slow { heard += 1 }
        #expect(heard == 0)
    }

    @Test("After cancel() returns, a listener receives nothing, not even what it had buffered")
    func cancellation() async throws {
        let (host, _) = try await launchedHost([Alpha.self])
        let listener = try host.context.messages.listen(to: Ping.self)
        try await host.context.messages.send(Ping(text: "buffered"), to: Alpha.self)
        listener.cancel()
        #expect(listener.isCancelled)
        try await host.context.messages.send(Ping(text: "after"), to: Alpha.self)
        var received: [String] = []
        for await message in listener { received.append(message.text) }
        #expect(received.isEmpty)
    }

    @Test("A listener for a bounded time ends by itself; a waiting reader gets nil")
    func boundedTime() async throws {
        let clock = VirtualClock()
        let (host, _) = try await launchedHost([Alpha.self], clock: clock)
        let listener = try host.context.messages.listen(to: Ping.self, for: .milliseconds(50))
        try await host.context.messages.send(Ping(text: "in time"), to: Alpha.self)
        var reader = listener.makeAsyncIterator()
        #expect(await reader.next()?.text == "in time")
        let waiting = Task {
            var reader = listener.makeAsyncIterator()
            return await reader.next()?.text
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(49))
        #expect(!listener.isCancelled, "49 ms: still listening")
        clock.advance(by: .milliseconds(1))
        #expect(await waiting.value == nil)
        #expect(listener.isCancelled)
    }

    @Test("Cancelling the task that reads a listener ends the listener")
    func taskCancellation() async throws {
        let (host, _) = try await launchedHost([Alpha.self])
        let listener = try host.context.messages.listen(to: Ping.self)
        let reader = Task {
            var count = 0
            for await _ in listener { count += 1 }
            return count
        }
        try await host.context.messages.send(Ping(text: "a"), to: Alpha.self)
        reader.cancel()
        _ = await reader.value
        #expect(listener.isCancelled)
    }

    @Test("A listener on a host without messages is a typed error")
    func noBus() throws {
        let host = try ApplicationHost(
            manifest: ModuleManifest(name: "Plain", [Alpha.self]),
            launchOptions: LaunchOptions()
        )
        let error = #expect(throws: MessageError.self) { _ = try host.context.messages.listen(to: Ping.self) }
        #expect(error?.code == .noBus)
    }
}

@Suite("Messages: listeners, shared and dropped")
struct ListenerLifetimeTests {
    @Test("Two readers of one listener each get a message, and both end when it is cancelled")
    func twoReaders() async throws {
        let (host, _) = try await launchedHost([Alpha.self])
        let listener = try host.context.messages.listen(to: Ping.self)
        /// One read, by a reader of its own.
        @Sendable func read() async -> Ping? {
            var reader = listener.makeAsyncIterator()
            return await reader.next()
        }
        let first = Task { await read()?.text }
        let second = Task { await read()?.text }
        try await Task.sleep(for: .milliseconds(20))
        try await host.context.messages.send(Ping(text: "a"), to: Alpha.self)
        try await host.context.messages.send(Ping(text: "b"), to: Alpha.self)
        let firstText = await first.value
        let secondText = await second.value
        let texts = [firstText, secondText].compactMap { $0 }.sorted()
        #expect(texts == ["a", "b"])
        let third = Task { await read()?.text }
        let fourth = Task { await read()?.text }
        try await Task.sleep(for: .milliseconds(20))
        listener.cancel()
        #expect(await third.value == nil)
        #expect(await fourth.value == nil)
    }

    @Test("A listener nobody holds any more stops listening")
    func dropped() async throws {
        let (host, _) = try await launchedHost([Alpha.self])
        let bus = try #require(host.context.messageBus)
        do {
            let listener = try host.context.messages.listen(to: Ping.self)
            try await host.context.messages.send(Ping(text: "heard"), to: Alpha.self)
            for await message in listener {
                #expect(message.text == "heard")
                break
            }
            #expect(bus.listenerCount == 1)
        }
        #expect(bus.listenerCount == 0)
    }
}
