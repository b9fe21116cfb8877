import LifecycleCore
import LifecycleScopes

/// A scoped service's instance as its scope keeps it. It holds its slot, so that the slot's identity, the
/// key it is kept under, cannot be reused by another slot while the scope keeps it.
final class ScopedInstance<S: Sendable>: Sendable {
    let slot: ServiceSlot<S>
    let value: S

    init(slot: ServiceSlot<S>, value: S) {
        self.slot = slot
        self.value = value
    }
}

extension ServiceSlot {
    /// The instance of a scoped service in the resolver's scope, or else the task's current one: the one
    /// the scope keeps, or a new one it keeps from now on, shut down at its end.
    ///
    /// Two tasks that resolve it first in one scope at the same moment both run the factory; the first to
    /// store its instance in the scope wins, and every caller gets that one. The other is kept under a key
    /// of its own and shut down at the scope's end too, so every instance made is shut down exactly once.
    func resolveScoped(_ resolver: ServiceResolver) throws(ServiceError) -> S {
        if let captor = resolver.captor { throw resolver.captiveDependency(on: self, by: captor) }
        guard let scope = resolver.scope ?? Scope.current else { throw resolver.noScope(for: self) }
        let identity = ObjectIdentifier(self)
        if let kept = scope.storedValue(for: identity) { return (kept as! ScopedInstance<S>).value }
        if scope.state == .ended { throw scopeEnded(scope) }

        let made = ScopedInstance(slot: self, value: try make(resolver.forFactory(of: self, in: scope)))
        let name = shutdown == nil ? "" : "shutdown of scoped service `\(key)`"
        let cleanup = shutdown.map { shutdown in { @Sendable in try await shutdown(made.value) } }
        guard let kept = scope.store(made, for: identity, name: name, cleanup: cleanup) else {
            // The scope began to end while the factory ran: it can keep nothing more.
            if let cleanup { resolver.registry?.strand(.init(key: key, provider: provider, shutDown: cleanup)) }
            throw scopeEnded(scope)
        }
        if kept.stored { return made.value }
        // Another task stored the scope's instance first: every caller gets that one.
        if let cleanup, scope.store(made, for: ObjectIdentifier(made), name: name, cleanup: cleanup) == nil {
            resolver.registry?.strand(.init(key: key, provider: provider, shutDown: cleanup))
        }
        return (kept.value as! ScopedInstance<S>).value
    }

    private func scopeEnded(_ scope: Scope) -> ServiceError {
        ServiceError(
            .scopeEnded,
            service: key,
            provider: providerType?.moduleName,
            description: "Scoped service `\(key)`, provided by `\(provider)`, was resolved in \(scope), which has "
                + "ended or is ending: its scoped instances are shut down. Resolve scoped services while the scope "
                + "runs: inside the `withScope` body, or before `scope.end()`."
        )
    }
}

extension ServiceResolver {
    /// A scoped service resolved with no scope to keep its instance in.
    func noScope(for slot: any AnyServiceSlot) -> ServiceError {
        let who = requester.map { "`\($0.moduleName)`" } ?? "the host-wide resolver (`context.services`)"
        return ServiceError(
            .noScope,
            service: slot.key,
            provider: slot.providerType?.moduleName,
            description: "Scoped service `\(slot.key)`, provided by `\(slot.provider)`, was resolved by \(who) "
                + "outside any scope: it has one instance per scope, and there was no scope to keep it. Resolve it "
                + "from scope.services or inside withScope (`host.scopes!.withScope(.request, name) { scope in … }`; "
                + "a host has scopes when its manifest has `withScopes()`)."
        )
    }

    /// A scoped service resolved while the factory of the singleton `captor` runs.
    func captiveDependency(on slot: any AnyServiceSlot, by captor: any AnyServiceSlot) -> ServiceError {
        ServiceError(
            .captiveDependency,
            service: slot.key,
            provider: slot.providerType?.moduleName,
            description: "The factory of singleton `\(captor.key)`, provided by `\(captor.provider)`, resolves scoped "
                + "service `\(slot.key)`, provided by `\(slot.provider)`: the singleton would keep one scope's "
                + "instance after that scope ended (a captive dependency). Make `\(captor.key)` scoped as well "
                + "(`services.scoped`), or have it resolve `\(slot.key)` when it is used, from `scope.services` or "
                + "inside `withScope`, instead of in its factory."
        )
    }
}
