#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import LifecycleCore
public import LifecycleRouting
import LifecycleServices

/// `app://reports/<day>`: the usage report of one day, served by ``ReportExporterModule`` from the cache.
public struct ShowReport: Route {
    public static let pattern: RoutePattern? = "app://reports/:day"
    public typealias Result = String

    /// The day of the month.
    public let day: Int

    public init(day: Int) { self.day = day }

    public init(parameters: RouteParameters) throws {
        day = try parameters.require("day")
        guard (1...31).contains(day) else { throw InvalidDay(day: day) }
    }

    /// A day that is not a day of a month.
    public struct InvalidDay: Error, CustomStringConvertible {
        public let day: Int
        public var description: String { "day \(day) is not a day of a month: pass 1 to 31" }
    }
}

/// Fills the cache from the database: what ``CacheWarmInterceptor`` switches to while the cache is cold.
/// Reached by value only. Returns the number of entries cached.
public struct WarmCache: Route {
    public typealias Result = Int
    public init() {}
    public init(parameters: RouteParameters) {}
}

extension ReportExporterModule: RouteServing {
    public static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ShowReport.self) { module, report, _ in
            let text = "report for day \(report.day): \(module.services.cache.count) products cached"
            module.services.console.write("    ReportExporter: \(text)")
            return text
        }
    }
}

extension CacheWarmupModule: RouteServing {
    public static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(WarmCache.self) { module, _, context in
            let database = try context.lifecycle.services(for: Self.self).require((any DatabaseClient).self)
            module.services.cache.store(database.products(count: 128))
            module.services.console.write("    CacheWarmup: warmed \(module.services.cache.count) entries on demand")
            return module.services.cache.count
        }
    }
}

/// A report needs a warm cache: while it is cold, a report intent switches to ``WarmCache`` first, and
/// then restarts, so every interceptor judges the report again with the cache warm.
public struct CacheWarmInterceptor: RouteInterceptor {
    public static let priority = 100
    let services: DemoServices?

    public init(context: LifecycleContext) {
        services = context.launchOptions[DemoServicesKey.self]
    }

    public func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        guard intent.is(ShowReport.self), let services, services.cache.count == 0 else {
            return decision.continue()
        }
        services.console.write("    CacheWarmInterceptor: the cache is cold; switching to WarmCache, then restarting")
        decision.switch(to: RouteIntent(WarmCache()), then: .restart)
    }
}

/// No routes while the host is in the background: a maintenance window. It runs before every other
/// interceptor, so nothing else is asked.
public struct MaintenanceInterceptor: RouteInterceptor {
    public static let priority = 200
    let services: DemoServices?

    public init(context: LifecycleContext) {
        services = context.launchOptions[DemoServicesKey.self]
    }

    public func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        guard context.applicationState == .background else { return decision.continue() }
        services?.console.write("    MaintenanceInterceptor: rejecting \(intent.name) while in the background")
        decision.reject(UnderMaintenance())
    }

    /// The reason it rejects.
    public struct UnderMaintenance: Error, CustomStringConvertible {
        public var description: String {
            "the application is in the background (maintenance); try again once it is active"
        }
    }
}
