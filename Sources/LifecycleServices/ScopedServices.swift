import LifecycleCore
public import LifecycleScopes

extension Scope {
    /// The services of the scope's host, with scoped services resolved in this scope: each is made on its
    /// first resolution here, kept for the rest of the scope, and shut down at its end.
    ///
    /// ```swift
    /// try await host.scopes!.withScope(.request, "GET /cart") { scope in
    ///     let cart = try scope.services.require((any Cart).self)
    /// }
    /// ```
    ///
    /// Inside `withScope`, `context.services` resolves in the same scope, the task's current one. Resolving
    /// throws ``ServiceError/Code/noRegistry`` when the host has no services, or is gone.
    public var services: ServiceResolver {
        ServiceResolver(registry: hostContext?.launchOptions[ServiceRegistryKey.self], scope: self)
    }
}
