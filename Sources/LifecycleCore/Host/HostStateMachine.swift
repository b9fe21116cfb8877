/// The host's transition rules, as a value: which requests each state allows, which events each one
/// delivers, in which state the host is while it delivers each, and where it ends.
///
/// It has no `async` and no actor, so the rules can be read in one place and tested directly; the host
/// asks it at every request and only carries the answer out (with budgets, failures, rollback and
/// warm-up concurrency, which the rules do not describe). `Docs/Events.md` lists the same table, and a
/// test compares the two.
///
/// | request | allowed in | steps (state while delivered: event) | ends in |
/// |---|---|---|---|
/// | launch | `notRunning` | launching: `willFinishLaunching`, `setup`, `initialize`, `warmUp`, `didFinishLaunching`; active: `didBecomeActive` | `active` |
/// | resignActive | `active` | active: `willResignActive` | `inactive` |
/// | becomeActive | `inactive` | active: `didBecomeActive` | `active` |
/// | enterBackground | `active` | active: `willResignActive`; background: `didEnterBackground` | `background` |
/// | enterBackground | `inactive` | background: `didEnterBackground` | `background` |
/// | enterForeground | `background` | background: `willEnterForeground`; active: `didBecomeActive` | `active` |
/// | terminate | running | terminating: `willTerminate` | `terminated` |
/// | memoryWarning, open-URL, custom | running | unchanged: the event | unchanged |
/// | register | `notRunning`, running | to the new module only, unchanged: the catch-up events | unchanged |
/// | remove | `notRunning`, running | to the module only, unchanged: the teardown events | unchanged |
///
/// "Running" is `active`, `inactive` or `background`. Any other pair is an invalid transition. A launch
/// that aborts ends with ``rollback``.
package struct HostStateMachine: Sendable, Hashable {
    /// One event of a transition and the state the host is in while it delivers it: "will" events in the
    /// state being left, "did" events in the state being entered.
    package struct Step: Sendable, Hashable, CustomStringConvertible {
        package let state: ApplicationState
        package let event: LifecycleEvent

        package init(_ state: ApplicationState, _ event: LifecycleEvent) {
            self.state = state
            self.event = event
        }

        package var description: String { "\(state): \(event.name)" }
    }

    /// Who receives a transition's steps.
    package enum Audience: Sendable, Hashable {
        /// Every participant that implements the event.
        case everyone
        /// Only the module that the request registers or removes.
        case module
    }

    /// What a request allowed in a state does.
    package struct Transition: Sendable, Hashable {
        /// The events delivered, in order, each in the state the host is in meanwhile.
        package let steps: [Step]
        /// The state the host ends in.
        package let final: ApplicationState
        package let audience: Audience

        package init(_ steps: [Step], final: ApplicationState, audience: Audience = .everyone) {
            self.steps = steps
            self.final = final
            self.audience = audience
        }
    }

    /// The state the machine is in.
    package private(set) var state: ApplicationState

    package init(state: ApplicationState = .notRunning) { self.state = state }

    /// Applies `request`: returns its transition and moves to its final state, or returns `nil` and stays
    /// where it is if the state does not allow the request.
    package mutating func apply(_ request: HostRequest) -> Transition? {
        guard let transition = Self.transition(for: request, from: state) else { return nil }
        state = transition.final
        return transition
    }

    /// The events launch delivers while `launching`, in order; their failures count against the launch
    /// failure policy.
    package static let launchEvents: [LifecycleEvent] = [
        .willFinishLaunching, .setup, .initialize, .warmUp, .didFinishLaunching,
    ]

    /// What ends a launch that aborted: the participants launch had reached receive `willTerminate`
    /// while `terminating`, and the host ends `terminated`.
    package static let rollback = Transition([Step(.terminating, .willTerminate)], final: .terminated)

    /// Whether `state` allows `request`: the table's "allowed in" column. Allocates nothing, so the host
    /// asks it on the path of every event.
    package static func allows(_ request: HostRequest, in state: ApplicationState) -> Bool {
        switch request.kind {
        case .launch: return state == .notRunning
        case .resignActive: return state == .active
        case .becomeActive: return state == .inactive
        case .enterBackground: return state == .active || state == .inactive
        case .enterForeground: return state == .background
        case .terminate, .memoryWarning, .openURL, .custom: return state.isRunning
        case .register, .remove, .reloadModules, .releaseQuarantine, .quarantine:
            return state == .notRunning || state.isRunning
        case .idle, .waitTerminated: return false
        }
    }

    /// What `request` does in `state`, or `nil` if `state` does not allow it.
    package static func transition(for request: HostRequest, from state: ApplicationState) -> Transition? {
        guard allows(request, in: state) else { return nil }
        switch request.kind {
        case .launch:
            return Transition(
                launchEvents.map { Step(.launching, $0) } + [Step(.active, .didBecomeActive)],
                final: .active
            )
        case .resignActive:
            return Transition([Step(.active, .willResignActive)], final: .inactive)
        case .becomeActive:
            return Transition([Step(.active, .didBecomeActive)], final: .active)
        case .enterBackground where state == .active:
            return Transition(
                [Step(.active, .willResignActive), Step(.background, .didEnterBackground)],
                final: .background
            )
        case .enterBackground:
            return Transition([Step(.background, .didEnterBackground)], final: .background)
        case .enterForeground:
            return Transition(
                [Step(.background, .willEnterForeground), Step(.active, .didBecomeActive)],
                final: .active
            )
        case .terminate:
            return Transition([Step(.terminating, .willTerminate)], final: .terminated)
        case .memoryWarning:
            return Transition([Step(state, .didReceiveMemoryWarning)], final: state)
        case .openURL:
            return Transition([Step(state, .openURL)], final: state)
        case .custom(let event):
            return Transition([Step(state, event)], final: state)
        case .register:
            return Transition(catchUp(in: state).map { Step(state, $0) }, final: state, audience: .module)
        case .remove:
            return Transition(teardown(in: state).map { Step(state, $0) }, final: state, audience: .module)
        case .reloadModules, .releaseQuarantine, .quarantine:
            // Each module turned off or on is taken down or caught up as `remove` and `register` would.
            return Transition([], final: state, audience: .module)
        case .idle, .waitTerminated:
            return nil
        }
    }

    /// The events a module registered in `state` receives alone: those that brought the host there.
    private static func catchUp(in state: ApplicationState) -> [LifecycleEvent] {
        switch state {
        case .active: return launchEvents + [.didBecomeActive]
        case .inactive: return launchEvents
        case .background: return launchEvents + [.didEnterBackground]
        default: return []
        }
    }

    /// The events a module removed in `state` receives alone: those that take it down from there.
    private static func teardown(in state: ApplicationState) -> [LifecycleEvent] {
        switch state {
        case .active: return [.willResignActive, .didEnterBackground, .willTerminate]
        case .inactive: return [.didEnterBackground, .willTerminate]
        case .background: return [.willTerminate]
        default: return []
        }
    }
}
