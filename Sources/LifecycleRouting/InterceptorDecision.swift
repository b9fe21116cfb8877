import LifecycleCore
import Synchronization

/// How an interceptor decides on an intent. Exactly one call, once, before `intercept` returns:
///
/// - ``continue()``: on to the next interceptor, and after the last to the route's handler;
/// - ``switch(to:then:)``: open another intent first, through every interceptor; when it succeeds, restart
///   this one from the first interceptor (the default), or go on with the next;
/// - ``reject(_:)``: fail the intent with ``RouteError/Code/rejected`` and this reason.
///
/// A second call is not acted on: the intent fails with ``RouteError/Code/decidedTwice``, naming both. A
/// call after `intercept` returned is ignored, since returning undecided already failed the intent.
public struct InterceptorDecision: Sendable {
    /// What follows a switched intent that succeeded.
    public enum AfterSwitch: Sendable, Hashable {
        /// Run the original intent again from the first interceptor: the switch did what its condition
        /// needed (a login, a warm cache), and every interceptor judges again.
        case restart
        /// Go on with the original intent at the next interceptor.
        case `continue`
    }

    let box: DecisionBox
    let turn: UInt64

    /// Lets the intent through to the next interceptor, or, after the last, to the route's handler.
    public func `continue`() {
        box.proceed(turn: turn)
    }

    /// Opens `intent` first, through every interceptor; when it succeeds, does `then` with this intent.
    /// If it fails, this intent fails with its error, and the chain that led to it.
    public func `switch`(to intent: RouteIntent, then: AfterSwitch = .restart) {
        box.decide(.switch(intent, then), turn: turn)
    }

    /// Fails the intent with ``RouteError/Code/rejected`` and `reason`.
    public func reject(_ reason: any Error) {
        box.decide(.reject(reason), turn: turn)
    }
}

/// What an interceptor decided.
enum Decided: Sendable {
    case `continue`
    case `switch`(RouteIntent, InterceptorDecision.AfterSwitch)
    case reject(any Error)
    /// Decided more than once: the first, and what the second call said.
    case twice(first: String, second: String)

    var summary: String {
        switch self {
        case .continue: "continue()"
        case .switch(let intent, let then): "switch(to: \(intent), then: .\(then))"
        case .reject(let reason): "reject(\(reason))"
        case .twice(let first, _): first
        }
    }
}

/// The decisions of one opening, one interceptor call (a turn) after another. A `continue()` is one
/// compare-and-swap on ``state``; the other decisions, and every second decision, take the lock as well,
/// so whoever reads a decision's payload finds it written.
final class DecisionBox: Sendable {
    /// The turn, shifted left by 3, with the decision's code in the low bits.
    private let state = Atomic<UInt64>(0)
    private let payload = Locked<(turn: UInt64, decided: Decided?)>((0, nil))

    private enum Code: UInt64 {
        case undecided = 0
        case proceed, switched, rejected, twice
    }

    /// Starts `turn`: the next interceptor call, undecided.
    func begin(_ turn: UInt64) {
        state.store(turn << 3, ordering: .releasing)
    }

    /// `continue()`: one compare-and-swap, unless something was decided already this turn.
    func proceed(turn: UInt64) {
        let (exchanged, _) = state.compareExchange(
            expected: turn << 3,
            desired: turn << 3 | Code.proceed.rawValue,
            ordering: .acquiringAndReleasing
        )
        if !exchanged { decide(.continue, turn: turn) }
    }

    func decide(_ decided: Decided, turn: UInt64) {
        payload.withLock { payload in
            let code: Code =
                switch decided {
                case .continue: .proceed
                case .switch: .switched
                case .reject: .rejected
                case .twice: .twice
                }
            let (exchanged, original) = state.compareExchange(
                expected: turn << 3,
                desired: turn << 3 | code.rawValue,
                ordering: .acquiringAndReleasing
            )
            if exchanged {
                payload = (turn, decided)
                return
            }
            // A call of an earlier turn, after its interceptor returned: that interceptor already failed.
            guard original >> 3 == turn else { return }
            if original & 7 == Code.twice.rawValue { return }
            let first: String =
                switch Code(rawValue: original & 7) {
                case .proceed: Decided.continue.summary
                default: payload.turn == turn ? payload.decided?.summary ?? "a decision" : "a decision"
                }
            // Only if the turn is still the one this decision belongs to: the router may have ended it and begun
            // the next meanwhile, whose state must not be touched.
            let (marked, _) = state.compareExchange(
                expected: original,
                desired: turn << 3 | Code.twice.rawValue,
                ordering: .acquiringAndReleasing
            )
            if marked { payload = (turn, .twice(first: first, second: decided.summary)) }
        }
    }

    /// Ends turn `turn`, so later calls are ignored, and returns what it decided, as a code: compare it
    /// with ``proceeded``, the common case, which needs nothing more; ``decision(of:code:)`` says the rest.
    func end(_ turn: UInt64) -> UInt64 {
        state.exchange((turn + 1) << 3 | 7, ordering: .acquiringAndReleasing) & 7
    }

    /// The code of a turn that decided `continue()`.
    static let proceeded = Code.proceed.rawValue

    /// What the turn `turn`, which ended with `code`, decided, or `nil` if it decided nothing.
    func decision(of turn: UInt64, code: UInt64) -> Decided? {
        switch Code(rawValue: code) {
        case .undecided?, nil: return nil
        case .proceed?: return .continue
        case .switched?, .rejected?, .twice?:
            return payload.withLock { $0.turn == turn ? $0.decided : nil }
        }
    }
}
