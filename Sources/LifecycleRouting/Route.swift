/// Something the router can open: a type whose values are the intents to do one thing, with the
/// parameters they need, and what doing it returns.
///
/// A route is reached by its ``pattern`` (an open-URL event, or ``Router/open(url:)``), by its
/// ``command`` (``Router/run(arguments:)``, for a CLI host), or by value (`Router.open(_:)`). A
/// module serves it (``RouteServing``), and the discovery plugin finds both:
///
/// ```swift
/// struct ShowReport: Route {
///     static let pattern: RoutePattern? = "app://reports/:day"
///     typealias Result = String
///
///     let day: Int
///
///     init(day: Int) { self.day = day }
///     init(parameters: RouteParameters) throws { day = try parameters.require("day", as: Int.self) }
/// }
/// ```
public protocol Route: Sendable {
    /// What opening the route returns.
    associatedtype Result: Sendable = Void

    /// The URLs and paths that open this route; `nil` (the default) for none.
    static var pattern: RoutePattern? { get }

    /// The command that opens this route in a CLI host; `nil` (the default) for none.
    static var command: RouteCommand? { get }

    /// The intent from the parameters of a URL or a command: read them typed with
    /// ``RouteParameters/require(_:as:)``. What it throws fails the intent once the interceptors have let it
    /// through (they see `routeType` and the parameters, and `route == nil`), so a guard judges the request
    /// before its input.
    init(parameters: RouteParameters) throws
}

extension Route {
    public static var pattern: RoutePattern? { nil }
    public static var command: RouteCommand? { nil }

    /// The route's name in plans, help and errors: its type's name, with its module.
    public static var routeName: String { String(reflecting: Self.self) }
}
