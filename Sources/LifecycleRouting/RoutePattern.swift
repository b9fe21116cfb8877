import RoutePatternSyntax

/// The inputs a route matches: a path such as `/users/:id`, or a URL with a scheme such as
/// `app://reports/:day`. Written as a string literal; the grammar is in `Docs/Routing.md`.
///
/// - `:name` matches one segment and captures it as the parameter `name`;
/// - `*` matches one segment without capturing it;
/// - `**` matches the rest, zero or more segments, captured as ``RouteParameters/rest``; last only;
/// - anything else matches itself. A pattern with a scheme matches URLs of that scheme (compared
///   without case), whose host is its first segment: `app://reports/:day` matches `app://reports/7`.
///   A pattern without a scheme matches whatever the scheme: `/reports/:day` matches `/reports/7` and
///   `app://reports/7` alike.
///
/// A literal cannot fail, so a pattern that cannot match (`/a/**/b`, `/users/:`, `/a?b`) is kept with its
/// problem, and refused with a typed error when a host is built from a manifest that serves it. The
/// discovery plugin refuses it earlier, as a build error.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The pattern as written.
    public let text: String
    let parsed: Result<RoutePatternSyntax, RoutePatternSyntax.Problem>

    /// Parses `text`. See ``validate()`` for whether it can match.
    public init(_ text: String) {
        self.text = text
        self.parsed = RoutePatternSyntax.parse(text)
    }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { text }

    /// The names of the parameters the pattern captures, in order; empty for a pattern that cannot match.
    public var parameterNames: [String] { (try? parsed.get())?.parameterNames ?? [] }

    /// The scheme the pattern requires, lowercased, or `nil`.
    public var scheme: String? { (try? parsed.get())?.scheme }

    /// Checks that the pattern can match something.
    ///
    /// - Throws: ``RouteError/Code/invalidPattern`` saying what is wrong and what to write instead.
    public func validate() throws(RouteError) {
        if case .failure(let problem) = parsed { throw .invalidPattern(problem, route: nil) }
    }
}
