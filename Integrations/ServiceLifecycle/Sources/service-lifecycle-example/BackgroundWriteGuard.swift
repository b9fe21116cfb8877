import LifecycleCore
import LifecycleRouting

/// Refuses the admin routes that change something (``AdminRoute/isWrite``) while the host is in the
/// background, terminating or terminated: `StoreModule` closes the store in `willTerminate`, so a write
/// that starts then may not finish. Reads, and every other route, pass. `AdminFailure` answers the
/// refusal with 503.
///
/// A graceful shutdown stops the HTTP server before the host leaves the foreground, so over HTTP it shows
/// only for a request already inside the router then; it also guards intents the program opens itself,
/// by value or from an open-URL event.
struct BackgroundWriteGuard: RouteInterceptor {
    /// The host is not taking writes.
    struct HostNotAcceptingWrites: Error, CustomStringConvertible {
        let route: String
        let state: ApplicationState

        var description: String {
            "the host is \(state), so it takes no writes (\(route)): the store closes as the host terminates"
        }
    }

    init(context: LifecycleContext) {}

    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        guard let route = intent.routeType as? any AdminRoute.Type, route.isWrite else {
            return decision.continue()
        }
        let state = context.applicationState
        switch state {
        case .background, .terminating, .terminated:
            decision.reject(HostNotAcceptingWrites(route: route.routeName, state: state))
        case .notRunning, .launching, .active, .inactive:
            decision.continue()
        }
    }
}
