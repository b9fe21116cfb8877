import LifecycleCore
import LifecycleScopes
import LifecycleTesting
import Testing

@Suite("Scope state machine: every step checked against a model")
struct ScopeStateMachineTests {
    /// The model: what each step does from each state, and what the actions receive.
    private func expected(_ state: ScopeState, _ event: ScopeEvent) -> (ScopeState, [ScopeEvent])? {
        switch (state, event) {
        case (.idle, .begin): (.inactive, [.begin])
        case (.inactive, .activate): (.active, [.activate])
        case (.active, .deactivate): (.inactive, [.deactivate])
        case (.idle, .end): (.ended, [])
        case (.inactive, .end): (.ended, [.end])
        case (.active, .end): (.ended, [.deactivate, .end])
        default: nil
        }
    }

    @Test("random step sequences: the state, the deliveries and the errors follow the model")
    func modelBased() async throws {
        let (host, scopes, recorder) = try scopedHost([EveryKindAction.self])
        defer { withExtendedLifetime(host) {} }
        var generator = SplitMix(seed: 0x5C0_9E)
        for round in 0..<200 {
            let name = "scope \(round)"
            let scope = scopes.scope(.job, name)
            var model = ScopeState.idle
            var delivered: [ScopeEvent] = []
            for _ in 0..<8 {
                let event = ScopeEvent.allCases[Int(generator.next() % 4)]
                let before = recorder.receivers(of: event, in: name).count
                if let (next, events) = expected(model, event) {
                    switch event {
                    case .begin: try await scope.begin()
                    case .activate: try await scope.activate()
                    case .deactivate: try await scope.deactivate()
                    case .end: try await scope.end()
                    }
                    model = next
                    delivered += events
                } else {
                    let error = await #expect(throws: ScopeError.self) {
                        switch event {
                        case .begin: try await scope.begin()
                        case .activate: try await scope.activate()
                        case .deactivate: try await scope.deactivate()
                        case .end: try await scope.end()
                        }
                    }
                    #expect(error?.code == .invalidTransition)
                    #expect(error?.state == model)
                    #expect(error?.description.contains(name) == true)
                    #expect(recorder.receivers(of: event, in: name).count == before)
                }
                #expect(scope.state == model)
            }
            #expect(recorder.deliveries.filter { $0.scopeName == name }.map(\.event) == delivered)
            if model != .ended { try await scope.end() }
        }
        #expect(scopes.inFlight().isEmpty)
    }

    @Test("ending twice and activating an ended scope are typed errors that name the scope and the fix")
    func invalidSteps() async throws {
        let (host, scopes, _) = try scopedHost()
        defer { withExtendedLifetime(host) {} }
        let scope = try await scopes.begin(.request, "GET /twice")
        try await scope.end()
        let twice = await #expect(throws: ScopeError.self) { try await scope.end() }
        #expect(twice?.code == .invalidTransition)
        #expect(twice?.description.contains("request scope") == true)
        #expect(twice?.description.contains("GET /twice") == true)
        #expect(twice?.description.contains("Fix: end a scope once") == true)
        let activated = await #expect(throws: ScopeError.self) { try await scope.activate() }
        #expect(activated?.code == .invalidTransition)
        #expect(activated?.state == .ended)
    }

    @Test("a step requested while another runs fails with transitionInProgress; the running one completes")
    func oneStepAtATime() async throws {
        let gate = Gate()
        let (host, scopes, _) = try scopedHost([])
        defer { withExtendedLifetime(host) {} }
        let scope = try await scopes.begin(.session, "busy")
        await scope.on(.activate, "slow") { _ in await gate.wait() }
        let activation = Task { try await scope.activate() }
        try await waitUntil { gate.isWaiting }
        let error = await #expect(throws: ScopeError.self) { try await scope.end() }
        #expect(error?.code == .transitionInProgress)
        gate.open()
        try await activation.value
        #expect(scope.state == .active)
        try await scope.end()
        #expect(scope.state == .ended)
    }
}

/// A deterministic random number generator.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
