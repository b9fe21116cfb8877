import LifecycleCore

/// The participants that implement one event, in delivery order, with their hooks typed by form
/// (``HookForm``): `Hook` for participants awaited through the capability protocol, `SyncHook` for those that
/// adopted the deprecated synchronous protocol, `Function` for the objects that keep the synchronous
/// functions a generated manifest registered. Built once; read-only afterwards.
///
/// Delivery order is one list, `participants`; `runs` cuts it into stretches of one form, so a fan-out
/// walks each stretch as a plain index loop over one hook array, calling synchronous hooks without an
/// `await`.
struct Implementers<Hook: Sendable, SyncHook: Sendable, Function: AnyObject & Sendable>: Sendable {
    /// Consecutive implementers of one form: delivery positions `positions`, whose hooks start at `base`
    /// in that form's array.
    struct Run: Sendable {
        let form: HookForm
        let positions: Range<Int>
        let base: Int
    }

    /// Every implementer, in delivery order.
    let participants: [Participant]
    /// The asynchronous implementers' hooks, in delivery order.
    let hooks: [Hook]
    /// The hooks of the implementers that adopted the deprecated synchronous protocol, in delivery order.
    let syncHooks: [SyncHook]
    /// The synchronous functions' objects, in delivery order.
    let functions: [Function]
    /// The same objects, unretained: called through as guaranteed references, so a call costs no retain and
    /// release (reading a closure, or a reference, out of an array copies it: a retain and a release, which
    /// tripled the cost of a synchronous hook). `functions` keeps them alive as long as this list.
    let unretainedFunctions: [Unmanaged<Function>]
    /// `participants`, cut into stretches of one form.
    let runs: [Run]

    /// The implementers gathered in `list`, in `direction` order; `table` holds every participant, by the
    /// positions the list records.
    init(_ list: HookList<Hook, SyncHook, Function>, _ table: [Participant], _ direction: DeliveryDirection) {
        let forward = direction == .forward
        let count = list.positions.count
        var participants: [Participant] = []
        participants.reserveCapacity(count)
        var runs: [Run] = []
        var seen = [0, 0, 0]  // implementers of each form so far, by raw value
        for step in 0..<count {
            let index = forward ? step : count - 1 - step
            participants.append(table[list.positions[index]])
            let form = list.forms[index]
            if let last = runs.last, last.form == form {
                runs[runs.count - 1] = Run(form: form, positions: last.positions.lowerBound..<step + 1, base: last.base)
            } else {
                runs.append(Run(form: form, positions: step..<step + 1, base: seen[Int(form.rawValue)]))
            }
            seen[Int(form.rawValue)] += 1
        }
        self.participants = participants
        self.hooks = forward ? list.hooks : list.hooks.reversed()
        self.syncHooks = forward ? list.syncHooks : list.syncHooks.reversed()
        self.functions = forward ? list.functions : list.functions.reversed()
        self.unretainedFunctions = functions.map { Unmanaged.passUnretained($0) }
        self.runs = runs
    }

    /// Calls every implementer in order, each in its form, through `calls`, and OR-combines the answers.
    @inline(__always)
    func fanOut<Calls: HookCalls>(
        _ event: LifecycleEvent,
        scope: DeliveryScope,
        observer: DeliveryObserver?,
        from start: Int = 0,
        supervisor: (any DeliverySupervisor)? = nil,
        calls: Calls
    ) async -> EventOutcome<Bool> where Calls.Hook == Hook, Calls.SyncHook == SyncHook, Calls.Function == Function {
        var tally = Tally()
        if case .all = scope, observer == nil, supervisor == nil, start == 0 {
            await fanOutToAll(event, &tally, calls)
        } else {
            await fanOutWatched(event, &tally, scope, observer, start, supervisor, calls)
        }
        let result: Bool
        switch event.resultRule {
        case .anyTrue(let whenUnanswered): result = tally.answered ? tally.combined : whenUnanswered
        case .none, .custom: result = false
        }
        return EventOutcome(event: event, result: result, failures: tally.failures, delivered: tally.delivered)
    }

    /// What a fan-out has gathered so far.
    struct Tally {
        var combined = false
        var answered = false
        var failures: [HookFailure] = []
        var delivered = 0
    }

    /// The common case — every implementer, nobody observing: each run is a plain index loop over its hook
    /// array. Each element is borrowed in place, and nothing is allocated unless a hook throws.
    @inline(__always)
    private func fanOutToAll<Calls: HookCalls>(
        _ event: LifecycleEvent,
        _ tally: inout Tally,
        _ calls: Calls
    ) async where Calls.Hook == Hook, Calls.SyncHook == SyncHook, Calls.Function == Function {
        var combined = false
        var answered = false
        for run in runs {
            let offset = run.base - run.positions.lowerBound
            if run.form.isSync {
                let (runCombined, runAnswered) =
                    run.form == .function
                    ? callFunctions(run, event, &tally.failures, calls)
                    : callSynchronously(run, event, &tally.failures, calls)
                combined = combined || runCombined
                answered = answered || runAnswered
            } else {
                for position in run.positions {
                    do {
                        combined = try await calls.call(hooks[position + offset]) || combined
                        answered = true
                    } catch {
                        tally.failures.append(
                            HookFailure(participant: participants[position], event: event, error: error)
                        )
                    }
                }
            }
        }
        tally.combined = combined
        tally.answered = answered
        tally.delivered = participants.count
    }

