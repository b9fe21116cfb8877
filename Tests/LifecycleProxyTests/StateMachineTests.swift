import Foundation
import LifecycleCore
import LifecycleProxy
import Testing

@Suite("State machine")
struct StateMachineTests {
    /// How to bring a host into each state, starting from a fresh one.
    static func bring(_ host: ApplicationHost, to state: ApplicationState) async throws {
        switch state {
        case .notRunning: break
        case .active: try await host.launch()
        case .inactive:
            try await host.launch()
            try await host.resignActive()
        case .background:
            try await host.launch()
            try await host.enterBackground()
        case .terminated:
            try await host.launch()
            try await host.terminate()
        case .launching, .terminating: Issue.record("transient state \(state) cannot be held")
        }
    }

    static func request(_ request: HostRequest, on host: ApplicationHost) async throws {
        switch request {
        case .launch: try await host.launch()
        case .enterForeground: try await host.enterForeground()
        case .enterBackground: try await host.enterBackground()
        case .resignActive: try await host.resignActive()
        case .becomeActive: try await host.becomeActive()
        case .terminate: try await host.terminate()
        case .memoryWarning: try await host.receiveMemoryWarning()
        default: _ = try await host.open(URL(string: "demo://x")!)
        }
    }

    static let stableStates: [ApplicationState] = [.notRunning, .active, .inactive, .background, .terminated]
    static let requests: [HostRequest] = [
        .launch, .enterForeground, .enterBackground, .resignActive, .becomeActive, .terminate, .memoryWarning,
        .open(URL(string: "demo://x")!),
    ]

    /// The complete table of what each stable state allows.
    static func isAllowed(_ request: HostRequest, in state: ApplicationState) -> Bool {
        if !request.isTransition { return state.isRunning }
        return HostRequest.allowed(in: state).contains(request)
    }

    @Test("Every refused request throws invalidTransition naming state and request, and delivers nothing")
    func invalidTransitionsThrowAndDeliverNothing() async throws {
        var refused = 0
        for state in Self.stableStates {
            for request in Self.requests where !Self.isAllowed(request, in: state) {
                let script = Script()
                let host = try makeHost([High.self, Low.self], delegate: true, script: script)
                try await Self.bring(host, to: state)
                let before = script.journal.entries

                let error = await #expect(throws: LifecycleError.self, "\(request) in \(state)") {
                    try await Self.request(request, on: host)
                }
                #expect(error?.code == .invalidTransition)
                #expect(error?.state == state)
                #expect(error?.request == request)
                #expect(error?.description.contains("Cannot \(request) while the host is \(state)") == true)
                #expect(script.journal.entries == before, "\(request) in \(state) delivered something")
                #expect(host.state == state)
                refused += 1
            }
        }
        // 5 states × 8 requests, minus the 15 allowed pairs (1 + 5 + 5 + 4 + 0).
        #expect(refused == 25)
    }

    @Test("Every allowed request is accepted and moves the host where the table says")
    func allowedTransitionsSucceed() async throws {
        let expected: [ApplicationState: [HostRequest: ApplicationState]] = [
            .notRunning: [.launch: .active],
            .active: [.enterBackground: .background, .resignActive: .inactive, .terminate: .terminated],
            .inactive: [.becomeActive: .active, .enterBackground: .background, .terminate: .terminated],
            .background: [.enterForeground: .active, .terminate: .terminated],
        ]
        for (state, moves) in expected {
            #expect(Set(HostRequest.allowed(in: state)) == Set(moves.keys))
            for (request, target) in moves {
                let host = try makeHost([NormalA.self])
                try await Self.bring(host, to: state)
                try await Self.request(request, on: host)
                #expect(host.state == target, "\(request) from \(state)")
            }
        }
    }

    @Test("The error message tells the fix for the state")
    func messagesCarryTheFix() async throws {
        let host = try makeHost([NormalA.self])
        let early = await #expect(throws: LifecycleError.self) { try await host.enterBackground() }
        #expect(early?.description.contains("Call launch() first.") == true)

        try await host.launch()
        try await host.terminate()
        let late = await #expect(throws: LifecycleError.self) { try await host.receiveMemoryWarning() }
        #expect(late?.description.contains("create a new ApplicationHost") == true)
    }
}
