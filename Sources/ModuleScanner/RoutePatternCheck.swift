import RoutePatternSyntax

/// A route pattern as a type body writes it, with a string literal: `static let pattern: RoutePattern? =
/// "app://reports/:day"`, `static let pattern: RoutePattern = "…"` or `static let pattern =
/// RoutePattern("…")`, in the type's declaration or in one of its extensions.
struct RoutePatternDeclaration: Sendable, Hashable {
    /// The enclosing type's name, qualified by its enclosing types (`Outer.Inner`); in an extension, the
    /// extended type as written.
    var type: String
    /// The literal's value.
    var pattern: String
    /// Whether it is declared `RoutePattern?`, the type `Route.pattern` has. Declared `RoutePattern`, it is
    /// another property, and the route keeps the default: no pattern.
    var isOptional: Bool
    /// The `#if` conditions that must all hold for the declaration to exist.
    var conditions: [String]
    var file: String
    /// The literal's line.
    var line: Int
}

/// The build-time half of the route checks: what the plugin can tell from one target's sources before
/// anything runs. The host makes the same checks, with the same grammar (`RoutePatternSyntax`), when it is
/// built; these errors point at the declaration, earlier.
///
/// Only patterns written as a literal are read. One built any other way (a constant, a concatenation, a
/// computed property) is left to the host's checks, as is a duplicate across targets.
enum RoutePatternCheck {
    /// Errors for the patterns of the target's routes (types adopting `Route`, directly, through a refined
    /// protocol or typealias, or in an extension) that cannot match anything, and for two routes whose
    /// patterns match the same inputs, at each pattern's literal.
    ///
    /// Two patterns under different `#if` conditions may never be compiled together, so only those under
    /// the same conditions are compared. An invalid pattern is reported under any condition: it cannot
    /// match in any build.
    ///
    /// Nothing is reported when scanned code outside `routingPaths` (LifecycleRouting's sources) declares
    /// its own `Route` or `RoutePattern`.
    static func diagnostics(
        _ sources: ParsedSources,
        modulePaths: [String],
        contextPaths: [String],
        routingPaths: [String]
    ) -> [ScanDiagnostic] {
        let (own, all) = ModuleScan.declarations(sources, modulePaths: modulePaths, contextPaths: contextPaths)
        if RoutingScan.isShadowed(["Route", "RoutePattern"], in: all, routingPaths: routingPaths) { return [] }
        // Each route type, with the fewest conditions under which it adopts `Route`.
        var routes: [String: [String]] = [:]
        let found = ModuleScan.conformers(own: own, all: all, protocolName: "Route")
        for (declaration, conditions) in found where !declaration.isIgnored {
            let name = declaration.qualifiedName
            if let known = routes[name], known.count <= conditions.count { continue }
            routes[name] = conditions
        }

        // A route `// module-discovery: ignore` keeps out: its patterns are not checked, and a note says so.
        var diagnostics: [ScanDiagnostic] = ModuleScan.skipped(found, protocolName: "Route")
        // The valid patterns by shape and by the conditions under which they exist, in source order.
        var groups: [String: [RoutePatternDeclaration]] = [:]
        var order: [String] = []
        for declaration in sources.routePatterns(in: modulePaths) {
            guard let conformance = routes[declaration.type] else { continue }
            guard declaration.isOptional else {
                diagnostics.append(
                    ScanDiagnostic(
                        file: declaration.file,
                        line: declaration.line,
                        message: "`\(declaration.type)`'s pattern is declared `RoutePattern`, but `Route` requires "
                            + "`RoutePattern?`: Swift takes it for another property, and the route has no pattern. "
                            + "Write `static let pattern: RoutePattern? = \"\(declaration.pattern)\"`.",
                        severity: .error
                    )
                )
                continue
            }
            switch RoutePatternSyntax.parse(declaration.pattern) {
            case .failure(let problem):
                diagnostics.append(
                    ScanDiagnostic(
                        file: declaration.file,
                        line: declaration.line,
                        message: "`\(declaration.type)`'s \(problem). A host that serves it refuses to start "
                            + "(invalidRoute).",
                        severity: .error
                    )
                )
            case .success(let syntax):
                let conditions = Set(conformance + declaration.conditions).sorted()
                let key = ([syntax.shape] + conditions).joined(separator: "\u{0}")
                if groups[key] == nil { order.append(key) }
                if groups[key]?.contains(where: { $0.type == declaration.type }) != true {
                    groups[key, default: []].append(declaration)
                }
            }
        }
        for key in order {
            guard let group = groups[key], group.count > 1 else { continue }
            let names = group.map { "`\($0.type)` (\"\($0.pattern)\")" }
            let listed = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            for declaration in group {
                diagnostics.append(
                    ScanDiagnostic(
                        file: declaration.file,
                        line: declaration.line,
                        message: "routes \(listed) match the same inputs: a host that serves both refuses to "
                            + "start (duplicateRoute). Change one pattern (parameter names do not count), or serve "
                            + "both through one route.",
                        severity: .error
                    )
                )
            }
        }
        return diagnostics
    }
}
