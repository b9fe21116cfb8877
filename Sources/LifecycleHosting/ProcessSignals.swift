import Dispatch

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
struct ProcessSignals {
    let stream: AsyncStream<UnixSignal>
    private let continuation: AsyncStream<UnixSignal>.Continuation
    private let sources: [(signal: UnixSignal, source: any DispatchSourceSignal)]

    init(_ signals: some Sequence<UnixSignal>) {
        let (stream, continuation) = AsyncStream<UnixSignal>.makeStream()
        let queue = DispatchQueue(label: "ModuleLifecycle.HostRunner.signals")
        var sources: [(UnixSignal, any DispatchSourceSignal)] = []
        for handled in Set(signals).sorted() {
            // Ignored first, so the default action (ending or stopping the process) never runs; the source
            // still sees each delivery.
            _ = signal(handled.rawValue, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: handled.rawValue, queue: queue)
            // The handler holds the source (to read how many deliveries it stands for) until `remove()`
            // cancels it, which releases the handler.
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

    /// Stops reporting, and gives each signal its default action back.
    func remove() {
        for (handled, source) in sources {
            source.cancel()
            _ = signal(handled.rawValue, SIG_DFL)
        }
        continuation.finish()
    }
}
