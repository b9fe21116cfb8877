public import LifecycleCore
import Synchronization

/// Behaviors adopted together: their values, stored in one allocation whatever their number, delivered to
/// through the parameter pack, with no existential per behavior.
///
/// A delivery copies the values out, hands each to its hook, and stores them back, so what a hook stores
/// the next one reads. Only the task that owns the scope's step delivers, so copies never cross, except
/// when the watchdog takes over an end that overran its budget: then it delivers the rest from the values as
/// they were before the stuck event began, so what the hooks of that event stored before the stuck one
/// is lost (a behavior's `willEnd` after a stuck `willDeactivate` sees its state from before deactivation).
///
/// The delivery is specialized where the behaviors are adopted. ``make(owner:_:)`` is inlined into the
/// caller of `withScope` or `adopt`, where the behaviors' types are concrete, and hands the adoption its
/// delivery as a closure from there. Run through the protocol from this module instead, the pack would be
/// unspecialized: every event would look up the tuple's metadata and copy each value through its witnesses
/// (Docs/Performance.md, "Scopes").
@usableFromInline
final class BehaviorAdoption<each B: ScopeBehavior>: AdoptionBox {
    @usableFromInline typealias Delivery =
        nonisolated(nonsending) @Sendable (BehaviorAdoption<repeat each B>, ScopeEvent, Scope, Int, inout DeliveryRun)
        async -> Void

    @usableFromInline let owner: ObjectIdentifier
    @usableFromInline let count: Int
    @usableFromInline let values: Locked<(repeat each B)>
    private let removed = Atomic<Bool>(false)
    private let delivery: Delivery

    @usableFromInline
    init(owner: Scope, _ behavior: repeat each B, delivery: @escaping Delivery) {
        self.owner = ObjectIdentifier(owner)
        var count = 0
        for _ in repeat each behavior { count += 1 }
        self.count = count
        values = Locked((repeat each behavior))
        self.delivery = delivery
    }

    /// The adoption of `behavior`s by `owner`, its delivery specialized for their types where this is
    /// inlined.
    @inlinable
    static func make(owner: Scope, _ behavior: repeat each B) -> BehaviorAdoption {
        BehaviorAdoption(owner: owner, repeat each behavior) { adoption, event, scope, base, run in
            await adoption.deliverInPlace(event, to: scope, base: base, run: &run)
        }
    }

    @usableFromInline var isRemoved: Bool { removed.load(ordering: .acquiring) }

    @usableFromInline func markRemoved() { removed.store(true, ordering: .releasing) }

    @usableFromInline
    nonisolated(nonsending) func deliver(_ event: ScopeEvent, to scope: Scope, base: Int, run: inout DeliveryRun) async
    {
        await delivery(self, event, scope, base, &run)
    }

    /// What ``deliver(_:to:base:run:)`` runs: the delivery, compiled where ``make(owner:_:)`` was inlined.
    @inlinable
    nonisolated(nonsending) func deliverInPlace(
        _ event: ScopeEvent,
        to scope: Scope,
        base: Int,
        run: inout DeliveryRun
    ) async {
        var current = values.withLock { $0 }
        if event.isTeardown {
            // Packs iterate forward only: the reverse order is one pass per behavior, last first.
            var target = count - 1
            while target >= 0, !run.stopped {
                var element = 0
                // Only the target's step is an async call: a call per behavior would cost a frame each.
                current =
                    (repeat Self.next(&element) == target
                        ? await step(each current, target, event, scope, base, &run) : each current)
                target -= 1
            }
        } else {
            var element = 0
            current = (repeat await step(each current, Self.next(&element), event, scope, base, &run))
        }
        // Nothing reads a behavior's state after its end.
        if event != .end { values.withLock { $0 = current } }
    }

    /// The element index `counter` is at, and moves it to the next one.
    @inlinable
    static func next(_ counter: inout Int) -> Int {
        defer { counter += 1 }
        return counter
    }

    /// Delivers `event` to `value`, the element `index`, if `run` admits its position; returns the value as
    /// its hook left it.
    @inlinable
    nonisolated(nonsending) func step<Value: ScopeBehavior>(
        _ value: Value,
        _ index: Int,
        _ event: ScopeEvent,
        _ scope: Scope,
        _ base: Int,
        _ run: inout DeliveryRun
    ) async -> Value {
        guard run.admits(base + index, in: scope), !isRemoved else { return value }
        var copy = value
        do {
            switch event {
            case .begin: try await copy.didBegin(scope)
            case .activate: try await copy.didActivate(scope)
            case .deactivate: try await copy.willDeactivate(scope)
            case .end: try await copy.willEnd(scope)
            }
            run.delivered(to: String(reflecting: Value.self), in: scope)
        } catch {
            run.failed(
                String(reflecting: Value.self),
                policy: Value.failurePolicy,
                error: error,
                at: base + index,
                in: scope
            )
        }
        return copy
    }

    @usableFromInline
    func name(of element: Int) -> String {
        let current = values.withLock { $0 }
        var index = 0
        var name = ""
        for value in repeat each current {
            if index == element { name = String(reflecting: type(of: value)) }
            index += 1
        }
        return name
    }
}
