#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import LifecycleCore

/// Opens intents: finds the route, passes the intent through the interceptors, and calls the handler of
/// the module that serves it. Each host built from a manifest with routing has one
/// (`ModuleManifest.withRouting()`): `host.router`, or `context.router` in a module.
///
/// ```swift
/// let text = try await host.router.open(ShowReport(day: 3))                          // typed
/// let any = try await host.router.open(url: URL(string: "app://reports/3")!)         // by URL
/// let code = try await host.router.run(arguments: ["report", "3"])                   // by command
/// ```
///
/// Interceptors run highest priority first, ties by type name, then the route's own interceptor. Each
/// decides once (``InterceptorDecision``). A switch opens its intent through the whole chain, nested;
/// switches and intents opened by handlers nest at most ``maximumDepth`` deep, and one intent restarts at
/// most ``maximumRestarts`` times: past either, the intent fails with ``RouteError/Code/loopLimit`` and the
/// chain. Intents may be opened from any task, concurrently.
///
/// ## When the host is gone
///
/// A router belongs to its host and lives as long as someone holds it, but it does not keep the host alive:
/// the host's context holds the router, so a router that held the host, its modules and their handlers would
/// form a cycle that nothing frees. When the host is released, the router lets go of its routes and
/// interceptors, and from then on ``hasHost`` is `false`, ``routes`` and ``interceptors`` are empty,
/// ``match(_:)`` answers `nil`, `help(program:command:)` lists no command, and every opening
/// (`open(_:)`, `open(url:)`, `run(arguments:)`, `open(named:perform:)`) throws
/// ``RouteError/Code/noRouter``. Keep the host, not only its router, for as long as intents are opened.
public final class Router: Sendable {
    /// How deep switched intents and intents opened by handlers may nest.
    public static let maximumDepth = 8
    /// How many times one intent may be restarted after switches.
    public static let maximumRestarts = 8

    /// How long an interceptor without a budget of its own may take to decide and return; `nil` for no limit.
    public let interceptorBudget: Duration?

    /// The ``interceptorBudget`` of a host whose manifest does not choose one: 10 seconds.
    public static let defaultInterceptorBudget: Duration = .seconds(10)

    /// The routes and interceptors of the host's modules, replaced whole when modules are added or removed.
    final class Table: Sendable {
        let routes: [BoundRoute]
        let trie: RouteTrie<Int>
        let byType: [ObjectIdentifier: Int]
        /// The commands by name, and the default one.
        let commands: [String: Int]
        let defaultCommand: Int?
        /// The global interceptors, in order.
        let interceptors: [AnyInterceptor]
        /// The host's context, which handlers and interceptors receive; `nil` once the host is gone.
        let context: LifecycleContext?

        init(routes: [BoundRoute], interceptors: [AnyInterceptor], context: LifecycleContext?) {
            self.routes = routes
            self.interceptors = interceptors
            self.context = context
            var trie = RouteTrie<Int>()
            var byType: [ObjectIdentifier: Int] = [:]
            var commands: [String: Int] = [:]
            var defaultCommand: Int?
            for (index, route) in routes.enumerated() {
                // Checked when the host was built (RoutingPreparation): no invalid or duplicate entry is left.
                if let pattern = route.type.pattern { _ = try? trie.insert(pattern, index) }
                byType[ObjectIdentifier(route.type)] = index
                if let command = route.type.command {
                    commands[command.name] = commands[command.name] ?? index
                    if command.isDefault, defaultCommand == nil { defaultCommand = index }
                }
            }
            self.trie = trie
            self.byType = byType
            self.commands = commands
            self.defaultCommand = defaultCommand
        }
    }

    private struct State {
        var table = Table(routes: [], interceptors: [], context: nil)
        /// The global interceptors, created once per host.
        var interceptors: [AnyInterceptor]?
    }

    private let state = Locked(State())

    init(interceptorBudget: Duration?) {
        self.interceptorBudget = interceptorBudget
    }

    /// Installs the host's routes and interceptors, from then on.
    func install(_ table: Table) {
        state.withLock { $0.table = table }
    }

