#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import LifecycleCore

/// The router as a participant: it receives the open-URL event after every module, and opens the route
/// whose pattern matches the URL.
///
/// A manifest with routing adds it as its last entry, at `ModulePriority.minimum`, so the combined result
/// of `ApplicationHost.open(_:)` is "some module handled the URL, or a route matched it and
/// opened". A URL no pattern matches answers `false`, as before routing. A matched route that fails (an
/// interceptor rejects it, its handler throws) throws the ``RouteError``, which the host reports as this
/// participant's failure under its failure policy. It shows in plans as `LifecycleRouting.RouterModule`.
public struct RouterModule: LifecycleModule, OpenURL {
    /// The lowest: every module receives the open-URL event before the router.
    public static let priority: ModulePriority = .minimum
    let router: Router

    /// Takes the host's router from `context`; throws when the manifest has no routing.
    public init(context: LifecycleContext) throws {
        guard let router = context.router else { throw MissingRouter() }
        self.router = router
    }

    /// Its capability table, as the discovery plugin would write it: the host casts nothing for it.
    static let declaration = DeclaredModule(RouterModule.self) { module, hooks in
        hooks.openURL(module as! RouterModule)
    }

    /// Opens the route `url` matches: `true` once it succeeded, `false` when no route matches.
    public func open(_ url: URL, context: LifecycleContext) async throws -> Bool {
        try await router.openIfMatched(url)
    }

    /// Thrown when the module is listed by hand instead of through `withRouting()`.
    struct MissingRouter: Error, CustomStringConvertible {
        var description: String {
            "RouterModule was created without a router: do not list it in a manifest; build the host from "
                + "`manifest.withRouting()`, which adds it."
        }
    }
}
