/// A host's configured clock as a concrete `Clock`: instants are durations since the host was created
/// (``ClockFunctions``), so the host's ``Watchdog`` is specialized once for every clock a user passes, and
/// a test's `VirtualClock` drives it like any other.
package struct HostClock: Clock {
    /// A point on the host's clock: the time since the host was created.
    package struct Instant: InstantProtocol, Hashable, Sendable {
        package let offset: Duration

        package init(offset: Duration) { self.offset = offset }

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    package let time: ClockFunctions

    package init(_ time: ClockFunctions) { self.time = time }

    package var now: Instant { Instant(offset: time.now()) }
    package var minimumResolution: Duration { .zero }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await time.sleep(deadline.offset)
    }
}