    /// The global interceptors: those `make` creates the first time, the same ones afterwards.
    func createdInterceptors(_ make: () -> [AnyInterceptor]) -> [AnyInterceptor] {
        if let made = state.withLock({ $0.interceptors }) { return made }
        let made = make()
        return state.withLock { state in
            if let earlier = state.interceptors { return earlier }
            state.interceptors = made
            return made
        }
    }

    /// The host is gone: every opening from now on fails with ``RouteError/Code/noRouter``. What the table
    /// held (handlers bound to modules, interceptors) is released.
    func retire() {
        state.withLock { state in
            state.table = Table(routes: [], interceptors: [], context: nil)
            state.interceptors = []
        }
    }

    /// The host, while it exists.
    var host: ApplicationHost? { state.withLock { $0.table }.context?.events.mailbox?.host }

    /// Whether the host this router belongs to still exists. Once it is released, the router serves nothing:
    /// ``routes`` and ``interceptors`` are empty, and every opening throws ``RouteError/Code/noRouter``
    /// (``Router``, "When the host is gone").
    public var hasHost: Bool { state.withLock { $0.table }.context != nil }

    /// The routes installed now, with the host's context: one lock, one reference.
    private func snapshot(_ intent: @autoclosure () -> String) throws(RouteError) -> (Table, LifecycleContext) {
        let table = state.withLock { $0.table }
        guard let context = table.context else { throw .noRouter(intent()) }
        return (table, context)
    }

    // MARK: What it serves

    /// A route the router serves.
    public struct ServedRoute: Sendable, CustomStringConvertible {
        /// The route's type.
        public let type: any Route.Type
        /// The module that serves it: its module-qualified type name (`"Shop.OrdersModule"`).
        public let server: String
        /// Whether its registration added its own interceptor.
        public let hasInterceptor: Bool

        /// The route's name: its type's `Route/routeName`, the module-qualified type name (`"Shop.ShowOrder"`),
        /// the name ``RouteIntent/name`` and ``RouteError/intent`` give the route, and that plans and help show.
        /// ``server`` is the module-qualified name of the module that serves it, in the same form.
        public var name: String { type.routeName }
        /// The route's URL pattern, or `nil` if it is reached by command or by value only.
        public var pattern: RoutePattern? { type.pattern }
        /// The route's command, or `nil` if it is not a subcommand.
        public var command: RouteCommand? { type.command }

        /// The name, the pattern, the command, the server, and whether it has its own interceptor, on one
        /// line: `"Shop.ShowOrder app://orders/:id command `order` served by Shop.OrdersModule"`.
        public var description: String {
            "\(name)" + (pattern.map { " \($0)" } ?? "") + (command.map { " command `\($0.name)`" } ?? "")
                + " served by \(server)" + (hasInterceptor ? " (with its own interceptor)" : "")
        }
    }

    /// The routes served, in the order of their servers, then of their registration. Empty once the host is
    /// gone (``hasHost`` is `false`).
    public var routes: [ServedRoute] {
        state.withLock { $0.table }.routes.map {
            ServedRoute(type: $0.type, server: $0.server, hasInterceptor: $0.interceptor != nil)
        }
    }

    /// The global interceptors' names (module-qualified type names), in the order they run. Empty when the
    /// manifest has none, and once the host is gone: check ``hasHost`` to tell the two apart.
    public var interceptors: [String] { state.withLock { $0.table }.interceptors.map(\.name) }

    /// What `url` would open, without opening it: the route and the parameters, or `nil` if no pattern
    /// matches, the path is refused (``RouteError/Code/invalidPath``, which ``open(url:)`` throws), or once
    /// the host is gone. Neither interceptors nor handlers run.
    public func match(_ url: URL) -> (route: ServedRoute, parameters: RouteParameters)? {
        let table = state.withLock { $0.table }
        guard let (index, found) = table.trie.match(url) else { return nil }
        let route = table.routes[index]
        return (
            ServedRoute(type: route.type, server: route.server, hasInterceptor: route.interceptor != nil),
            RouteParameters(route: route.name, found.values, restSegments: found.restSegments)
        )
    }

    // MARK: Opening

