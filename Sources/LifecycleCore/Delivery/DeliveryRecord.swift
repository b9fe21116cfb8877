/// A record of one hook call, reported to ``ApplicationHost/Configuration/onDelivery`` as it happens.
public struct DeliveryRecord: Sendable, CustomStringConvertible {
    /// The event delivered.
    public let event: LifecycleEvent
    /// Who received it.
    public let participant: Participant
    /// When the hook was called.
    public let start: ContinuousClock.Instant
    /// How long the hook took, measured with `ContinuousClock`.
    public let duration: Duration
    /// The value the hook returned, for events with a Bool result.
    public let result: Bool?
    /// What the hook threw, if it threw.
    public let error: (any Error)?
    /// For a message between modules (LifecycleMessaging, where ``event`` names the message type): the
    /// module that sent it, or `nil` when the sender is not a module. `nil` for lifecycle events.
    public let sender: Participant?

    @usableFromInline
    package init(
        event: LifecycleEvent,
        participant: Participant,
        start: ContinuousClock.Instant,
        duration: Duration,
        result: Bool?,
        error: (any Error)?,
        sender: Participant? = nil
    ) {
        self.event = event
        self.participant = participant
        self.start = start
        self.duration = duration
        self.result = result
        self.error = error
        self.sender = sender
    }

    public var description: String {
        var text = "\(event.name) → \(participant) in \(duration.microsecondsDescription)"
        if let sender { text = "\(sender): " + text }
        if let result { text += " returned \(result)" }
        if let error { text += " threw \(error)" }
        return text
    }
}

/// A function told about every hook call as it completes.
public typealias DeliveryObserver = @Sendable (DeliveryRecord) -> Void

extension Duration {
    /// The duration in microseconds, with one decimal: `"12.5 µs"`.
    package var microsecondsDescription: String {
        let (seconds, attoseconds) = components
        let tenths = (Double(seconds) * 1e7 + Double(attoseconds) / 1e11).rounded()
        return "\(tenths / 10) µs"
    }
}
