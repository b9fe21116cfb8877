import Testing

/// `Examples/MessagesMain`: `main.swift`'s top-level code awaits `broadcast` and `send`, and the `async`
/// receiver is reached. With the synchronous form under the same name, Swift picked it there even under
/// `await`, and the broadcast threw `asynchronousReceiver` (issue 33).
@Suite("Messages from main.swift, as a real process")
struct TopLevelMessagesTests {
    @Test("Awaited sends in top-level code reach the async receiver, in delivery order")
    func awaitedSendsReachAsyncReceivers() async throws {
        let example = try DemoProcess([], executable: "MessagesMainExample")
        let status = try await example.exitStatus()
        #expect(status == 0, "\(example.lines)")
        #expect(
            example.lines == [
                "kept greeting in memory",  // MemoryModule: higher priority, synchronous handler
                "archived greeting",  // ArchiveModule: its handler is async
                "stored by 2 receivers: [true, true]",
                "archived farewell",
                "archived by ArchiveModule: true",
            ]
        )
    }
}