    /// Opens `route`, through the interceptors, and returns what its handler returned.
    ///
    /// - Throws: ``RouteError``: ``RouteError/Code/noRouter`` once the host is gone;
    ///   ``RouteError/Code/notServed`` if no module serves `R`; an interceptor's
    ///   refusal, misbehaviour or timeout; ``RouteError/Code/loopLimit``; or
    ///   ``RouteError/Code/handlerFailed`` with what the handler threw.
    public func open<R: Route>(_ route: R) async throws(RouteError) -> R.Result {
        let (table, context) = try snapshot(R.routeName)
        guard let index = table.byType[ObjectIdentifier(R.self)] else { throw .notServed(R.routeName) }
        let bound = table.routes[index]
        // The table maps R to the route bound for R, whose handler is a TypedRouteHandler<R>; checked by type
        // identity, so the downcast needs no dynamic cast and the result no boxing.
        guard bound.type == R.self else { throw .notServed(R.routeName) }
        let handler = unsafeDowncast(bound.typed, to: TypedRouteHandler<R>.self)
        let intent = RouteIntent(route)
        let chain = RouteChain.current
        return try await within(intent, chain) { () async throws(RouteError) -> R.Result in
            try await self.admit(intent, bound, chain: chain, table: table, context: context)
            return try await self.invoke(intent, server: bound.server, chain: chain, context: context) {
                try await handler.call(route, $0)
            }
        }
    }

    /// Opens the route whose pattern matches `url`, through the interceptors, and returns what its handler
    /// returned.
    ///
    /// - Throws: ``RouteError/Code/invalidPath`` for a path with a `.` or `..` segment (written so or
    ///   percent-encoded) or an encoded `/` next to nothing, `.` or `..`, before any pattern is tried;
    ///   ``RouteError/Code/noRoute`` if no pattern matches; the route's parameter errors; and the
    ///   errors of opening a route by value (`open(_:)`).
    public func open(url: URL) async throws(RouteError) -> any Sendable {
        try await open(RouteIntent(url: url))
    }

    /// Runs the command `arguments` names (without the program's name), through the interceptors, and
    /// returns what its handler returned. An empty list, or one starting with an option, runs the default
    /// command.
    ///
    /// - Throws: ``RouteError/Code/noRoute`` for an unknown command; ``RouteError/Code/unknownOption``,
    ///   ``RouteError/Code/missingArgument`` or ``RouteError/Code/unexpectedArgument`` for a command line
    ///   its route does not declare; and the errors of opening a route by value (`open(_:)`).
    public func run(arguments: [String]) async throws(RouteError) -> any Sendable {
        try await open(RouteIntent(command: arguments))
    }

    /// Opens a factory intent: `perform` runs after every global interceptor let it through.
    ///
    /// - Throws: ``RouteError``: ``RouteError/Code/noRouter`` once the host is gone; an interceptor's
    ///   refusal, misbehaviour or timeout; ``RouteError/Code/loopLimit``; or ``RouteError/Code/handlerFailed``
    ///   with what `perform` threw.
    public func open<T: Sendable>(
        named name: String,
        perform: @escaping @Sendable (RouteContext) async throws -> T
    ) async throws(RouteError) -> T {
        let result = try await open(RouteIntent(named: name, perform: perform))
        guard let typed = result as? T else {
            throw .handlerFailed(name, server: "the router", ResultMismatch(expected: "\(T.self)"))
        }
        return typed
    }

    /// Opens `intent`, through the interceptors, and returns what its handler returned.
    ///
    /// - Throws: the errors of the opening `intent` stands for: `open(_:)` by value, `open(url:)`,
    ///   `run(arguments:)` or `open(named:perform:)`; ``RouteError/Code/noRouter`` once the host is gone.
    public func open(_ intent: RouteIntent) async throws(RouteError) -> any Sendable {
        let (table, context) = try snapshot(intent.name)
        return try await perform(intent, chain: RouteChain.current, table: table, context: context)
    }

    /// A value that does not have the type it was registered or asked for.
    struct ResultMismatch: Error, CustomStringConvertible {
        let expected: String
        var description: String { "it is not a \(expected)" }
    }

    // MARK: The chain

