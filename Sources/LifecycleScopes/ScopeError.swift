/// A scope could not take a step, an action failed it, or its end overran its budget. The description
/// names the scope, the event, the action concerned and the fix.
public struct ScopeError: Error, Sendable, CustomStringConvertible {
    /// The kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Sendable {
            case invalidTransition, transitionInProgress, actionFailed, endTimedOut, leaked
        }
        let base: Base

        /// The step is not allowed in the scope's state (``ScopeState``): activating an ended scope, ending
        /// a scope twice.
        public static let invalidTransition = Code(base: .invalidTransition)
        /// Another step of the same scope was running; a scope takes one step at a time.
        public static let transitionInProgress = Code(base: .transitionInProgress)
        /// An action or behavior whose failure policy is `.abort` threw; ``underlying`` has what. The scope
        /// has ended.
        public static let actionFailed = Code(base: .actionFailed)
        /// The scope's end did not finish within its budget; ``action`` was still running. The rest of the
        /// end was delivered without waiting for it.
        public static let endTimedOut = Code(base: .endTimedOut)
        /// The scope was released without being ended: its end actions never ran. Reported as a failure,
        /// never thrown.
        public static let leaked = Code(base: .leaked)

        public var description: String { base.rawValue }
    }

    /// The kind of error.
    public let code: Code
    /// The scope concerned.
    public let scope: ScopeSummary
    /// The event being delivered or requested.
    public let event: ScopeEvent
    /// The action or behavior concerned, if one is.
    public let action: String?
    /// What the action threw, for ``Code/actionFailed``.
    public let underlying: (any Error)?
    /// For ``Code/invalidTransition`` and ``Code/transitionInProgress``: the scope's state.
    public let state: ScopeState?
    /// For ``Code/endTimedOut``: the budget.
    public let budget: Duration?
    /// For ``Code/transitionInProgress``: the step that was running, or `nil` when the scope was catching up
    /// an adoption whose hook asked for the step.
    public let running: ScopeEvent?

    init(
        _ code: Code,
        scope: ScopeSummary,
        event: ScopeEvent,
        action: String? = nil,
        underlying: (any Error)? = nil,
        state: ScopeState? = nil,
        budget: Duration? = nil,
        running: ScopeEvent? = nil
    ) {
        self.code = code
        self.scope = scope
        self.event = event
        self.action = action
        self.underlying = underlying
        self.state = state
        self.budget = budget
        self.running = running
    }

    public var description: String {
        let state = state?.rawValue ?? scope.state.rawValue
        switch code.base {
        case .invalidTransition:
            let fix =
                switch event {
                case .begin: "begin a scope once, right after making it"
                case .activate: "activate an inactive scope; check `scope.state`, or make a new scope"
                case .deactivate: "deactivate an active scope only"
                case .end: "end a scope once; `withScope` ends it for you, do not end it in the body as well"
                }
            return "\(scope): cannot \(event) a scope that is \(state). Fix: \(fix)."
        case .transitionInProgress:
            let running = running.map { "its \($0) is running" } ?? "it is catching up an adoption whose hook asked"
            return "\(scope): cannot \(event) now: \(running). Fix: one task owns a scope's steps; await each step "
                + "before the next, and do not take a step of a scope from its own hooks."
        case .actionFailed:
            return
                "\(scope): \(action ?? "an action") failed the scope at \(event): \(underlying.map { "\($0)" } ?? "")."
                + " The scope has ended. Fix: the action's failure policy is .abort; make it .isolate to report "
                + "its failures and go on, or fix what it threw."
        case .endTimedOut:
            return "\(scope): its end did not finish within \(budget.map { "\($0)" } ?? "its budget"); "
                + "\(action ?? "an action") was still running at \(event). The rest of the end went on without it."
                + " Fix: make the action return sooner, or give the scope a longer end budget."
        case .leaked:
            return "\(scope) was released while \(state), never ended: its end actions never ran. Fix: end every "
                + "scope you begin (`try await scope.end()`, in a `defer` or a `withScope`)."
        }
    }
}
