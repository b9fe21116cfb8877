/// What the host does when a work returns or throws, and how long a work has to stop.
///
/// Restarts follow Erlang/OTP's supervisors: a restart type decides which endings restart the work, an
/// intensity limit bounds how often, and past it the failure escalates. Between restarts the work waits an
/// exponential backoff with jitter, so a crash loop is bounded in time as well as in count.
///
/// | ending | `.permanent` | `.transient` | `.temporary` |
/// |---|---|---|---|
/// | returned by itself | restart | finished: stays stopped | finished: stays stopped |
/// | threw | restart | restart | escalate |
/// | asked to stop (graceful shutdown) | stopped | stopped | stopped |
///
/// A restart the intensity limit refuses escalates instead. Escalation is ``escalation``: leave the work
/// stopped (`.ignore`), quarantine its module, or terminate the application gracefully (the default;
/// `HostRunner` exits with code 6).
///
/// The defaults (``standard``): `.transient`, at most 3 restarts within 30 seconds, backoff from 100 ms
/// doubling to 10 s with 10 % jitter, escalation `.terminateApplication`, a 10 s grace period to stop and
/// 5 s more once cancelled. A work that keeps failing therefore stops the application, as .NET's
/// `BackgroundServiceExceptionBehavior.StopHost` does, rather than leaving it running without it.
public struct WorkPolicy: Sendable, Hashable {
    /// Which endings restart a work (OTP's child restart types).
    public enum Restart: Sendable, Hashable {
        /// Always restarted, whether it returned or threw: a work that must run all along.
        case permanent
        /// Restarted only after it threw; a work that returns has finished.
        case transient
        /// Never restarted: a throw escalates at once.
        case temporary
    }

    /// What happens to a work that failed and is not restarted.
    public enum Escalation: Sendable, Hashable {
        /// It stays stopped; the journal and ``WorkStatus`` say so. A `.whileActive` work starts again the
        /// next time the application becomes active.
        case ignore
        /// Its module is quarantined: taken down and out like a module whose hooks keep failing, until
        /// `releaseQuarantine(_:)`.
        case quarantineModule
        /// The application terminates gracefully; `ApplicationHost.terminationFailure` holds a
        /// `LifecycleError.Code.workFailed` error naming the work, and `HostRunner` exits with code 6.
        case terminateApplication
    }

    /// At most ``maxRestarts`` restarts within ``period`` (OTP's intensity and period); one more escalates.
    public struct Intensity: Sendable, Hashable {
        /// How many restarts the period allows; one more escalates. 0: the first failure escalates.
        public var maxRestarts: Int
        /// The sliding window the restarts are counted in, on the host's clock.
        public var period: Duration

        /// At most `maxRestarts` restarts within `period`.
        public init(maxRestarts: Int, within period: Duration) {
            self.maxRestarts = maxRestarts
            self.period = period
        }
    }

    /// The wait before a restart: `initial`, multiplied by `multiplier` for each restart already made
    /// within the intensity period, at most `maximum`, then moved by up to `jitter` (a fraction) either way.
    public struct Backoff: Sendable, Hashable {
        /// The wait before the first restart within the period.
        public var initial: Duration
        /// The longest wait, however many restarts came before.
        public var maximum: Duration
        /// What each earlier restart within the period multiplies the wait by; 1 or more.
        public var multiplier: Double
        /// The fraction, 0 through 1, by which each wait is moved at random either way.
        public var jitter: Double

        /// A backoff from `initial`, multiplied by `multiplier` per restart, at most `maximum`, with `jitter`.
        public init(initial: Duration, maximum: Duration, multiplier: Double = 2, jitter: Double = 0.1) {
            self.initial = initial
            self.maximum = maximum
            self.multiplier = multiplier
            self.jitter = jitter
        }

        /// No wait between restarts.
        public static let none = Backoff(initial: .zero, maximum: .zero, multiplier: 1, jitter: 0)
    }

    /// Which endings restart the work.
    public var restart: Restart
    /// How many restarts are allowed before the failure escalates.
    public var intensity: Intensity
    /// How long to wait before each restart.
    public var backoff: Backoff
    /// What happens when a failed work is not restarted.
    public var escalation: Escalation
    /// How long a work asked to stop has before it is cancelled.
    public var gracePeriod: Duration
    /// How long a cancelled work has to return before it is abandoned: the host stops waiting for it and
    /// says so (`LifecycleError.abandonedWork`; `HostRunner` exits with code 4).
    public var cancellationGrace: Duration

    /// A policy; every argument defaults to ``standard``'s value.
    public init(
        restart: Restart = .transient,
        intensity: Intensity = Intensity(maxRestarts: 3, within: .seconds(30)),
        backoff: Backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(10)),
        escalation: Escalation = .terminateApplication,
        gracePeriod: Duration = .seconds(10),
        cancellationGrace: Duration = .seconds(5)
    ) {
        self.restart = restart
        self.intensity = intensity
        self.backoff = backoff
        self.escalation = escalation
        self.gracePeriod = gracePeriod
        self.cancellationGrace = cancellationGrace
    }

    /// The defaults: see the type's description.
    public static let standard = WorkPolicy()

    /// What is wrong with this policy, for ``WorkError``: `nil` when nothing is.
    var problem: String? {
        if intensity.maxRestarts < 0 { return "intensity.maxRestarts is \(intensity.maxRestarts); use 0 or more" }
        if intensity.period <= .zero { return "intensity.period is \(intensity.period); use a positive duration" }
        if backoff.initial < .zero || backoff.maximum < backoff.initial {
            return "backoff is \(backoff.initial) to \(backoff.maximum); use 0 <= initial <= maximum"
        }
        if !(backoff.multiplier >= 1) { return "backoff.multiplier is \(backoff.multiplier); use 1 or more" }
        if !(0...1).contains(backoff.jitter) { return "backoff.jitter is \(backoff.jitter); use 0 through 1" }
        if gracePeriod < .zero { return "gracePeriod is \(gracePeriod); use zero or more" }
        if cancellationGrace < .zero { return "cancellationGrace is \(cancellationGrace); use zero or more" }
        return nil
    }
}

extension WorkPolicy: CustomStringConvertible {
    /// `transient, 3 restarts in 30 seconds, then terminate the application`: what `plan` prints.
    public var description: String {
        let escalates =
            switch escalation {
            case .ignore: "leave it stopped"
            case .quarantineModule: "quarantine the module"
            case .terminateApplication: "terminate the application"
            }
        return "\(restart), \(intensity.maxRestarts) restarts in \(intensity.period), then \(escalates); "
            + "stops within \(gracePeriod) + \(cancellationGrace)"
    }
}
