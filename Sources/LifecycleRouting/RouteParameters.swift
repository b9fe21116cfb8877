/// The parameters of an intent opened by URL or by command: what the pattern captured, the URL's query
/// items, and the command's arguments and options. A route reads them, typed, in
/// ``Route/init(parameters:)``:
///
/// ```swift
/// init(parameters: RouteParameters) throws {
///     day = try parameters.require("day", as: ReportDay.self)
///     format = try parameters.get("format", as: ReportFormat.self) ?? .text
/// }
/// ```
///
/// Captured parameters come first, then query items in URL order, then command values in order; a name
/// given twice reads as its first value.
public struct RouteParameters: Sendable, CustomStringConvertible {
    /// The values, by name, in the order described above.
    public private(set) var values: [(name: String, value: String)]
    /// What `**` matched, segment by segment, each percent-decoded; `nil` without `**`. An encoded `/`
    /// stays inside its segment: `x%2Fy/z` is `["x/y", "z"]`, `x/y/z` is `["x", "y", "z"]`. No segment is
    /// `.` or `..`, or starts, ends or doubles an encoded `/`: the router refuses such a path
    /// (``RouteError/Code/invalidPath``).
    public let restSegments: [String]?
    /// What `**` matched: ``restSegments`` joined by `/`; `nil` without `**`. Safe to append to a
    /// directory: it never climbs out (no `..`) and never starts with `/`. It reads `x%2Fy/z` and `x/y/z`
    /// alike; read ``restSegments`` to tell them apart.
    public var rest: String? { restSegments?.joined(separator: "/") }
    /// The route the parameters are for, named in errors.
    let route: String

    /// Parameters named `route` in errors; for tests of ``Route/init(parameters:)``. `rest` gives what `**`
    /// matched as one text, split at its `/` into ``restSegments``.
    public init(route: String = "route", _ values: [(name: String, value: String)] = [], rest: String? = nil) {
        self.init(route: route, values, restSegments: rest.map { $0.split(separator: "/").map(String.init) })
    }

    /// Parameters named `route` in errors, with what `**` matched given segment by segment; for tests of
    /// ``Route/init(parameters:)`` that tell an encoded `/` (`["x/y", "z"]`) from a real one.
    public init(route: String = "route", _ values: [(name: String, value: String)] = [], restSegments: [String]?) {
        self.route = route
        self.values = values
        self.restSegments = restSegments
    }

    mutating func append(_ name: String, _ value: String) { values.append((name, value)) }

    /// The raw text of the parameter `name`, or `nil` if it was not given.
    public subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// The parameter `name` as `T`.
    ///
    /// - Throws: ``RouteError/Code/missingParameter`` if it was not given, or
    ///   ``RouteError/Code/invalidParameter`` if its text is not a `T`.
    public func require<T: RouteParameterValue>(_ name: String, as type: T.Type = T.self) throws(RouteError) -> T {
        guard let value = try get(name, as: type) else {
            throw .missingParameter(name, route: route, given: values.map(\.name))
        }
        return value
    }

    /// The parameter `name` as `T`, or `nil` if it was not given.
    ///
    /// - Throws: ``RouteError/Code/invalidParameter`` if it was given and its text is not a `T`.
    public func get<T: RouteParameterValue>(_ name: String, as type: T.Type = T.self) throws(RouteError) -> T? {
        guard let text = self[name] else { return nil }
        guard let value = T(routeParameter: Substring(text)) else {
            throw .invalidParameter(name, value: text, type: String(describing: T.self), route: route)
        }
        return value
    }

    /// Whether the flag `name` was given: a command's `--name`, or a query item `name` that is not `false`.
    public func flag(_ name: String) throws(RouteError) -> Bool {
        guard let text = self[name] else { return false }
        return text.isEmpty ? true : try require(name, as: Bool.self)
    }

    public var description: String {
        (values.map { "\($0.name)=\($0.value)" } + (rest.map { ["**=\($0)"] } ?? [])).joined(separator: " ")
    }
}
