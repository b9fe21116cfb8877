import LifecycleCore
import LifecycleScopes
import Synchronization

// What the scope rows deliver to: ten global actions for `.request` and three behaviors composed at the use
// site. Every hook is `@inline(never)` and does the same work, `ScopeTally.tick(scope)`, so the scope and
// the hand-written loop both make one real call to each of the same 52 functions per request (10 × 4 + 3 × 4).

/// Counts the scope rows' hook calls without making the cores fight over one cache line.
///
/// ``HookTally`` is one counter: with two threads ticking it 52 times per request, the line would move
/// between the cores on every tick, and that cost, the same in the library and by hand, would hide the
/// library's own contention. Here a hook ticks the counter of its scope's id modulo 64, each counter on a line
/// of its own. Scopes in flight at the same time have nearby ids, so they tick different lines. The tick is
/// a relaxed load and store, as ``HookTally``'s: exact for one task, possibly lossy for concurrent tasks
/// whose scopes share a counter (their ids 64 apart), which nothing checks.
enum ScopeTally {
    private static let counters = 64
    /// 16 `Int`s: 128 bytes between counters, two cache lines.
    private static let spacing = 16

    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let count = counters * spacing
        let pointer = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: count)
        for index in 0..<count { (pointer + index).initialize(to: Atomic(0)) }
        return pointer
    }()
    private static let faults = Atomic<Int>(0)

    /// Records one hook call in `scope`.
    @inline(__always)
    static func tick(_ scope: Scope) {
        let slot = slots + Int(truncatingIfNeeded: scope.id.rawValue % UInt64(counters)) &* spacing
        slot.pointee.store(slot.pointee.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// Records that a behavior found its stored state wrong: it did not see each of its hooks once.
    static func fault() { faults.add(1, ordering: .relaxed) }

    /// Every hook call so far.
    static var count: Int {
        var sum = 0
        for counter in 0..<counters { sum &+= slots[counter * spacing].load(ordering: .relaxed) }
        return sum
    }

    /// The faults so far.
    static var faultCount: Int { faults.load(ordering: .relaxed) }
}

/// The hook calls of one request: ten actions and three behaviors, four events each.
let scopeTicksPerRequest = (scopeActionTypes.count + 3) * 4

/// The ten global actions, distinct non-generic types.
let scopeActionTypes: [any ScopeAction.Type] = [
    RequestAction0.self, RequestAction1.self, RequestAction2.self, RequestAction3.self, RequestAction4.self,
    RequestAction5.self, RequestAction6.self, RequestAction7.self, RequestAction8.self, RequestAction9.self,
]

struct RequestAction0: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction1: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction2: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction3: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction4: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction5: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction6: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction7: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction8: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

struct RequestAction9: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    @inline(never) func didBegin(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func didActivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willDeactivate(_ scope: Scope) async throws { ScopeTally.tick(scope) }
    @inline(never) func willEnd(_ scope: Scope) async throws { ScopeTally.tick(scope) }
}

/// The first of the three behaviors composed per request. Each counts the events it saw in its stored state,
/// and at `willEnd` checks that it saw each of its four hooks once: the state must travel from hook to hook.
struct RequestBehaviorA: ScopeBehavior {
    var events = 0
    @inline(never) mutating func didBegin(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func didActivate(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func willDeactivate(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func willEnd(_ scope: Scope) async throws {
        see(scope)
        if events != 4 { ScopeTally.fault() }
    }

    @inline(__always) private mutating func see(_ scope: Scope) {
        events &+= 1
        ScopeTally.tick(scope)
    }
}

/// The second behavior: as ``RequestBehaviorA``, with a state of another shape.
struct RequestBehaviorB: ScopeBehavior {
    var events: UInt32 = 0
    var last: UInt64 = 0
    @inline(never) mutating func didBegin(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func didActivate(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func willDeactivate(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func willEnd(_ scope: Scope) async throws {
        see(scope)
        if events != 4 || last != scope.id.rawValue { ScopeTally.fault() }
    }

    @inline(__always) private mutating func see(_ scope: Scope) {
        events &+= 1
        last = scope.id.rawValue
        ScopeTally.tick(scope)
    }
}

/// The third behavior: as ``RequestBehaviorA``, counting down.
struct RequestBehaviorC: ScopeBehavior {
    var remaining = 4
    @inline(never) mutating func didBegin(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func didActivate(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func willDeactivate(_ scope: Scope) async throws { see(scope) }
    @inline(never) mutating func willEnd(_ scope: Scope) async throws {
        see(scope)
        if remaining != 0 { ScopeTally.fault() }
    }

    @inline(__always) private mutating func see(_ scope: Scope) {
        remaining &-= 1
        ScopeTally.tick(scope)
    }
}
