/// A hook that threw: which participant, during which event, and what it threw.
public struct HookFailure: Sendable, CustomStringConvertible {
    /// The participant whose hook threw.
    public let participant: Participant
    /// The event being delivered.
    public let event: LifecycleEvent
    /// What the hook threw.
    public let error: any Error

    @usableFromInline
    package init(participant: Participant, event: LifecycleEvent, error: any Error) {
        self.participant = participant
        self.event = event
        self.error = error
    }

    public var description: String {
        "`\(participant.name)` threw in \(event.name): \(error)"
    }
}
