/// A global route interceptor the scanner found and can name from generated code: a type adopting
/// LifecycleRouting's `RouteInterceptor`. It is not a module; the generated manifest hands it to
/// `withRouting(servers:interceptors:)`, and the host creates one of it.
public struct DiscoveredInterceptor: Sendable, Hashable, CustomStringConvertible {
    /// The type's name, qualified by its enclosing types (`Outer.Inner`).
    public var name: String
    /// The `#if` conditions that must all hold for the conformance to exist; empty when unconditional.
    public var conditions: [String]
    /// Where the type (or the extension that adds the conformance) is declared.
    public var file: String
    public var line: Int

    public var description: String {
        conditions.isEmpty ? name : "\(name) [#if \(conditions.joined(separator: " && "))]"
    }
}

/// What discovery reads for LifecycleRouting besides the modules: the global interceptors, and whether a
/// target's own declarations hide the library's names.
///
/// The servers are modules: ``CapabilityScan`` reads `RouteServing` as a role, as it reads
/// `MessageReceiving`. The route patterns are checked by ``RoutePatternCheck``.
enum RoutingScan {
    /// The library that declares `Route`, `RoutePattern`, `RouteServing` and `RouteInterceptor`. A target
    /// that does not depend on it cannot adopt them, so the scan looks for them only in one that does.
    static let module = "LifecycleRouting"

    /// The protocol global interceptors adopt.
    static let interceptorProtocol = "RouteInterceptor"

    /// The target's global interceptors, in manifest order (file path, then line; an extension's
    /// conformance counts where it is declared), each under its `#if` conditions; and a warning for each
    /// one the generated manifest cannot name (generic, private or fileprivate, or local), as for modules.
    ///
    /// Empty when scanned code outside `routingPaths` (LifecycleRouting's sources) declares its own type
    /// named `RouteInterceptor`: its conformers are not LifecycleRouting's interceptors.
    static func interceptors(
        _ sources: ParsedSources,
        modulePaths: [String],
        contextPaths: [String],
        routingPaths: [String]
    ) -> (interceptors: [DiscoveredInterceptor], diagnostics: [ScanDiagnostic]) {
        let (_, all) = ModuleScan.declarations(sources, modulePaths: modulePaths, contextPaths: contextPaths)
        if isShadowed([interceptorProtocol], in: all, routingPaths: routingPaths) { return ([], []) }
        let scan = ModuleScan.scan(
            sources,
            modulePaths: modulePaths,
            contextPaths: contextPaths,
            protocolName: interceptorProtocol
        )
        let interceptors = scan.modules.map {
            DiscoveredInterceptor(name: $0.name, conditions: $0.conditions, file: $0.file, line: $0.line)
        }
        return (interceptors, scan.diagnostics)
    }

    /// Whether a type, protocol or typealias named one of `names` is declared in `declarations` outside
    /// `routingPaths`: there, the name means something other than LifecycleRouting's.
    static func isShadowed(_ names: Set<String>, in declarations: [Declaration], routingPaths: [String]) -> Bool {
        declarations.contains { declaration in
            declaration.kind != .extension && names.contains(declaration.name)
                && !routingPaths.contains { declaration.file.hasPrefix($0) }
        }
    }
}