    /// Resolves `intent`, lets the interceptors judge it, then calls its handler.
    func perform(
        _ intent: RouteIntent,
        chain: RouteChainLink?,
        table: Table,
        context: LifecycleContext
    ) async throws(RouteError) -> any Sendable {
        let (resolved, route) = try resolve(intent, table: table)
        return try await run(resolved, route, chain: chain, table: table, context: context)
    }

    /// The open-URL event's way in (``RouterModule``): opens the route `url` matches and answers `true`, or
    /// answers `false` when no route matches. The URL is matched once. A refused path throws
    /// ``RouteError/Code/invalidPath``: the host reports it as the router's failure.
    func openIfMatched(_ url: URL) async throws(RouteError) -> Bool {
        let (table, context) = try snapshot(url.absoluteString)
        let resolved: (intent: RouteIntent, route: BoundRoute?)
        do {
            // A URL's parameter errors come after the interceptors, so here only "no route" is thrown.
            resolved = try resolve(RouteIntent(url: url), table: table)
        } catch {
            if error.code == .noRoute { return false }
            throw error
        }
        _ = try await run(resolved.intent, resolved.route, chain: RouteChain.current, table: table, context: context)
        return true
    }

    /// Lets the interceptors judge the resolved `intent`, then calls its handler.
    private func run(
        _ resolved: RouteIntent,
        _ route: BoundRoute?,
        chain: RouteChainLink?,
        table: Table,
        context: LifecycleContext
    ) async throws(RouteError) -> any Sendable {
        try await within(resolved, chain) { () async throws(RouteError) -> any Sendable in
            try await self.admit(resolved, route, chain: chain, table: table, context: context)
            return try await self.invoke(
                resolved,
                server: route?.server ?? "the factory",
                chain: chain,
                context: context
            ) {
                if let route { return try await route.perform(resolved.route!, $0) }
                return try await resolved.factory!($0)
            }
        }
    }

    /// Runs `body` with the chain extended by `intent`, so whatever its interceptors and its handler open
    /// counts one level deeper, and a loop through them is cut at ``maximumDepth``.
    @inline(__always)
    private func within<T>(
        _ intent: RouteIntent,
        _ chain: RouteChainLink?,
        _ body: () async throws(RouteError) -> T
    ) async throws(RouteError) -> T {
        do {
            return try await RouteChain.$current.withValue(RouteChainLink(intent, note: nil, parent: chain)) {
                try await body()
            }
        } catch let error as RouteError {
            throw error
        } catch {
            throw .cancelled(intent.name)  // `body` throws only RouteError
        }
    }

    /// Checks the nesting of the resolved `intent`, and runs the interceptors (the global ones, then the
    /// route's own) until every one let it through; then throws what its input was refused for, if it was.
    /// When the chain fails on its own (a loop, an interceptor that misbehaved) and the input was refused
    /// too, the error names both (``RouteError/refusedInput``).
    @inline(__always)
    private func admit(
        _ intent: RouteIntent,
        _ route: BoundRoute?,
        chain: RouteChainLink?,
        table: Table,
        context: LifecycleContext
    ) async throws(RouteError) {
        do {
            try await judge(intent, route, chain: chain, table: table, context: context)
        } catch {
            throw intent.invalidInput.map { error.adding(refusedInput: $0) } ?? error
        }
        if let invalid = intent.invalidInput { throw invalid }
        guard !Task.isCancelled else { throw .cancelled(intent.name) }
    }

    /// Checks the nesting of `intent`, and runs its interceptors until every one let it through.
    private func judge(
        _ intent: RouteIntent,
        _ route: BoundRoute?,
        chain: RouteChainLink?,
        table: Table,
        context: LifecycleContext
    ) async throws(RouteError) {
        guard (chain?.depth ?? 0) < Self.maximumDepth else {
            throw .loopLimit(
                intent.name,
                chain: (chain?.descriptions ?? []) + [intent.description],
                limit: "\(Self.maximumDepth) nested intents"
            )
        }
        let interceptors = route?.interceptor.map { table.interceptors + [$0] } ?? table.interceptors
        if !interceptors.isEmpty {
            // Supervised when any interceptor has a budget, its own or the router's.
            if interceptors.contains(where: { $0.budget ?? interceptorBudget != nil }) {
                try await supervised(intent, context: context) {
                    (watch) async throws(RouteError) in
                    try await self.intercept(
                        intent,
                        interceptors,
                        chain: chain,
                        table: table,
                        context: context,
                        watch: watch
                    )
                }
            } else {
                try await intercept(intent, interceptors, chain: chain, table: table, context: context, watch: nil)
            }
        }
    }

