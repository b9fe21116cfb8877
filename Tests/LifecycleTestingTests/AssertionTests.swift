import LifecycleCore
import LifecycleTesting
import Testing

/// What a hook threw, with a short description for exact message checks.
private struct Declined: Error, CustomStringConvertible {
    var description: String { "declined" }
}

/// A recorder fed by hand, so the names in failure messages are short and exact. Each name gets one
/// participant identity; "Delegate" is the program's delegate.
private func recorder(_ deliveries: [(LifecycleEvent, String, Bool?, (any Error)?)]) -> LifecycleRecorder {
    let recorder = LifecycleRecorder()
    var ids: [String: Int] = [:]
    for (event, name, result, error) in deliveries {
        let id = ids[name] ?? ids.count
        ids[name] = id
        let participant = Participant(name: name, priority: name == "Delegate" ? nil : .normal, id: id)
        recorder.record(
            DeliveryRecord(
                event: event,
                participant: participant,
                start: .now,
                duration: .zero,
                result: result,
                error: error
            )
        )
    }
    return recorder
}

/// A recorder in which `names` received `event` once each, in this order, without a result.
private func recorder(_ event: LifecycleEvent, to names: [String]) -> LifecycleRecorder {
    recorder(names.map { (event, $0, nil, nil) })
}

/// Checks that `assertion`, given a source location, records exactly the issue `message` there — and so
/// that the assertion can fail, and fails with that diff.
private func expectFailure(
    _ message: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    of assertion: (SourceLocation) -> Void
) {
    let site = SourceLocation(
        fileID: "Adopter/ShopTests.swift",
        filePath: "/Adopter/ShopTests.swift",
        line: 42,
        column: 5
    )
    withKnownIssue(sourceLocation: sourceLocation) {
        assertion(site)
    } matching: { issue in
        issue.sourceLocation == site && issue.comments.map(\.rawValue) == [message]
    }
}

@Suite("Receivers assertion")
struct ReceiversAssertionTests {
    @Test("Passes when exactly the expected participants received the event, in order")
    func passes() {
        let recorded = recorder(.willTerminate, to: ["C", "B", "A"])
        expectReceivers(of: .willTerminate, in: recorded, names: ["C", "B", "A"])
        expectReceivers(of: .openURL, in: recorded, names: [])
    }

    @Test("A receiver out of place fails with the first differing position and a line-by-line diff")
    func reordered() {
        let recorded = recorder(.willFinishLaunching, to: ["A", "C", "B"])
        expectFailure(
            """
            Receivers of willFinishLaunching differ at index 1: expected B, received C:
              (- expected here but not received here, + received here but not expected here)
                A
              - B
                C
              + B
            """
        ) { site in
            expectReceivers(of: .willFinishLaunching, in: recorded, names: ["A", "B", "C"], sourceLocation: site)
        }
    }

    @Test("A missing receiver is marked -, an unexpected one +")
    func missingAndUnexpected() {
        let recorded = recorder(.didEnterBackground, to: ["Delegate", "A", "Extra"])
        expectFailure(
            """
            Receivers of didEnterBackground differ at index 2: expected B, received Extra:
              (- expected here but not received here, + received here but not expected here)
                Delegate
                A
              - B
              + Extra
            """
        ) { site in
            expectReceivers(of: .didEnterBackground, in: recorded, names: ["Delegate", "A", "B"], sourceLocation: site)
        }
    }

    @Test("A shorter recording says what the expected list goes on with")
    func tooFew() {
        let recorded = recorder(.setup, to: ["A"])
        expectFailure(
            """
            Receivers of setup differ at index 1: expected B, received nothing more:
              (- expected here but not received here, + received here but not expected here)
                A
              - B
            """
        ) { site in
            expectReceivers(of: .setup, in: recorded, names: ["A", "B"], sourceLocation: site)
        }
    }

    @Test("An event delivered twice lists its receivers twice, so a check for one delivery fails")
    func deliveredTwice() {
        let recorded = recorder(.didBecomeActive, to: ["A", "A"])
        expectFailure(
            """
            Receivers of didBecomeActive differ at index 1: expected nothing more, received A:
              (- expected here but not received here, + received here but not expected here)
                A
              + A
            """
        ) { site in
            expectReceivers(of: .didBecomeActive, in: recorded, names: ["A"], sourceLocation: site)
        }
    }
}

@Suite("Order assertion")
struct OrderAssertionTests {
    @Test("Passes when the first participant's delivery comes before the second's")
    func passes() {
        let recorded = recorder(.warmUp, to: ["Pool", "Search", "Cache"])
        expectDelivery(of: .warmUp, to: "Pool", before: "Cache", in: recorded)
        expectDelivery(of: .warmUp, to: "Search", before: "Cache", in: recorded)
    }

