public import LifecycleCore

/// One delivery of one event to a scope's positions: the global actions `0 ..< actions.count`, then the
/// adoptions' positions, in the order they were added. Forward events go up the positions, teardown events
/// down, so the reverse order is the exact mirror.
///
/// It decides which positions receive the event (``admits(_:in:)``): those below `limit` (a rollback
/// reaches only what the failed step reached), and, during an end, those whose step it claims from the
/// scope, so that an end taken over by the watchdog delivers each step exactly once.
@usableFromInline
struct DeliveryRun {
    /// How an end's steps are shared with the watchdog.
    enum Claims {
        /// Not an end: every admitted position receives the event.
        case none
        /// The task that ends the scope: claims each step from the scope's cursor, and stops when the
        /// watchdog has taken the rest.
        case original
        /// The watchdog, after taking the steps from `first` on.
        case takeover(from: Int)
    }

    var event: ScopeEvent
    /// Positions from this one on receive nothing.
    var limit: Int
    let claims: Claims
    /// Every failure is isolated, whatever its policy: the catch-up of a late adoption.
    var isolatesAll = false
    let observer: (any ScopeObserver)?
    /// The steps of an end counted so far.
    private(set) var step = 0
    /// Nothing more is delivered: an action failed the scope, or the watchdog took over.
    @usableFromInline private(set) var stopped = false
    /// The watchdog took over the rest of the end.
    private(set) var lostClaim = false
    /// The failure that stopped the run, and its position.
    private(set) var abort: (failure: ScopeFailure, position: Int)?
    private(set) var failures: [ScopeFailure] = []

    init(_ event: ScopeEvent, limit: Int = .max, claims: Claims = .none, observer: (any ScopeObserver)?) {
        self.event = event
        self.limit = limit
        self.claims = claims
        self.observer = observer
    }

    /// Whether `position` receives the event now.
    @usableFromInline
    mutating func admits(_ position: Int, in scope: Scope) -> Bool {
        guard !stopped, position < limit else { return false }
        switch claims {
        case .none:
            return true
        case .original:
            guard scope.claimStep(step) else {
                stopped = true
                lostClaim = true
                return false
            }
            step += 1
            return true
        case .takeover(let first):
            step += 1
            return step > first
        }
    }

    /// The action at the admitted position returned.
    @usableFromInline
    func delivered(to action: @autoclosure () -> String, in scope: Scope) {
        guard let observer, !returnedLate(in: scope) else { return }
        observer.scope(scope, delivered: event, to: action(), failure: nil)
    }

    /// Whether the action that just returned had overrun the end's budget: the watchdog has reported it as
    /// timed out already, so the observer is not told twice.
    private func returnedLate(in scope: Scope) -> Bool {
        if case .original = claims { return scope.isEndTakenOver }
        return false
    }

    /// The action at `position` threw `error`.
    @usableFromInline
    mutating func failed(
        _ action: String,
        policy: ModuleFailurePolicy,
        error: any Error,
        at position: Int,
        in scope: Scope
    ) {
        let failsScope = !isolatesAll && policy == .abort && !event.isTeardown
        let failure = ScopeFailure(
            scope: scope.summary,
            event: event,
            action: action,
            error: error,
            isolated: !failsScope
        )
        failures.append(failure)
        if !returnedLate(in: scope) { observer?.scope(scope, delivered: event, to: action, failure: failure) }
        if failsScope {
            stopped = true
            abort = (failure, position)
        }
    }
}

extension Scope {
    /// Delivers `event` up the positions.
    func deliverForward(_ adoptions: Adoptions, run: inout DeliveryRun) async {
        var position = 0
        while position < actions.count {
            if run.admits(position, in: self) { await deliverToAction(at: position, run: &run) }
            if run.stopped { return }
            position += 1
        }
        var base = actions.count
        for index in 0..<adoptions.boxCount {
            let box = adoptions[index]
            await box.deliver(run.event, to: self, base: base, run: &run)
            if run.stopped { return }
            base += box.count
        }
    }

    /// Delivers `event` down the positions.
    func deliverReverse(_ adoptions: Adoptions, run: inout DeliveryRun) async {
        var base = actions.count + adoptions.positions
        var index = adoptions.boxCount - 1
        while index >= 0 {
            let box = adoptions[index]
            base -= box.count
            await box.deliver(run.event, to: self, base: base, run: &run)
            if run.stopped { return }
            index -= 1
        }
        var position = actions.count - 1
        while position >= 0 {
            if run.admits(position, in: self) { await deliverToAction(at: position, run: &run) }
            if run.stopped { return }
            position -= 1
        }
    }

    // Inlined: a separate async function costs each hook a frame and two executor switches.
    @inline(__always)
    private func deliverToAction(at position: Int, run: inout DeliveryRun) async {
        do {
            switch run.event {
            case .begin: try await actions[position].instance.didBegin(self)
            case .activate: try await actions[position].instance.didActivate(self)
            case .deactivate: try await actions[position].instance.willDeactivate(self)
            case .end: try await actions[position].instance.willEnd(self)
            }
            run.delivered(to: actions[position].name, in: self)
        } catch {
            let action = actions[position]
            run.failed(action.name, policy: action.policy, error: error, at: position, in: self)
        }
    }

    /// The name of the action at `position`.
    func actionName(at position: Int, _ adoptions: Adoptions) -> String {
        if position < actions.count { return actions[position].name }
        guard let (box, element) = adoptions.locate(position, base: actions.count) else { return "an action" }
        return box.name(of: element)
    }
}
