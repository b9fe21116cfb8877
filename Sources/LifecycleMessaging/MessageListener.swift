import LifecycleCore
import Synchronization

/// Every message of type `M` sent on a host's bus from now on, as an asynchronous sequence, for code that
/// is not a module: a request handler, a test. Made by ``Messenger/listen(to:for:)``.
///
/// The listener receives each message after the module receivers of that send, whatever its audience,
/// even when a receiver threw; a refused send reached nobody and is not heard. It never replies. It
/// buffers what arrives before it is read. It ends when its time is up, when ``cancel()`` is called, when
/// the task iterating it is cancelled, or when nothing holds it any more (a loop that breaks out of it,
/// with no other reference). Then its sequence ends, and it receives nothing after ``cancel()`` returns,
/// not even what it had buffered. Several readers may share one listener: each message goes to one.
///
/// ```swift
/// let reloads = try context.messages.listen(to: ConfigurationChanged.self, for: .seconds(5))
/// for await change in reloads { print(change.keys) }
/// ```
public final class MessageListener<M: Message>: AsyncSequence, Sendable, AnyMessageListener {
    public typealias Element = M
    public typealias Failure = Never

    private struct State {
        var buffer: [M] = []
        var head = 0
        /// Readers waiting for a message, first come first served: each message goes to one of them.
        var waiters: [CheckedContinuation<M?, Never>] = []
        var finished = false
        /// The deadline of its time, on the host's watchdog.
        var timer: HostWatchdog.Token?
    }

    private let state = Locked(State())
    private let bus: MessageBus
    private let watchdog: HostWatchdog

    init(bus: MessageBus, duration: Duration?) {
        self.bus = bus
        self.watchdog = bus.watchdog
        bus.add(self)
        if let duration {
            // On the host's clock: a test's virtual clock ends it.
            let timer = watchdog.arm(after: duration) { [weak self] _ in
                self?.cancel()
                return nil
            }
            state.withLock { $0.timer = timer }
        }
    }

    deinit {
        // Nobody can read it any more: it stops listening, and the bus forgets it.
        if let timer = state.withLock({ $0.timer }) { watchdog.disarm(timer) }
        bus.remove(ObjectIdentifier(self), of: ObjectIdentifier(M.self))
    }

    /// Whether the listener has ended: cancelled, timed out, or its iterating task cancelled.
    public var isCancelled: Bool { state.withLock { $0.finished } }

    /// Ends the listener: once this returns, it receives nothing, and its sequence ends for every reader.
    public func cancel() {
        let timer: HostWatchdog.Token? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            state.buffer.removeAll()
            state.head = 0
            // Resumed under the lock, so no message can be handed to a reader after `cancel()` returns.
            for waiter in state.waiters { waiter.resume(returning: nil) }
            state.waiters.removeAll()
            defer { state.timer = nil }
            return state.timer
        }
        if let timer { watchdog.disarm(timer) }
        bus.remove(ObjectIdentifier(self), of: ObjectIdentifier(M.self))
    }

    /// Takes `message` unless the listener has ended: to the first waiting reader, or into the buffer.
    func offer(_ message: M) {
        state.withLock { state in
            guard !state.finished else { return }
            if state.waiters.isEmpty {
                state.buffer.append(message)
            } else {
                // Resumed under the lock: `cancel()` cannot slip in between taking and handing over.
                state.waiters.removeFirst().resume(returning: message)
            }
        }
    }

    /// The next message, or `nil` once the listener has ended.
    func next() async -> M? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<M?, Never>) in
                state.withLock { state in
                    if state.finished { return continuation.resume(returning: nil) }
                    if state.head < state.buffer.count {
                        let message = state.buffer[state.head]
                        state.head += 1
                        if state.head == state.buffer.count {
                            state.buffer.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        return continuation.resume(returning: message)
                    }
                    state.waiters.append(continuation)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Reads the listener's messages; several iterators may share one listener.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let listener: MessageListener<M>

        public mutating func next() async -> M? { await listener.next() }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> M? { await listener.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(listener: self) }
}

/// A type-erased ``MessageListener``, as the bus keeps it.
protocol AnyMessageListener: AnyObject, Sendable {}
