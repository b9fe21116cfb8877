import LifecycleRouting

/// `GET /greetings/:account`: a greeting for an account, by name.
struct Greet: Route {
    static let pattern: RoutePattern? = "/greetings/:account"
    typealias Result = String

    /// The account's id.
    let account: Int

    init(parameters: RouteParameters) throws {
        account = try parameters.require("account", as: Int.self)
    }
}
