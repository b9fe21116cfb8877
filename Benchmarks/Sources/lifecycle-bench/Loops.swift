import LifecycleCore
import SyntheticModules

// The hand-written baselines. Each is a separate non-inlined function, so the compiler cannot fold the
// loop into the benchmark's repetition loop, and each walks its array by index: an index loop borrows
// each element in place, where `for element in array` would copy (retain and release) each existential.

/// The physical limit: a direct call per participant, and nothing else.
///
/// The participants are borrowed through `Unmanaged` because the plain loop (``retainingFanOut(_:)``)
/// retains and releases every class reference around the opaque call (`swift_retain`/`swift_release` in
/// its disassembly), which is no part of dispatching. The caller keeps the participants alive.
@inline(never)
func concreteFanOut(_ participants: [Unmanaged<ConcreteParticipant>]) {
    for index in participants.indices {
        participants[index]._withUnsafeGuaranteedRef { $0.becomeActive() }
    }
}

/// The plain final-class loop, as one would write it: `participants[index].becomeActive()`. In 6.3.1
/// each iteration retains and releases the element around the call.
@inline(never)
func retainingFanOut(_ participants: [ConcreteParticipant]) {
    for index in participants.indices { participants[index].becomeActive() }
}

/// The physical limit of a Bool event: a direct call per participant, every answer OR-combined.
@inline(never)
func concreteBoolFanOut(_ participants: [Unmanaged<ConcreteParticipant>]) -> Bool {
    var combined = false
    for index in participants.indices {
        let answer = participants[index]._withUnsafeGuaranteedRef { $0.finishLaunching() }
        combined = combined || answer
    }
    return combined
}

/// A witness-table call per participant, synchronous.
@inline(never)
func existentialFanOut(_ hooks: [any SyncHooks]) {
    for index in hooks.indices { hooks[index].becomeActiveNow() }
}

/// A witness-table call per participant, synchronous, every answer OR-combined.
@inline(never)
func existentialBoolFanOut(_ hooks: [any SyncHooks]) -> Bool {
    var combined = false
    for index in hooks.indices {
        let answer = hooks[index].finishLaunchingNow()
        combined = combined || answer
    }
    return combined
}

/// The library's hook, awaited per participant, failures counted: what the proxy's loop does, by hand.
@inline(never)
func asyncFanOut(_ hooks: [any DidBecomeActive], context: LifecycleContext) async -> Int {
    var failures = 0
    for index in hooks.indices {
        do {
            try await hooks[index].didBecomeActive(context)
        } catch {
            failures += 1
        }
    }
    return failures
}

/// The library's Bool hook, awaited per participant, every answer OR-combined, failures counted.
@inline(never)
func asyncBoolFanOut(_ hooks: [any DidFinishLaunching], context: LifecycleContext) async -> (Bool, Int) {
    var combined = false
    var failures = 0
    for index in hooks.indices {
        do {
            let answer = try await hooks[index].didFinishLaunching(context)
            combined = combined || answer
        } catch {
            failures += 1
        }
    }
    return (combined, failures)
}
