import LifecycleRouting

/// `GET /accounts/:id`: an account's name, and how many visits it has had.
public struct ShowAccount: Route {
    public static let pattern: RoutePattern? = "/accounts/:id"
    public typealias Result = String

    /// The account's id.
    public let id: Int

    public init(parameters: RouteParameters) throws {
        id = try parameters.require("id", as: Int.self)
    }
}