    @Test("A delivery in the wrong order fails, showing where the first participant was wanted")
    func wrongOrder() {
        let recorded = recorder(.warmUp, to: ["Search", "Cache", "Pool"])
        expectFailure(
            """
            Expected Pool to receive warmUp before Cache, but Pool received it after Cache. Receivers of warmUp:
              (- expected here but not received here, + received here but not expected here)
                Search
              - Pool
                Cache
              + Pool
            """
        ) { site in
            expectDelivery(of: .warmUp, to: "Pool", before: "Cache", in: recorded, sourceLocation: site)
        }
    }

    @Test("A participant that never received the event fails, naming it")
    func neverReceived() {
        let recorded = recorder(.warmUp, to: ["Search", "Cache"])
        expectFailure(
            """
            Expected Pool to receive warmUp before Cache, but Pool never received it. Receivers of warmUp:
              (- expected here but not received here, + received here but not expected here)
                Search
              - Pool
                Cache
            """
        ) { site in
            expectDelivery(of: .warmUp, to: "Pool", before: "Cache", in: recorded, sourceLocation: site)
        }
        expectFailure(
            """
            Expected Cache to receive warmUp before Pool, but Pool never received it. Receivers of warmUp:
              (- expected here but not received here, + received here but not expected here)
                Search
                Cache
              - Pool
            """
        ) { site in
            expectDelivery(of: .warmUp, to: "Cache", before: "Pool", in: recorded, sourceLocation: site)
        }
        expectFailure(
            """
            Expected Pool to receive setup before Cache, but neither received it. Receivers of setup:
              (- expected here but not received here, + received here but not expected here)
              - Pool
              - Cache
            """
        ) { site in
            expectDelivery(of: .setup, to: "Pool", before: "Cache", in: recorded, sourceLocation: site)
        }
    }

    @Test("Naming the same participant twice is a mistake the check reports")
    func sameParticipant() {
        let recorded = recorder(.warmUp, to: ["Pool"])
        expectFailure("Pool cannot receive warmUp before itself: name two different participants.") { site in
            expectDelivery(of: .warmUp, to: "Pool", before: "Pool", in: recorded, sourceLocation: site)
        }
    }
}

@Suite("Combined result assertion")
struct CombinedResultAssertionTests {
    @Test("Passes when the OR of the answers is the expected value; hooks that threw do not answer")
    func passes() {
        let recorded = recorder([
            (.openURL, "Delegate", false, nil),
            (.openURL, "Payments", nil, Declined()),
            (.openURL, "Links", true, nil),
            (.didFinishLaunching, "Payments", false, nil),
        ])
        expectCombinedResult(of: .openURL, in: recorded, true)
        expectCombinedResult(of: .didFinishLaunching, in: recorded, false)
    }

    @Test("With no answer the event's default applies: true for launch, false for open-URL")
    func defaults() {
        let recorded = recorder([(.willFinishLaunching, "A", nil, Declined())])
        expectCombinedResult(of: .willFinishLaunching, in: recorded, true)
        expectCombinedResult(of: .openURL, in: recorded, false)
    }

    @Test("A wrong combined result fails, listing every answer in delivery order")
    func wrongResult() {
        let recorded = recorder([
            (.openURL, "Delegate", false, nil),
            (.openURL, "Payments", nil, Declined()),
            (.openURL, "Links", false, nil),
        ])
        expectFailure(
            """
            Combined result of openURL: expected true, got false.
            Answers, in delivery order (the result is their OR; false when nobody answers):
                Delegate: false
                Payments: threw declined
                Links: false
            """
        ) { site in
            expectCombinedResult(of: .openURL, in: recorded, true, sourceLocation: site)
        }
    }

    @Test("An event nobody received fails with the default it fell back to")
    func nobodyReceived() {
        let recorded = recorder(.willFinishLaunching, to: ["A"])
        expectFailure(
            """
            Combined result of openURL: expected true, got false.
            Nobody received openURL since the recorder was reset (no participant implements it, or it was not \
            delivered), so the default false applies.
            """
        ) { site in
            expectCombinedResult(of: .openURL, in: recorded, true, sourceLocation: site)
        }
    }

    @Test("Answers from two deliveries of the event are refused rather than mixed")
    func twoDeliveries() {
        let recorded = recorder([(.openURL, "Links", true, nil), (.openURL, "Links", false, nil)])
        expectFailure(
            """
            openURL was delivered more than once since the recorder was reset (Links received it again), so its \
            answers mix several requests. Call reset() on the recorder just before the request whose result you \
            check.
            """
        ) { site in
            expectCombinedResult(of: .openURL, in: recorded, true, sourceLocation: site)
        }
        recorded.reset()
        expectCombinedResult(of: .openURL, in: recorded, false)
    }

    @Test("An event without a result cannot be checked for one")
    func eventWithoutResult() {
        let recorded = recorder(.willTerminate, to: ["A"])
        expectFailure("willTerminate has no result to combine: only launch, open-URL and custom events do.") { site in
            expectCombinedResult(of: .willTerminate, in: recorded, false, sourceLocation: site)
        }
    }
}
