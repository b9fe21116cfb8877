import Synchronization

/// Every message of type `M` sent on a host's bus from now on, as an asynchronous sequence, for code that
/// is not a module: a request handler, a test. Made by ``Messenger/listen(to:for:)``.
///
/// The listener receives each message after the module receivers of that send, whatever its audience,
/// even when a receiver threw; a refused send reached nobody and is not heard. It never replies. It buffers what arrives before it is read. It ends when its time is up, when
/// ``cancel()`` is called, or when the task iterating it is cancelled; then the sequence ends, and it
/// receives nothing after ``cancel()`` returns, not even what it had buffered.
///
/// ```swift
/// let reloads = context.messages.listen(to: ConfigurationChanged.self, for: .seconds(5))
/// for await change in reloads { print(change.keys) }
/// ```
public final class MessageListener<M: Message>: AsyncSequence, Sendable, AnyMessageListener {
    public typealias Element = M
    public typealias Failure = Never

    private struct State {
        var buffer: [M] = []
        var head = 0
        var waiter: CheckedContinuation<M?, Never>?
        var finished = false
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let bus: MessageBus

    init(bus: MessageBus, duration: Duration?) {
        self.bus = bus
        bus.add(self)
        if let duration {
            let timer = Task { [weak self] in
                try? await Task.sleep(for: duration)
                if !Task.isCancelled { self?.cancel() }
            }
            state.withLock { $0.timer = timer }
        }
    }

    /// Whether the listener has ended: cancelled, timed out, or its iterating task cancelled.
    public var isCancelled: Bool { state.withLock { $0.finished } }

    /// Ends the listener: once this returns, it receives nothing, and its sequence ends.
    public func cancel() {
        let (waiter, timer): (CheckedContinuation<M?, Never>?, Task<Void, Never>?) = state.withLock { state in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            state.buffer.removeAll()
            state.head = 0
            defer {
                state.waiter = nil
                state.timer = nil
            }
            return (state.waiter, state.timer)
        }
        timer?.cancel()
        waiter?.resume(returning: nil)
        bus.remove(self)
    }

    /// Takes `message` unless the listener has ended.
    func offer(_ message: M) {
        let waiter: CheckedContinuation<M?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(message)
            return nil
        }
        waiter?.resume(returning: message)
    }

    /// The next message, or `nil` once the listener has ended.
    func next() async -> M? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<M?, Never>) in
                let ready: M?? = state.withLock { state in
                    if state.finished { return .some(nil) }
                    if state.head < state.buffer.count {
                        let message = state.buffer[state.head]
                        state.head += 1
                        if state.head == state.buffer.count {
                            state.buffer.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        return .some(message)
                    }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let listener: MessageListener<M>

        public mutating func next() async -> M? { await listener.next() }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> M? { await listener.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(listener: self) }
}

/// A type-erased ``MessageListener``, as the bus keeps it.
protocol AnyMessageListener: AnyObject, Sendable {}
