import LifecycleCore

/// A receiver's handler with the test kit's fault seam in front of it: asked before every call, for a host
/// that injects faults (`LifecycleTesting`'s random lifecycles). The messaging preparation puts it around
/// each handler only in such a host, so a host without faults calls its handlers as before and pays nothing.
struct FaultingMessageHandler<M: Message>: Sendable {
    let handler: MessageRoute<M>.Handler
    let bind: @Sendable (MessageContext) -> BoundHandler<M>

    init(
        _ handler: MessageRoute<M>.Handler,
        _ bind: @escaping @Sendable (MessageContext) -> BoundHandler<M>,
        faults: FaultInjection,
        participant: Participant
    ) {
        let site = FaultSite.handler("message \(M.name)")
        switch handler {
        case .sync(let call):
            self.handler = .sync { message, context in
                try faults.strikeSync(participant, site)
                return try call(message, context)
            }
        case .async(let call):
            self.handler = .async { message, context in
                try await faults.strike(participant, site)
                return try await call(message, context)
            }
        }
        self.bind = { context in
            FaultingBoundHandler(bind(context), faults: faults, participant: participant, site: site)
        }
    }
}

/// The bound handler a broadcast calls, with the fault seam asked first.
final class FaultingBoundHandler<M: Message>: BoundHandler<M> {
    let inner: BoundHandler<M>
    let faults: FaultInjection
    let participant: Participant
    let site: FaultSite

    init(_ inner: BoundHandler<M>, faults: FaultInjection, participant: Participant, site: FaultSite) {
        self.inner = inner
        self.faults = faults
        self.participant = participant
        self.site = site
        super.init(context: inner.context)
    }

    override func callAsFunction(_ message: M) throws -> M.Reply {
        try faults.strikeSync(participant, site)
        return try inner(message)
    }
}
