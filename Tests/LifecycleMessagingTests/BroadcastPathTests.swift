import LifecycleCore
import LifecycleMessaging
import LifecycleProxy
import LifecycleTesting
import Testing

@Suite("Messages: the synchronous broadcast's bound handlers")
struct BroadcastPathTests {
    @Test("Each receiver sees the broadcast's sender, for more senders than a route keeps bound handlers for")
    func senders() async throws {
        let senders: [any LifecycleModule.Type] = [
            Alpha.self, Beta.self, Gamma.self, Silent.self, Counter.self, Held.self, Delta.self, Echo.self,
            Victim.self, Looper.self,
        ]
        let (host, recorder) = try await launchedHost(senders)
        for round in 0..<2 {
            for sender in senders {
                let reached = try host.context.messages(from: sender).broadcastSynchronously(Ping(text: "\(round)"))
                #expect(reached == 4)
                #expect(recorder.entries.suffix(4).first == "Alpha got \(round) from \(short(sender.moduleName))")
            }
            #expect(try host.context.messages.broadcastSynchronously(Ping(text: "anon")) == 4)
            #expect(recorder.entries.suffix(4).first == "Alpha got anon from nobody")
        }
        #expect(recorder.entries.count == 2 * (senders.count + 1) * 4)
    }

    @Test("A synchronous broadcast reaches a receiver registered later, and no removed one")
    func registrationAndRemoval() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Beta.self, Gamma.self])
        #expect(try host.context.messages.broadcastSynchronously(HowMany(), combining: .collect) == [1, 3, 2])
        _ = try await host.remove(Beta.self)
        _ = try await host.remove(Gamma.self)
        #expect(try host.context.messages.broadcastSynchronously(HowMany(), combining: .collect) == [1])
        _ = try await host.register(Gamma.self)
        #expect(try host.context.messages.broadcastSynchronously(HowMany(), combining: .collect) == [1, 3])
        #expect(try host.context.messages.broadcastSynchronously(Ping(text: "x")) == 2)
        #expect(recorder.entries == ["Alpha got x from nobody", "Gamma got x"])
    }

    @Test("A failing receiver is reported and the others are still called, on the bound path")
    func failures() async throws {
        let (host, recorder) = try await launchedHost([Alpha.self, Beta.self, Gamma.self])
        let error = #expect(throws: MessageError.self) {
            try host.context.messages(from: Beta.self).broadcastSynchronously(Fail())
        }
        #expect(error?.code == .receiverFailed)
        #expect(error?.modules.map(short) == ["Alpha", "Gamma"])
        #expect(recorder.entries == ["Alpha failed", "Gamma failed", "Beta fine"])
    }
}
