#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a caller wants done: a route by value, a URL, a command line, or a factory. The router resolves a
/// URL or a command to its route first, then passes the intent through the interceptors, then to the
/// route's handler (`Router.open(_:)`). Interceptors see it resolved, and switch to new ones.
///
/// ```swift
/// decision.switch(to: RouteIntent(WarmCache()))              // by value
/// decision.switch(to: RouteIntent(url: loginURL))            // by URL
/// decision.switch(to: RouteIntent(named: "flush") { _ in     // by factory
///     await flush()
/// })
/// ```
///
/// Unlike Tetris's, a factory intent passes through the interceptors too: an interceptor that guards
/// every intent guards it.
public struct RouteIntent: Sendable, CustomStringConvertible {
    /// How the intent names its target.
    public enum Source: Sendable {
        /// A route value: ``RouteIntent/init(_:)``.
        case value
        /// A URL or path: ``RouteIntent/init(url:)``.
        case url(URL)
        /// A command line, without the program's name: ``RouteIntent/init(command:)``.
        case command([String])
        /// A factory: ``RouteIntent/init(named:perform:)``.
        case factory
    }

    /// A factory's work, erased.
    typealias Factory = @Sendable (RouteContext) async throws -> any Sendable

    /// How the intent names its target.
    public let source: Source
    /// The route, once resolved: always for ``Source/value``; for a URL or a command, once it matched and its
    /// parameters made a route (when they did not, ``routeType`` is set, this is `nil`, and the intent fails
    /// with the parameters' error once every interceptor has let it through). `nil`
    /// for a factory.
    public let route: (any Route)?
    /// The parameters a URL or a command gave, once resolved.
    public let parameters: RouteParameters?
    /// The factory's name, for a factory.
    let factoryName: String?
    let factory: Factory?

    /// An intent to open `route`.
    public init<R: Route>(_ route: R) {
        self.init(source: .value, route: route)
    }

    /// An intent to open whatever route matches `url`: a URL with a scheme (`app://reports/7`), or a path
    /// (`URL(string: "/admin/reload")`).
    public init(url: URL) {
        self.init(source: .url(url))
    }

    /// An intent to run the command `arguments` names: the subcommand, then its arguments and options.
    /// An empty list, or one that starts with an option, runs the default command.
    public init(command arguments: [String]) {
        self.init(source: .command(arguments))
    }

    /// An intent whose handler is `perform`, named `name` in interceptors, chains and errors.
    public init<T: Sendable>(named name: String, perform: @escaping @Sendable (RouteContext) async throws -> T) {
        self.init(source: .factory, factoryName: name, factory: { context in try await perform(context) })
    }

    init(
        source: Source,
        route: (any Route)? = nil,
        routeType: (any Route.Type)? = nil,
        invalidInput: RouteError? = nil,
        parameters: RouteParameters? = nil,
        factoryName: String? = nil,
        factory: Factory? = nil
    ) {
        self.source = source
        self.route = route
        self.routeType = routeType ?? route.map { type(of: $0) }
        self.invalidInput = invalidInput
        self.parameters = parameters
        self.factoryName = factoryName
        self.factory = factory
    }

    /// The route's type, once resolved: the type of ``route``, or the route a URL or command matched whose
    /// parameters did not make one.
    public let routeType: (any Route.Type)?
    /// Why the parameters of a matched URL or command did not make a route: thrown after the interceptors, so
    /// a guard judges a request before its input is.
    let invalidInput: RouteError?

    /// The intent's name, as interceptors, chains and ``RouteError/intent`` show it:
    ///
    /// - resolved to a route (by value, or a URL or command line that matched one, whether or not its
    ///   parameters made a route): the route type's `Route/routeName`, its module-qualified type name, such as
    ///   `"Shop.ShowOrder"`;
    /// - a factory: the `name` given to ``init(named:perform:)``, as given;
    /// - a URL not resolved yet (or that matched nothing): its absolute string, `"app://orders/7"`;
    /// - a command line not resolved yet: its arguments joined by spaces, `"order 7 --format json"`, or
    ///   `"(default command)"` for an empty one.
    ///
    /// Interceptors see intents resolved, so there it is the route's or the factory's name; compare routes
    /// with ``is(_:)`` rather than by name. ``description`` adds the URL or command line a route was reached by.
    public var name: String {
        if let routeType { return routeType.routeName }
        if let factoryName { return factoryName }
        switch source {
        case .url(let url): return url.absoluteString
        case .command(let arguments): return arguments.isEmpty ? "(default command)" : arguments.joined(separator: " ")
        case .value, .factory: return "(intent)"
        }
    }

    /// Whether its route is `R`, once resolved.
    public func `is`<R: Route>(_: R.Type) -> Bool { routeType == R.self }

    /// ``name``, followed, for an intent resolved from a URL or a command line, by that URL or command line
    /// in parentheses: `"Shop.ShowOrder (app://orders/7)"`.
    public var description: String {
        switch source {
        case .url(let url) where routeType != nil: "\(name) (\(url.absoluteString))"
        case .command(let arguments) where routeType != nil: "\(name) (\(arguments.joined(separator: " ")))"
        default: name
        }
    }
}
