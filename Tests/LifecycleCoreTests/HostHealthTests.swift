import Foundation
import LifecycleCore
import Testing

@Suite("HostHealth: readiness from state, draining and modules; its JSON")
struct HostHealthTests {
    @Test("Ready only when active or inactive, every module ready, not draining")
    func readinessFollowsTheState() {
        let ready: Set<ApplicationState> = [.active, .inactive]
        for state in ApplicationState.allCases {
            #expect(HostHealth(state: state).isReady == ready.contains(state), "\(state)")
        }
        #expect(!HostHealth(state: .active, isDraining: true).isReady)
        #expect(!HostHealth(state: .active, notReady: ["App.CacheModule"]).isReady)
        #expect(HostHealth(state: .active, degraded: ["App.CacheModule"]).isReady, "degraded still serves")
    }

    @Test("Draining a copy turns it unready; the reason says why, for each case")
    func reasons() {
        var health = HostHealth(state: .active)
        #expect(health.reason == nil)
        #expect(health.description == "active, ready")
        health.isDraining = true
        #expect(!health.isReady)
        #expect(health.reason == "draining before termination")
        #expect(HostHealth(state: .launching).reason == "launching")
        #expect(HostHealth(state: .background).reason == "in the background")
        #expect(HostHealth(state: .terminating).reason == "terminating")
        #expect(HostHealth(state: .notRunning).reason == "not launched yet")
        #expect(HostHealth(state: .active, notReady: ["A.One", "A.Two"]).reason == "waiting for A.One, A.Two")
        #expect(
            HostHealth(state: .background, degraded: ["A.Slow"]).description
                == "background, not ready: in the background; degraded: A.Slow"
        )
    }

    @Test("Encodes as the readiness endpoint's JSON object, and decodes back")
    func json() throws {
        let health = HostHealth(
            state: .inactive,
            notReady: ["App.Late"],
            degraded: ["App.Slow"],
            quarantined: ["App.Flaky"]
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(health), as: UTF8.self)
        #expect(
            text
                == #"{"degraded":["App.Slow"],"draining":false,"notReady":["App.Late"],"quarantined":["App.Flaky"],"#
                + #""ready":false,"state":"inactive"}"#
        )
        #expect(try JSONDecoder().decode(HostHealth.self, from: Data(text.utf8)) == health)

        let ready = try JSONDecoder().decode(HostHealth.self, from: Data(#"{"state":"active","ready":false}"#.utf8))
        #expect(ready == HostHealth(state: .active), "the lists default to empty; `ready` follows from the rest")
        #expect(ready.isReady)
    }

    @Test("An unknown state does not decode, and the error lists the states")
    func unknownState() {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(HostHealth.self, from: Data(#"{"state":"sleeping"}"#.utf8))
        }
        #expect("\(String(describing: error))".contains("\"sleeping\" is not a state"))
    }
}
