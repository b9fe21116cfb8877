import LifecycleCore
import Synchronization

/// A closure a scope adopted for one event (``Scope/on(_:_:failurePolicy:file:line:perform:)``), or a once-action
/// (``Scope/once(_:file:line:perform:)``), which removes itself after its first delivery.
final class ClosureAdoption: AdoptionBox {
    let owner: ObjectIdentifier
    let count = 1
    let event: ScopeEvent
    let once: Bool
    let label: String
    let policy: ModuleFailurePolicy
    private let body: @Sendable (Scope) async throws -> Void
    private let removed = Atomic<Bool>(false)

    init(
        owner: Scope,
        event: ScopeEvent,
        once: Bool,
        label: String,
        policy: ModuleFailurePolicy,
        body: @escaping @Sendable (Scope) async throws -> Void
    ) {
        self.owner = ObjectIdentifier(owner)
        self.event = event
        self.once = once
        self.label = label
        self.policy = policy
        self.body = body
    }

    var isRemoved: Bool { removed.load(ordering: .acquiring) }

    func markRemoved() { removed.store(true, ordering: .releasing) }

    nonisolated(nonsending) func deliver(_ event: ScopeEvent, to scope: Scope, base: Int, run: inout DeliveryRun) async
    {
        // The position is claimed whatever the event, so every traversal of an end counts the same steps.
        guard run.admits(base, in: scope), event == self.event else { return }
        if once {
            // Exactly once, even when deliveries race: only the one that flips the flag runs.
            guard removed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
            else { return }
        } else if isRemoved {
            return
        }
        do {
            try await body(scope)
            run.delivered(to: label, in: scope)
        } catch {
            run.failed(label, policy: policy, error: error, at: base, in: scope)
        }
    }

    func name(of element: Int) -> String { label }
}
