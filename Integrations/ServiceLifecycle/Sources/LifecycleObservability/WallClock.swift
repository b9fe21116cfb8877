import Tracing

/// Turns `ContinuousClock` instants, which the host reports, into the wall-clock instants a tracer wants:
/// nanoseconds since the Unix epoch.
///
/// The offset between the two clocks is measured once, when the clock is made, so every instant of one
/// instrument converts with the same offset: spans nest as the host's measurements did, even if the wall
/// clock is stepped meanwhile.
struct WallClock: Sendable {
    /// The continuous instant the offset was measured at.
    private let origin: ContinuousClock.Instant
    /// The wall-clock time at `origin`, in nanoseconds since the Unix epoch.
    private let originNanoseconds: Int64

    init() {
        origin = .now
        originNanoseconds = Int64(clamping: DefaultTracerClock.now.nanosecondsSinceEpoch)
    }

    /// `instant` on the wall clock.
    func instant(_ instant: ContinuousClock.Instant) -> DefaultTracerClock.Timestamp {
        let (seconds, attoseconds) = (instant - origin).components
        let nanoseconds = originNanoseconds &+ seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
        return DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: UInt64(max(0, nanoseconds)))
    }

    /// Now, on the wall clock, converted like every other instant.
    var now: DefaultTracerClock.Timestamp { instant(.now) }
}
