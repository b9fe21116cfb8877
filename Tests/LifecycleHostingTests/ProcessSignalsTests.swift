@_spi(Integrations) import LifecycleHosting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Process signals", .timeLimit(.minutes(1)))
struct ProcessSignalsTests {
    @Test("A signal sent to the process once the sources watch is reported, once per delivery")
    func reportsEachDelivery() async throws {
        let signals = ProcessSignals([UnixSignal.sigusr2])
        defer { signals.remove() }
        // It returns once the sources watch; the timeout is only a cap, generous for a loaded machine. What
        // it must not do is return at the cap with a signal still ignored, which would lose a delivery.
        await signals.waitUntilWatching(timeout: .seconds(60))
        #expect(signals.isWatching, "the sources watch: no handled signal is still ignored")

        var iterator = signals.stream.makeAsyncIterator()
        kill(getpid(), SIGUSR2)
        #expect(await iterator.next() == .sigusr2)
        kill(getpid(), SIGUSR2)
        #expect(await iterator.next() == .sigusr2)
    }

    @Test("Handled again after remove(), as a second host in one process does: still watched, still reported")
    func handledAgainAfterRemove() async throws {
        // libdispatch installs its own handler once per signal and process; the second handling must find
        // the signal watched rather than ignored, which would lose every delivery. And a signal sent before
        // the new source is registered could be read for the source just removed: lost to this one. Ten
        // rounds, so that a return from `waitUntilWatching` before registration shows (it did in the full
        // suite, one run in two to four, before the wait included registration).
        for round in 1...10 {
            let signals = ProcessSignals([UnixSignal.sigusr1])
            await signals.waitUntilWatching(timeout: .seconds(60))
            #expect(signals.isWatching, "round \(round): the signal is watched, not ignored")
            var iterator = signals.stream.makeAsyncIterator()
            kill(getpid(), SIGUSR1)
            #expect(await iterator.next() == .sigusr1, "round \(round)")
            signals.remove()
        }
    }
}
