public import LifecycleCore
public import Testing

// Assertions for Swift Testing. Each records an issue at the caller's source location when it fails, with
// the expected and the recorded lists compared line by line, and returns normally either way.

/// Checks that exactly `expected` received `event`, in this order, according to `recorder`.
///
/// ```swift
/// expectReceivers(of: .willTerminate, in: recorder, [CacheModule.self, DatabasePoolModule.self])
/// ```
///
/// Every recorded delivery of `event` counts (see ``LifecycleRecorder/receivers(of:)``). On failure the
/// issue names the first index at which the lists differ and lists both orders line by line: `-` marks a module
/// expected at that place, `+` one received there instead.
public func expectReceivers(
    of event: LifecycleEvent,
    in recorder: LifecycleRecorder,
    _ expected: [any LifecycleModule.Type],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectReceivers(of: event, in: recorder, names: expected.map { $0.moduleName }, sourceLocation: sourceLocation)
}

/// Checks that exactly the participants named `expected` received `event`, in this order, according to
/// `recorder`.
///
/// Names are module-qualified type names, as in `Participant.name`; use this form to include the program's
/// delegate.
public func expectReceivers(
    of event: LifecycleEvent,
    in recorder: LifecycleRecorder,
    names expected: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let diff = ListDiff(expected: expected, actual: recorder.receivers(of: event))
    guard let difference = diff.firstDifference else { return }
    Issue.record(
        Comment(rawValue: "Receivers of \(event) differ at \(difference):\n\(diff.rendered)"),
        sourceLocation: sourceLocation
    )
}

/// Checks that `first` received `event` before `second` did, according to `recorder`: the first recorded
/// delivery of `event` to `first` precedes the first one to `second`.
///
/// ```swift
/// expectDelivery(of: .willFinishLaunching, to: DatabasePoolModule.self, before: CacheModule.self, in: recorder)
/// ```
///
/// On failure the issue says which of the two came late or never came, and compares the recorded
/// receivers with the order the check wanted, line by line.
public func expectDelivery(
    of event: LifecycleEvent,
    to first: any LifecycleModule.Type,
    before second: any LifecycleModule.Type,
    in recorder: LifecycleRecorder,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectDelivery(
        of: event,
        to: first.moduleName,
        before: second.moduleName,
        in: recorder,
        sourceLocation: sourceLocation
    )
}

/// Checks that the participant named `first` received `event` before the one named `second` did,
/// according to `recorder`. Names are module-qualified type names.
public func expectDelivery(
    of event: LifecycleEvent,
    to first: String,
    before second: String,
    in recorder: LifecycleRecorder,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard first != second else {
        Issue.record(
            Comment(rawValue: "\(first) cannot receive \(event) before itself: name two different participants."),
            sourceLocation: sourceLocation
        )
        return
    }
    let actual = recorder.receivers(of: event)
    var wanted = actual
    let problem: String
    switch (actual.firstIndex(of: first), actual.firstIndex(of: second)) {
    case (let early?, let late?):
        guard late < early else { return }
        wanted.remove(at: early)
        wanted.insert(first, at: late)
        problem = "\(first) received it after \(second)"
    case (nil, let late?):
        wanted.insert(first, at: late)
        problem = "\(first) never received it"
    case (let early?, nil):
        wanted.insert(second, at: early + 1)
        problem = "\(second) never received it"
    case (nil, nil):
        wanted += [first, second]
        problem = "neither received it"
    }
    let diff = ListDiff(expected: wanted, actual: actual)
    Issue.record(
        Comment(
            rawValue: "Expected \(first) to receive \(event) before \(second), but \(problem). "
                + "Receivers of \(event):\n\(diff.rendered)"
        ),
        sourceLocation: sourceLocation
    )
}

/// Checks that the combined result of `event` — the OR of every participant's answer, as the host
/// computes it — is `expected`, according to `recorder`.
///
/// ```swift
/// _ = try await host.open(URL(string: "shop://payments/return?order=42")!)
/// expectCombinedResult(of: .openURL, in: recorder, true)
/// ```
///
/// Hooks that threw or timed out do not answer; when nobody answers, the event's default applies
/// (`false` for `openURL` and custom events, `true` for the launch events). The event
/// must have been delivered at most once since the recorder was created or reset, so the answers belong
/// to one request: otherwise the check fails and says so. On failure the issue lists every answer in
/// delivery order.
public func expectCombinedResult(
    of event: LifecycleEvent,
    in recorder: LifecycleRecorder,
    _ expected: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let unanswered: Bool
    switch event.resultRule {
    case .anyTrue(let whenUnanswered): unanswered = whenUnanswered
    case .custom: unanswered = Bool.unanswered
    case .none:
        Issue.record(
            Comment(rawValue: "\(event) has no result to combine: only launch, open-URL and custom events do."),
            sourceLocation: sourceLocation
        )
        return
    }
    let deliveries = recorder.deliveries.filter { $0.event == event }
    var seen: Set<Participant> = []
    if let repeated = deliveries.first(where: { !seen.insert($0.participant).inserted }) {
        Issue.record(
            Comment(
                rawValue: "\(event) was delivered more than once since the recorder was reset "
                    + "(\(repeated.participant.name) received it again), so its answers mix several requests. "
                    + "Call reset() on the recorder just before the request whose result you check."
            ),
            sourceLocation: sourceLocation
        )
        return
    }
    let answers = deliveries.filter { $0.error == nil }.compactMap(\.result)
    let combined = answers.isEmpty ? unanswered : answers.contains(true)
    guard combined != expected else { return }
    var lines = ["Combined result of \(event): expected \(expected), got \(combined)."]
    if deliveries.isEmpty {
        lines.append(
            "Nobody received \(event) since the recorder was reset (no participant implements it, or it was not "
                + "delivered), so the default \(unanswered) applies."
        )
    } else {
        lines.append("Answers, in delivery order (the result is their OR; \(unanswered) when nobody answers):")
        for delivery in deliveries {
            let answer = delivery.error.map { "threw \($0)" } ?? delivery.result.map { "\($0)" } ?? "no answer"
            lines.append("    \(delivery.participant.name): \(answer)")
        }
    }
    Issue.record(Comment(rawValue: lines.joined(separator: "\n")), sourceLocation: sourceLocation)
}
