/// The injected clock, opened once: time as a `Duration` since the host was created, and sleeping until
/// such a time; and wall-clock (`ContinuousClock`) time as a `Duration` since ``wallOrigin``, for
/// delivery records.
///
/// Hot paths keep instants as `Duration`s: `ContinuousClock.Instant` is resilient, so every copy of a value
/// that holds one goes through its value witnesses.
package struct ClockFunctions: Sendable {
    package let now: @Sendable () -> Duration
    /// ``now`` and the wall-clock time, in one reading when the configured clock is the continuous clock
    /// (the default): then the two are the same.
    package let nowAndWall: @Sendable () -> (now: Duration, wall: Duration)
    package let sleep: @Sendable (_ until: Duration) async throws -> Void
    /// The instant wall-clock times are measured from.
    package let wallOrigin: ContinuousClock.Instant
    /// Whether the configured clock is the continuous clock, which runs in real time.
    package let isContinuous: Bool

    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let wallOrigin = ContinuousClock.now
        self.wallOrigin = wallOrigin
        isContinuous = clock is ContinuousClock
        if let continuous = clock as? ContinuousClock {
            // Concrete code for the default clock: no generic instant arithmetic per reading.
            now = { wallOrigin.duration(to: .now) }
            nowAndWall = {
                let now = wallOrigin.duration(to: .now)
                return (now, now)
            }
            sleep = { offset in try await continuous.sleep(until: wallOrigin.advanced(by: offset), tolerance: nil) }
        } else {
            let origin = clock.now
            let now: @Sendable () -> Duration = { origin.duration(to: clock.now) }
            self.now = now
            nowAndWall = { (now(), wallOrigin.duration(to: .now)) }
            sleep = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        }
    }

    /// The wall-clock time now.
    package func wallNow() -> Duration { wallOrigin.duration(to: .now) }

    /// The wall-clock instant of a wall-clock time.
    package func wall(_ time: Duration) -> ContinuousClock.Instant { wallOrigin.advanced(by: time) }
}
