import LifecycleCore

/// The participants that implement one event, in delivery order, with their hooks typed by the event's
/// capability protocol. Built once; read-only afterwards.
struct Implementers<Hook: Sendable>: Sendable {
    let hooks: [Hook]
    let participants: [Participant]

    /// Picks from `table` the participants whose instance `cast` accepts, in `direction` order.
    init(
        _ table: [(participant: Participant, instance: any Sendable)],
        _ direction: DeliveryDirection,
        cast: (any Sendable) -> Hook?
    ) {
        var hooks: [Hook] = []
        var participants: [Participant] = []
        for (participant, instance) in table {
            guard let hook = cast(instance) else { continue }
            hooks.append(hook)
            participants.append(participant)
        }
        if direction == .reverse {
            hooks.reverse()
            participants.reverse()
        }
        self.hooks = hooks
        self.participants = participants
    }

    /// Calls `call` on every implementer in order and OR-combines the answers.
    ///
    /// The common case — every implementer, nobody observing — is a plain index loop over the hook array:
    /// each element is borrowed in place, and nothing is allocated unless a hook throws.
    @inline(__always)
    func fanOut(
        _ event: LifecycleEvent,
        scope: DeliveryScope,
        observer: DeliveryObserver?,
        from start: Int = 0,
        supervisor: (any DeliverySupervisor)? = nil,
        _ call: (Hook) async throws -> Bool
    ) async -> EventOutcome<Bool> {
        var combined = false
        var answered = false
        var failures: [HookFailure] = []
        var delivered = 0
        if case .all = scope, observer == nil, supervisor == nil, start == 0 {
            for index in hooks.indices {
                do {
                    let answer = try await call(hooks[index])
                    combined = combined || answer
                    answered = true
                } catch {
                    failures.append(HookFailure(participant: participants[index], event: event, error: error))
                }
            }
            delivered = hooks.count
        } else {
            for index in hooks.indices.dropFirst(start) {
                if case .only(let allowed) = scope, !allowed.contains(participants[index].id) { continue }
                if let supervisor, !supervisor.willCall(index) { break }
                let start = observer == nil ? nil : ContinuousClock.now
                var answer: Bool?
                var failure: (any Error)?
                do {
                    answer = try await call(hooks[index])
                } catch {
                    failure = error
                }
                // A hook abandoned on a timeout reports nothing when it finally returns.
                if let supervisor, !supervisor.didCall(index, answer: answer, failure: failure) { break }
                delivered += 1
                if let answer {
                    combined = combined || answer
                    answered = true
                }
                if let failure {
                    failures.append(HookFailure(participant: participants[index], event: event, error: failure))
                }
                if let start, let observer {
                    let hasResult = event.resultRule != .none
                    observer(
                        DeliveryRecord(
                            event: event,
                            participant: participants[index],
                            start: start,
                            duration: start.duration(to: .now),
                            result: hasResult ? answer : nil,
                            error: failure
                        )
                    )
                }
                if failure != nil, case .untilFailureOf(let stoppers) = scope,
                    stoppers.contains(participants[index].id)
                {
                    break
                }
            }
        }
        let result: Bool
        switch event.resultRule {
        case .anyTrue(let whenUnanswered): result = answered ? combined : whenUnanswered
        case .none, .custom: result = false
        }
        return EventOutcome(event: event, result: result, failures: failures, delivered: delivered)
    }
}
