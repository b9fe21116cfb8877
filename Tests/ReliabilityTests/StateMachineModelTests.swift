import Foundation
import LifecycleCore
import Testing

/// The host's transition rules (`HostStateMachine`, a value with no actor) against the reference model's,
/// for every state and every kind of request: the same requests allowed, the same events in the same
/// states, the same end. The random sequences (`ModelBasedTests`) then check that the host carries those
/// rules out.
@Suite("The host's state machine against the reference model")
struct StateMachineModelTests {
    /// One operation of each kind; registration and removal name a module the pool has.
    static let operations: [ModelOp] = [
        .launch, .enterForeground, .enterBackground, .resignActive, .becomeActive, .terminate, .memoryWarning,
        .openURL, .ping, .note, .register(0), .remove(0),
    ]

    /// The request the host receives for `op`.
    static func request(_ op: ModelOp) -> HostRequest {
        switch op {
        case .launch: return .launch
        case .enterForeground: return .enterForeground
        case .enterBackground: return .enterBackground
        case .resignActive: return .resignActive
        case .becomeActive: return .becomeActive
        case .terminate: return .terminate
        case .memoryWarning: return .memoryWarning
        case .openURL: return .open(URL(string: "app://model")!)
        case .ping: return .custom(LifecycleEvent(custom: ModelPing.self))
        case .note: return .custom(LifecycleEvent(custom: ModelNote.self))
        case .register(let index): return .register(ModelPool.types[index])
        case .remove(let index): return .remove(ModelPool.types[index])
        }
    }

    @Test(
        "Every request in every state: allowed or not, the same steps and the same end as the model",
        arguments: ApplicationState.allCases
    )
    func sameRulesAsTheModel(state: ApplicationState) {
        for op in Self.operations {
            let request = Self.request(op)
            let expected = ModelReference.rule(for: op, in: state)
            let transition = HostStateMachine.transition(for: request, from: state)
            #expect(HostStateMachine.allows(request, in: state) == (expected != nil), "\(op) in \(state)")
            guard let expected, let transition else {
                #expect(transition == nil && expected == nil, "\(op) in \(state): \(String(describing: transition))")
                continue
            }
            let steps = transition.steps.map { "\($0.state): \($0.event.name)" }
            let modelSteps = expected.steps.map { "\($0.1): \(ModelRunner.lifecycleEvent($0.0).name)" }
            #expect(steps == modelSteps, "\(op) in \(state)")
            #expect(transition.final == expected.final, "\(op) in \(state)")
            let forOneModule: Bool
            if case .register = op {
                forOneModule = true
            } else if case .remove = op {
                forOneModule = true
            } else {
                forOneModule = false
            }
            #expect(transition.audience == (forOneModule ? .module : .everyone), "\(op) in \(state)")
        }
    }

    @Test("As a value, the machine moves to a transition's end, and stays put on a refused request")
    func applyMovesToTheFinalState() {
        for state in ApplicationState.allCases {
            for op in Self.operations {
                var machine = HostStateMachine(state: state)
                let transition = machine.apply(Self.request(op))
                let expected = ModelReference.rule(for: op, in: state)
                #expect((transition == nil) == (expected == nil), "\(op) in \(state)")
                #expect(machine.state == (expected?.final ?? state), "\(op) in \(state)")
            }
        }
    }

    @Test("A launch that aborts rolls back: willTerminate while terminating, then terminated")
    func rollback() {
        let rollback = HostStateMachine.rollback
        #expect(rollback.steps == [HostStateMachine.Step(.terminating, .willTerminate)])
        #expect(rollback.final == .terminated)
    }
}
