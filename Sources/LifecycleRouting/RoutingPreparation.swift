public import LifecycleCore
import LifecycleProxy

extension ModuleManifest {
    /// This manifest with routing: every host built from it gets a ``Router`` serving the routes of its
    /// modules that adopt ``RouteServing`` (found by asking the runtime, once per host), judged by
    /// `interceptors`, and adds ``RouterModule`` as its last participant, so an open-URL event reaches the
    /// router after every module. A generated manifest lists servers and interceptors itself
    /// (``withRouting(servers:interceptors:)``).
    ///
    /// - Parameters:
    ///   - interceptors: The global interceptors. Their order is theirs (``RouteInterceptor/priority``),
    ///     not this list's.
    ///   - interceptorBudget: How long an interceptor without a budget of its own may take to decide and
    ///     return; `nil` for no limit, which spares each opening with interceptors a task and a timer.
    public func withRouting(
        interceptors: [any RouteInterceptor.Type] = [],
        interceptorBudget: Duration? = Router.defaultInterceptorBudget
    ) -> ModuleManifest {
        adding(RoutingPreparation(declaredServers: nil, interceptors: interceptors, budget: .some(interceptorBudget)))
    }

    /// This manifest with routing, whose servers and interceptors are listed: what the discovery plugin
    /// generates. Entries not in `servers` are asked, as ``withRouting(interceptors:interceptorBudget:)``
    /// asks.
    public func withRouting(
        servers: [any RouteServing.Type],
        interceptors: [any RouteInterceptor.Type]
    ) -> ModuleManifest {
        adding(
            RoutingPreparation(
                declaredServers: Dictionary(servers.map { (ObjectIdentifier($0), $0) }) { first, _ in first },
                interceptors: interceptors,
                budget: nil
            )
        )
    }
}

/// Checks the routes of a manifest before anything is created, gives each host a router, adds
/// ``RouterModule``, and binds the servers whenever the host installs its modules.
struct RoutingPreparation: ManifestPreparation {
    var key: String { "LifecycleRouting" }
    /// The servers a generated manifest listed, by type.
    let declaredServers: [ObjectIdentifier: any RouteServing.Type]?
    let interceptors: [any RouteInterceptor.Type]
    /// The interceptor budget a hand-written `withRouting` chose; `nil` when none did (a generated manifest),
    /// so that combining a generated manifest with a hand-written choice keeps the choice.
    let budget: Duration??

    func merged(with other: any ManifestPreparation) -> any ManifestPreparation {
        guard let other = other as? RoutingPreparation else { return self }
        let servers: [ObjectIdentifier: any RouteServing.Type]? =
            switch (declaredServers, other.declaredServers) {
            case (let mine?, let theirs?): mine.merging(theirs) { first, _ in first }
            case (let mine, let theirs): mine ?? theirs
            }
        var seen: Set<ObjectIdentifier> = []
        return RoutingPreparation(
            declaredServers: servers,
            interceptors: (interceptors + other.interceptors).filter { seen.insert(ObjectIdentifier($0)).inserted },
            budget: budget ?? other.budget
        )
    }

    func serverType(of type: any LifecycleModule.Type) -> (any RouteServing.Type)? {
        declaredServers?[ObjectIdentifier(type)] ?? (type as? any RouteServing.Type)
    }

    func prepare(_ manifest: ModuleManifest, launchOptions: inout LaunchOptions) throws -> ModuleManifest {
        var servers: [(name: String, routes: [any Route.Type])] = []
        for entry in manifest.entries {
            if let gated = entry.gated, gated.enablement(for: launchOptions).disabledReason != nil { continue }
            guard let server = serverType(of: entry.type) else { continue }
            servers.append((entry.moduleName, Self.routeTypes(of: server)))
        }
        try RouteValidation(servers: servers).check()
        launchOptions[RouterKey.self] = Router(interceptorBudget: budget ?? Router.defaultInterceptorBudget)
        let router = ModuleManifest.Entry(
            type: RouterModule.self,
            source: manifest.name,
            capabilities: RouterModule.declaration.capabilities
        )
        return manifest.replacingEntries(manifest.entries + [router])
    }

    func validate(adding type: any LifecycleModule.Type, context: LifecycleContext) throws {
        guard let server = serverType(of: type) else { return }
        let served = context.router?.routes ?? []
        var servers: [(name: String, routes: [any Route.Type])] = []
        for route in served {
            if let index = servers.firstIndex(where: { $0.name == route.server }) {
                servers[index].routes.append(route.type)
            } else {
                servers.append((route.server, [route.type]))
            }
        }
        servers.append((type.moduleName, Self.routeTypes(of: server)))
        try RouteValidation(servers: servers).check()
    }

    /// The route types `server` registers, in order.
    static func routeTypes<S: RouteServing>(of server: S.Type) -> [any Route.Type] {
        var handlers = RouteHandlers<S>()
        S.serveRoutes(&handlers)
        return handlers.registrations.map(\.route)
    }

    func install(_ modules: [InstalledModule], context: LifecycleContext) {
        guard let router = context.router else { return }
        var routes: [BoundRoute] = []
        var served: Set<ObjectIdentifier> = []
        for module in modules {
            guard let server = serverType(of: module.type) else { continue }
            for route in Self.bind(server, module, faults: context.faults)
            where served.insert(ObjectIdentifier(route.type)).inserted {
                routes.append(route)
            }
        }
        let global = router.createdInterceptors {
            AnyInterceptor.ordered(interceptors.map { Self.make($0, context: context) })
        }
        router.install(Router.Table(routes: routes, interceptors: global, context: context))
    }

    func uninstall(context: LifecycleContext) {
        context.router?.retire()
    }

    private static func make<I: RouteInterceptor>(_ type: I.Type, context: LifecycleContext) -> AnyInterceptor {
        AnyInterceptor(I(context: context))
    }

    private static func bind<S: RouteServing>(
        _: S.Type,
        _ module: InstalledModule,
        faults: FaultInjection?
    ) -> [BoundRoute] {
        guard let instance = module.instance as? S else { return [] }
        var handlers = RouteHandlers<S>()
        S.serveRoutes(&handlers)
        return handlers.registrations.map { $0.bind(instance, module.participant, faults) }
    }
}
