import Dispatch
import LifecycleHosting

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `SIGINT` and `SIGTERM` as a stream while a hosted command runs: each signal's default action is turned off
/// (`SIG_IGN`) and a dispatch source reports it instead. The same mechanism as `HostRunner`'s, whose type is
/// not API.
///
/// Not `Sendable`: the root installs it, reads its stream and removes it, in one task.
struct CommandSignals {
    let stream: AsyncStream<UnixSignal>
    private let continuation: AsyncStream<UnixSignal>.Continuation
    private let sources: [(signal: UnixSignal, source: any DispatchSourceSignal)]

    init(_ signals: [UnixSignal]) {
        let (stream, continuation) = AsyncStream<UnixSignal>.makeStream()
        let queue = DispatchQueue(label: "ModuleLifecycle.LifecycleArgumentParser.signals")
        var sources: [(UnixSignal, any DispatchSourceSignal)] = []
        for handled in signals {
            _ = signal(handled.rawValue, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: handled.rawValue, queue: queue)
            source.setEventHandler {
                for _ in 0..<max(1, Int(source.data)) { continuation.yield(handled) }
            }
            source.resume()
            sources.append((handled, source))
        }
        self.stream = stream
        self.continuation = continuation
        self.sources = sources
    }

    /// Returns once the sources watch (on Linux, libdispatch replaces `SIG_IGN` asynchronously; a signal before
    /// that is lost), or after `timeout`.
    func waitUntilWatching(timeout: Duration = .seconds(2)) async {
        #if os(Linux)
        let deadline = ContinuousClock.now + timeout
        for (handled, _) in sources {
            while Self.isIgnored(handled), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        #endif
    }

    #if os(Linux)
    private static func isIgnored(_ handled: UnixSignal) -> Bool {
        var current = sigaction()
        sigaction(handled.rawValue, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }
    #endif

    /// Stops reporting, and gives each signal its default action back.
    func remove() {
        for (handled, source) in sources {
            source.cancel()
            _ = signal(handled.rawValue, SIG_DFL)
        }
        continuation.finish()
    }
}
