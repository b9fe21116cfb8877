import LifecycleCore
import LifecycleRouting
import LifecycleServices

/// Serves the admin routes (`AdminRoutes.swift`): the host's modules, the store's items, and the probe
/// module an operator adds and removes (``ProbeModule``). It has no
/// lifecycle hook; it requires the store, so the host orders it after `StoreModule`.
///
/// The HTTP server reaches these routes through the host's router (`AdminEndpoint.swift`), so every global
/// interceptor judges each request first: `AdminTokenInterceptor`, then `BackgroundWriteGuard`.
struct AdminModule: LifecycleModule, ServiceRequiringModule, RouteServing {
    static let priority: ModulePriority = .normal
    static let requiredServices = ServiceRequirements(Store.self)

    init(context: LifecycleContext) {}

    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ListModules.self) { _, _, context in
            guard let host = context.host else { throw HostGone() }
            let degraded = Set(await host.degradedModules)
            return ModulesReport(
                state: host.state.rawValue,
                modules: host.participants.map { participant in
                    ModulesReport.Module(
                        name: participant.name,
                        priority: participant.priority?.rawValue,
                        dependencies: host.dependencies(of: participant).map(\.description),
                        degraded: degraded.contains(participant)
                    )
                },
                disabled: host.disabledModules.map { "\($0.name): \($0.reason)" }
            )
        }
        routes.on(ReadItem.self) { _, route, context in
            let store = try context.lifecycle.services(for: Self.self).require(Store.self)
            guard let value = try await store.item("\(route.id)") else { throw ItemNotFound(id: route.id) }
            return ItemReport(id: route.id, value: value)
        }
        routes.on(ProbeMembership.self) { _, route, context in
            guard let host = context.host else { throw HostGone() }
            switch route.action {
            case .register: try await host.register(ProbeModule.self)
            case .remove: try await host.remove(ProbeModule.self)
            }
            return ProbeReport(registered: route.action == .register, participants: host.participants.count)
        }
        routes.on(FillStore.self) { _, route, context in
            let store = try context.lifecycle.services(for: Self.self).require(Store.self)
            try await store.fill(count: route.count)
            return StoreReport(written: route.count, items: try await store.count())
        }
    }
}

/// The store has no item with the id asked for: answered 404.
struct ItemNotFound: Error, CustomStringConvertible {
    let id: Int
    var description: String { "the store has no item \(id)" }
}

/// The host was released while a route ran: answered 503.
struct HostGone: Error, CustomStringConvertible {
    var description: String { "the host is gone: the server is shutting down" }
}
