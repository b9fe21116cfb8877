import LifecycleHosting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Process signals")
struct ProcessSignalsTests {
    @Test("A signal sent to the process once the sources watch is reported, once per delivery")
    func reportsEachDelivery() async throws {
        let signals = ProcessSignals([UnixSignal.sigusr2])
        defer { signals.remove() }
        let clock = ContinuousClock()
        let start = clock.now
        await signals.waitUntilWatching()
        let waited = clock.now - start
        #expect(waited < .seconds(2), "the sources watch before the timeout")

        var iterator = signals.stream.makeAsyncIterator()
        kill(getpid(), SIGUSR2)
        #expect(await iterator.next() == .sigusr2)
        kill(getpid(), SIGUSR2)
        #expect(await iterator.next() == .sigusr2)
    }
}
