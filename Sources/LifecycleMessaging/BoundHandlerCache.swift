import LifecycleCore
import Synchronization

/// A route's bound handlers (``BoundHandler``), for each of the few senders that broadcast its message,
/// and the same objects unretained, which a broadcast calls. Not generic, so finding a sender's list
/// instantiates no metadata: a broadcast pays one lock and a scan of at most ``capacity`` senders.
@usableFromInline
final class BoundHandlerCache: Sendable {
    private struct Slots {
        var senders: [ObjectIdentifier?] = []
        /// The objects, kept alive for as long as the route: their unretained references stay valid.
        var objects: [[AnyObject]] = []
        var calls: [[Unmanaged<AnyObject>]] = []
    }

    /// How many senders' lists a route keeps: a handful of senders broadcast most messages. Past it, each
    /// call builds its own context (the broadcast's slower path).
    static var capacity: Int { 8 }

    private let slots = Locked(Slots())

    init() {}

    /// The unretained bound handlers for messages from `sender`, built by `build` the first time; `nil`
    /// when the cache holds ``capacity`` other senders already.
    func calls(from sender: ObjectIdentifier?, build: () -> [AnyObject]) -> [Unmanaged<AnyObject>]? {
        slots.withLock { slots in
            if let position = slots.senders.firstIndex(of: sender) { return slots.calls[position] }
            guard slots.senders.count < Self.capacity else { return nil }
            let objects = build()
            let calls = objects.map { Unmanaged.passUnretained($0) }
            slots.senders.append(sender)
            slots.objects.append(objects)
            slots.calls.append(calls)
            return calls
        }
    }
}
