/// What a host is doing right now: its state, the event it is delivering, and the modules whose hooks it
/// is waiting on, with how long each has run. What a supervisor's status line says
/// (`HostRunner` sends it as systemd's `STATUS=`), and what an operator wants to see when launch stalls.
///
/// The modules are known while a delivery runs under time limits (the default: every hook has a budget)
/// and during warm-up, where several run at once; a delivery without limits shows its event only.
public struct HostActivity: Sendable, Hashable, CustomStringConvertible {
    /// An activity: what ``ApplicationHost/activity`` reads; public so tests can compare with one.
    public init(state: ApplicationState, event: LifecycleEvent?, waitingOn: [Waiting]) {
        self.state = state
        self.event = event
        self.waitingOn = waitingOn
    }

    /// A module whose hook is running, and for how long it has run, on the host's clock.
    public struct Waiting: Sendable, Hashable, CustomStringConvertible {
        /// The module's module-qualified type name.
        public let module: String
        /// How long its hook has run.
        public let elapsed: Duration

        public var description: String {
            let name = module.split(separator: ".").last.map(String.init) ?? module
            let tenths = elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000
            return "\(name) (\(tenths / 10).\(tenths % 10) s)"
        }
    }

    /// The host's state.
    public let state: ApplicationState
    /// The event being delivered, or `nil` between events.
    public let event: LifecycleEvent?
    /// The modules whose hooks are running, in delivery order.
    public let waitingOn: [Waiting]

    /// `"launching: setup, waiting on DatabaseModule (3.2 s)"`, `"active"`.
    public var description: String {
        var text = "\(state)"
        if let event { text += ": \(event.name)" }
        if !waitingOn.isEmpty { text += ", waiting on " + waitingOn.map(\.description).joined(separator: ", ") }
        return text
    }
}

/// Where ``ApplicationHost/activity`` finds the hooks in progress: the supervised delivery or the warm-up
/// stage running now.
enum ActivitySource: Sendable {
    case delivery(plan: [Participant], shared: DeliverySupervision.SharedState)
    case warmUp(WarmUpControl)
}

extension ApplicationHost {
    /// What the host is doing now: readable from anywhere, without waiting for the host.
    public nonisolated var activity: HostActivity {
        let source = activitySource.withLock { $0 }
        let now = time.now()
        var waiting: [HostActivity.Waiting] = []
        switch source {
        case .delivery(let plan, let shared):
            if let current = shared.current, plan.indices.contains(current.position) {
                waiting = [.init(module: plan[current.position].name, elapsed: now - current.start)]
            }
        case .warmUp(let control):
            waiting = control.inFlight.map { .init(module: $0.participant.name, elapsed: now - $0.start) }
        case nil:
            break
        }
        return HostActivity(state: state, event: mailbox.eventInProgress, waitingOn: waiting)
    }
}
