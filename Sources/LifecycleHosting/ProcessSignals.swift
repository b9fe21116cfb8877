import Dispatch
import LifecycleCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's signals as a stream: each handled signal's default action is turned off (`SIG_IGN`) and a
/// dispatch source reports it instead, once per delivery — two quick `SIGINT`s are two elements.
///
/// Not `Sendable`: the runner installs it, reads its stream, and removes it, in one task.
///
/// `HostRunner` uses it, and so does the nested package `Integrations/ArgumentParser`, whose commands own
/// the signals while they run: hence `@_spi(Integrations)`, which is not API (README, "Stability").
@_spi(Integrations)
public struct ProcessSignals {
    public let stream: AsyncStream<UnixSignal>
    private let continuation: AsyncStream<UnixSignal>.Continuation
    private let sources: [(signal: UnixSignal, source: any DispatchSourceSignal)]
    /// How many of the sources libdispatch has registered (their registration handlers ran).
    private let registered = Registrations()

    /// A count the sources' registration handlers raise, on the sources' queue.
    private final class Registrations: Sendable {
        let count = Atomic(0)
    }

    public init(_ signals: some Sequence<UnixSignal>) {
        let (stream, continuation) = AsyncStream<UnixSignal>.makeStream()
        let queue = DispatchQueue(label: "ModuleLifecycle.HostRunner.signals")
        var sources: [(UnixSignal, any DispatchSourceSignal)] = []
        for handled in Set(signals).sorted() {
            // Ignored first, so the default action (ending or stopping the process) never runs; the source
            // still sees each delivery. Or, when libdispatch's handler was seen before, that handler: it
            // installs it once per process, so a later handling of the signal must put it back itself.
            Self.claim(handled)
            let source = DispatchSource.makeSignalSource(signal: handled.rawValue, queue: queue)
            // The handler holds the source (to read how many deliveries it stands for) until `remove()`
            // cancels it, which releases the handler.
            source.setEventHandler {
                for _ in 0..<max(1, Int(source.data)) { continuation.yield(handled) }
            }
            source.setRegistrationHandler { [registered] in registered.count.add(1, ordering: .releasing) }
            source.resume()
            sources.append((handled, source))
        }
        self.stream = stream
        self.continuation = continuation
        self.sources = sources
    }

    /// Returns once the dispatch sources are watching, so that a signal sent from then on is reported.
    ///
    /// Registering a source is asynchronous: libdispatch does it on its manager thread. Until then a signal
    /// can be read for another source of the same signal, one being removed, and be lost to this one; so this
    /// waits, at most `timeout`, until every source is registered (its registration handler ran). On Linux,
    /// libdispatch also installs a handler of its own over the `SIG_IGN` set above (it moves each delivery to
    /// its signalfd); a signal that arrives before that is ignored, and lost. So it also waits until no handled
    /// signal is still ignored.
    public func waitUntilWatching(timeout: Duration = .seconds(2)) async {
        let deadline = ContinuousClock.now + timeout
        while registered.count.load(ordering: .acquiring) < sources.count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        #if os(Linux)
        for (handled, _) in sources {
            while Self.isIgnored(handled), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
            Self.recordDispatchHandler(of: handled)
        }
        #endif
    }

    /// Whether every handled signal is watched now: every source is registered and, on Linux, no handled
    /// signal is still ignored (see ``waitUntilWatching(timeout:)``).
    public var isWatching: Bool {
        guard registered.count.load(ordering: .acquiring) >= sources.count else { return false }
        #if os(Linux)
        return sources.allSatisfy { !Self.isIgnored($0.signal) }
        #else
        return true
        #endif
    }

    /// Per signal, process-wide: how many `ProcessSignals` handle it now, and the handler libdispatch
    /// installed for it (Linux), which it installs only for the first source of a signal in a process.
    private struct Claim {
        var holders = 0
        var dispatchHandler: sigaction?
    }

    private static let claims = Locked<[Int32: Claim]>([:])

    private static func claim(_ handled: UnixSignal) {
        claims.withLock { claims in
            var claim = claims[handled.rawValue] ?? Claim()
            claim.holders += 1
            if var handler = claim.dispatchHandler {
                sigaction(handled.rawValue, &handler, nil)
            } else if claim.holders == 1 {
                // Swapped, not overwritten: a handler libdispatch installed since the last look (a source
                // registered after its `ProcessSignals` was removed) is put back and remembered. libdispatch
                // installs it once per process, and a signal ignored over it would never be reported again.
                claim.dispatchHandler = swap(handled, ignoring: true)
                if var handler = claim.dispatchHandler { sigaction(handled.rawValue, &handler, nil) }
            }
            claims[handled.rawValue] = claim
        }
    }

    /// Gives the signal its default action back once no `ProcessSignals` handles it any more.
    private static func release(_ handled: UnixSignal) {
        #if os(Linux)
        recordDispatchHandler(of: handled)
        #endif
        claims.withLock { claims in
            guard var claim = claims[handled.rawValue] else { return }
            claim.holders -= 1
            if claim.holders <= 0, let replaced = swap(handled, ignoring: false), claim.dispatchHandler == nil {
                claim.dispatchHandler = replaced
            }
            claims[handled.rawValue] = claim
        }
    }

    /// Makes `handled` ignored (`SIG_IGN`) or take its default action (`SIG_DFL`), and returns the handler
    /// this replaced when it was one (libdispatch's, on Linux), in one call, so no handler installed meanwhile
    /// is lost.
    private static func swap(_ handled: UnixSignal, ignoring: Bool) -> sigaction? {
        #if os(Linux)
        var new = sigaction()
        new.__sigaction_handler.sa_handler = ignoring ? SIG_IGN : SIG_DFL
        var old = sigaction()
        sigaction(handled.rawValue, &new, &old)
        return isHandler(old) ? old : nil
        #else
        _ = signal(handled.rawValue, ignoring ? SIG_IGN : SIG_DFL)
        return nil
        #endif
    }

    #if os(Linux)
    /// Whether `action` is a handler: neither ignoring the signal nor its default action.
    private static func isHandler(_ action: sigaction) -> Bool {
        let handler = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
        return handler != unsafeBitCast(SIG_IGN, to: Int.self) && handler != unsafeBitCast(SIG_DFL, to: Int.self)
    }

    /// Keeps the handler in place now, if it is libdispatch's (neither ignored nor the default).
    private static func recordDispatchHandler(of handled: UnixSignal) {
        var current = sigaction()
        sigaction(handled.rawValue, nil, &current)
        guard isHandler(current) else { return }
        claims.withLock { claims in
            if claims[handled.rawValue]?.dispatchHandler == nil { claims[handled.rawValue]?.dispatchHandler = current }
        }
    }

    private static func isIgnored(_ handled: UnixSignal) -> Bool {
        var current = sigaction()
        sigaction(handled.rawValue, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }
    #endif

    /// Stops reporting, and gives each signal its default action back, unless another `ProcessSignals` of the
    /// process still handles it.
    public func remove() {
        for (handled, source) in sources {
            source.cancel()
            Self.release(handled)
        }
        continuation.finish()
    }
}
