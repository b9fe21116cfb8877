/// A work's recent restarts, for the intensity limit and the backoff (``WorkPolicy``): pure, so the rules
/// are tested without a clock.
struct RestartHistory: Sendable {
    /// When each restart within the last period happened, oldest first, on the host's clock.
    private(set) var restarts: [Duration] = []

    /// The wait before restarting at `now`, or `nil` if the intensity limit refuses the restart. Records the
    /// restart when it is allowed. `random` is a value in 0..<1 that places the jitter.
    mutating func restart(at now: Duration, policy: WorkPolicy, random: Double) -> Duration? {
        restarts.removeAll { now - $0 >= policy.intensity.period }
        guard restarts.count < policy.intensity.maxRestarts else { return nil }
        let backoff = policy.backoff
        var delay = backoff.initial
        for _ in 0..<restarts.count {
            guard delay < backoff.maximum else { break }
            delay = delay * backoff.multiplier
        }
        delay = min(delay, backoff.maximum)
        if backoff.jitter > 0 { delay = delay * (1 + backoff.jitter * (2 * random - 1)) }
        restarts.append(now)
        return max(delay, .zero)
    }
}