    /// Calls `handler` for `intent`: a loop error passes through with its chain, a cancellation is
    /// ``RouteError/Code/cancelled``, anything else ``RouteError/Code/handlerFailed``.
    @inline(__always)
    private func invoke<T>(
        _ intent: RouteIntent,
        server: @autoclosure () -> String,
        chain: RouteChainLink?,
        context: LifecycleContext,
        _ handler: (RouteContext) async throws -> T
    ) async throws(RouteError) -> T {
        let handlerContext = RouteContext(intent: intent, lifecycle: context, router: self, link: chain)
        do {
            return try await handler(handlerContext)
        } catch let error as RouteError where error.code == .loopLimit {
            throw error
        } catch is CancellationError {
            throw .cancelled(intent.name)
        } catch {
            throw .handlerFailed(intent.name, server: server(), error)
        }
    }

    /// A URL or command resolved to its route and parameters; a route value to its bound route.
    private func resolve(_ intent: RouteIntent, table: Table) throws(RouteError) -> (RouteIntent, BoundRoute?) {
        switch intent.source {
        case .factory:
            return (intent, nil)
        case .value:
            let type = type(of: intent.route!)
            guard let index = table.byType[ObjectIdentifier(type)] else { throw .notServed(type.routeName) }
            return (intent, table.routes[index])
        case .url(let url):
            if let route = intent.route, let index = table.byType[ObjectIdentifier(type(of: route))] {
                return (intent, table.routes[index])
            }
            guard let (index, found) = try table.trie.checkedMatch(url) else {
                throw .noRoute(
                    url: url,
                    known: Array(table.routes.lazy.compactMap { $0.type.pattern?.text }.prefix(10)),
                    total: table.trie.count
                )
            }
            let route = table.routes[index]
            let parameters = RouteParameters(route: route.name, found.values, restSegments: found.restSegments)
            return (parse(route, parameters, source: intent.source), route)
        case .command(let arguments):
            if let route = intent.route, let index = table.byType[ObjectIdentifier(type(of: route))] {
                return (intent, table.routes[index])
            }
            let named = arguments.first.map { !$0.hasPrefix("-") } ?? false
            let index: Int
            if named {
                guard let found = table.commands[arguments[0]] else {
                    throw .noCommand(arguments[0], known: table.commands.keys.sorted())
                }
                index = found
            } else {
                guard let found = table.defaultCommand else {
                    throw .noCommand(arguments.first ?? "(none)", known: table.commands.keys.sorted())
                }
                index = found
            }
            let route = table.routes[index]
            do {
                let parameters = try route.type.command!.parameters(
                    route: route.name,
                    named ? arguments.dropFirst() : arguments[...]
                )
                return (parse(route, parameters, source: intent.source), route)
            } catch {
                return (RouteIntent(source: intent.source, routeType: route.type, invalidInput: error), route)
            }
        }
    }

    /// The intent for `route` from `parameters`: its value, or, when they do not make one, the error it fails
    /// with after the interceptors.
    private func parse(_ route: BoundRoute, _ parameters: RouteParameters, source: RouteIntent.Source) -> RouteIntent {
        do {
            return RouteIntent(source: source, route: try route.parse(parameters), parameters: parameters)
        } catch {
            let failure = (error as? RouteError) ?? .invalidInput(route.name, error)
            return RouteIntent(source: source, routeType: route.type, invalidInput: failure, parameters: parameters)
        }
    }
}

extension LifecycleContext {
    /// The router of this context's host, if its manifest has routing.
    public var router: Router? { launchOptions[RouterKey.self] }
}

extension ApplicationHost {
    /// The host's router, if its manifest has routing (`ModuleManifest.withRouting()`).
    public nonisolated var router: Router? { context.launchOptions[RouterKey.self] }
}

/// Where a host keeps its router: in its launch options, set when the host is built.
enum RouterKey: LaunchOptionKey {
    static let defaultValue: Router? = nil
}
