import LifecycleCore
import LifecycleRouting

struct ShowReport: Route {
    static let pattern: RoutePattern? = "app://reports/:day"
    static let command: RouteCommand? = RouteCommand("report", summary: "Shows a report")
    init(parameters: RouteParameters) throws {}
}

struct Reports: LifecycleModule, RouteServing, ServiceProvidingModule {
    @Dependency var cache: CacheModule
    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {}
    static func provideServices(_ services: inout ServiceRegistrations<Self>) { services.provide(Greeter.self) { _ in English() } }
    func didFinishLaunching(_ context: LifecycleContext) throws {}
}
