import Accounts
import LifecycleCore
import LifecycleRouting

/// Lets a request for an account through only when it carries the server's access key, `?key=…`; the
/// greetings are public. The key is the environment variable `MODULAR_SERVER_KEY`; without it, accounts
/// stay closed.
struct AccessKeyInterceptor: RouteInterceptor {
    /// Why a request was refused.
    struct Denied: Error, CustomStringConvertible {
        var description: String { "an account needs ?key= with the server's MODULAR_SERVER_KEY" }
    }

    let key: String?

    init(context: LifecycleContext) {
        key = context.launchOptions.environment["MODULAR_SERVER_KEY"]
    }

    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        guard intent.is(ShowAccount.self) else { return decision.continue() }
        if let key, intent.parameters?["key"] == key {
            decision.continue()
        } else {
            decision.reject(Denied())
        }
    }
}