    /// Calls one run of hooks of the deprecated synchronous protocol, in a synchronous function: there,
    /// unlike in an `async` one, Swift 6.3 borrows each existential in place instead of copying it out of the
    /// array.
    ///
    /// - Returns: The OR of the answers, and whether any hook answered rather than threw.
    @inline(never)
    private func callSynchronously<Calls: HookCalls>(
        _ run: Run,
        _ event: LifecycleEvent,
        _ failures: inout [HookFailure],
        _ calls: Calls
    ) -> (combined: Bool, answered: Bool) where Calls.SyncHook == SyncHook {
        var combined = false
        var answered = false
        for index in run.base..<run.base + run.positions.count {
            do {
                combined = try calls.callSync(syncHooks[index]) || combined
                answered = true
            } catch {
                let participant = participants[run.positions.lowerBound + index - run.base]
                failures.append(HookFailure(participant: participant, event: event, error: error))
            }
        }
        return (combined, answered)
    }

    /// Calls one run of registered synchronous functions, each through its object's unretained reference:
    /// no retain and release around a call, which reading the object (or a closure) out of an array costs.
    ///
    /// - Returns: The OR of the answers, and whether any hook answered rather than threw.
    @inline(never)
    private func callFunctions<Calls: HookCalls>(
        _ run: Run,
        _ event: LifecycleEvent,
        _ failures: inout [HookFailure],
        _ calls: Calls
    ) -> (combined: Bool, answered: Bool) where Calls.Function == Function {
        var combined = false
        var answered = false
        for index in run.base..<run.base + run.positions.count {
            do {
                combined =
                    try unretainedFunctions[index]._withUnsafeGuaranteedRef { try calls.callFunction($0) } || combined
                answered = true
            } catch {
                let participant = participants[run.positions.lowerBound + index - run.base]
                failures.append(HookFailure(participant: participant, event: event, error: error))
            }
        }
        return (combined, answered)
    }

    /// Every other case: a scope, an observer timing each call, a supervisor enforcing time limits, or a
    /// delivery resumed after a timeout.
    private func fanOutWatched<Calls: HookCalls>(
        _ event: LifecycleEvent,
        _ tally: inout Tally,
        _ scope: DeliveryScope,
        _ observer: DeliveryObserver?,
        _ start: Int,
        _ supervisor: (any DeliverySupervisor)?,
        _ calls: Calls
    ) async where Calls.Hook == Hook, Calls.SyncHook == SyncHook, Calls.Function == Function {
        walk: for run in runs where run.positions.upperBound > start {
            let offset = run.base - run.positions.lowerBound
            for position in run.positions where position >= start {
                let participant = participants[position]
                if case .only(let allowed) = scope, !allowed.contains(participant.id) { continue }
                var injected: InjectedFault?
                if let supervisor {
                    switch supervisor.willCall(position) {
                    case .call: break
                    case .stop: break walk
                    case .fault(let fault): injected = fault
                    }
                }
                let began = observer == nil ? nil : ContinuousClock.now
                var answer: Bool?
                var failure: (any Error)?
                do {
                    if let injected { try await injected.strike() }
                    switch run.form {
                    case .syncProtocol: answer = try calls.callSync(syncHooks[position + offset])
                    case .function:
                        answer = try unretainedFunctions[position + offset]._withUnsafeGuaranteedRef {
                            try calls.callFunction($0)
                        }
                    case .async: answer = try await calls.call(hooks[position + offset])
                    }
                } catch {
                    failure = error
                }
                // A hook abandoned on a timeout reports nothing when it finally returns.
                if let supervisor, !supervisor.didCall(position, answer: answer, failure: failure) { break walk }
                tally.delivered += 1
                if let answer {
                    tally.combined = tally.combined || answer
                    tally.answered = true
                }
                if let failure {
                    tally.failures.append(HookFailure(participant: participant, event: event, error: failure))
                }
                if let began, let observer {
                    observer(
                        DeliveryRecord(
                            event: event,
                            participant: participant,
                            start: began,
                            duration: began.duration(to: .now),
                            result: event.resultRule != .none ? answer : nil,
                            error: failure
                        )
                    )
                }
                if failure != nil, case .untilFailureOf(let stoppers) = scope, stoppers.contains(participant.id) {
                    break walk
                }
            }
        }
    }
}

/// How one event's hooks are called, in each form, with the event's payload and context: the proxy's
/// generated code has one per event (`DidBecomeActiveCalls`). The fan-out is generic over it, so it is
/// specialized for each event and each call is direct: no closure is passed down, and none has to be
/// specialized (the optimizer specialized closures for some events only, which cost a synchronous hook an
/// extra indirect call).
protocol HookCalls {
    associatedtype Hook
    associatedtype SyncHook
    associatedtype Function: AnyObject

    /// Calls a hook of the deprecated synchronous protocol.
    func callSync(_ hook: SyncHook) throws -> Bool
    /// Calls a registered synchronous function.
    func callFunction(_ function: Function) throws -> Bool
    /// Awaits an asynchronous hook.
    func call(_ hook: Hook) async throws -> Bool
}
