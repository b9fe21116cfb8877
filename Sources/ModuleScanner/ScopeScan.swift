/// A global scope action the scanner found and can name from generated code: a type adopting
/// LifecycleScopes' `ScopeAction`. It is not a module; the generated manifest hands it to
/// `withScopes(discovered:)`, and the host creates one of it.
public struct DiscoveredScopeAction: Sendable, Hashable, CustomStringConvertible {
    /// The type's name, qualified by its enclosing types (`Outer.Inner`).
    public var name: String
    /// The `#if` conditions that must all hold for the conformance to exist; empty when unconditional.
    public var conditions: [String]
    /// Where the type (or the extension that adds the conformance) is declared.
    public var file: String
    /// The line of that declaration.
    public var line: Int

    /// The name, followed by its `#if` conditions when it has any.
    public var description: String {
        conditions.isEmpty ? name : "\(name) [#if \(conditions.joined(separator: " && "))]"
    }
}

/// What discovery reads for LifecycleScopes: the global scope actions of a target, found as
/// ``RoutingScan`` finds route interceptors.
///
/// Unlike an interceptor, an action the generated manifest cannot name is a build error, not a warning:
/// the host creates every global action from the manifest, so an action left out would never run.
enum ScopeScan {
    /// The library that declares `ScopeAction`. A target that does not depend on it cannot adopt it, so the
    /// scan looks for actions only in one that does.
    static let module = "LifecycleScopes"

    /// The protocol global scope actions adopt.
    static let actionProtocol = "ScopeAction"

    /// The global scope actions declared in `modulePaths`, in manifest order (file path, then line; an
    /// extension's conformance counts where it is declared), each under its `#if` conditions; and an error
    /// for each one the generated manifest cannot name (generic, private or fileprivate, or local).
    ///
    /// Empty when `dependencies` do not include LifecycleScopes, or when scanned code outside
    /// LifecycleScopes' sources declares its own type named `ScopeAction`: its conformers are not
    /// LifecycleScopes' actions.
    static func actions(
        _ sources: ParsedSources,
        modulePaths: [String],
        dependencies: [ManifestGenerator.Dependency]
    ) -> (actions: [DiscoveredScopeAction], diagnostics: [ScanDiagnostic]) {
        guard dependencies.contains(where: { $0.module == module }) else { return ([], []) }
        let contextPaths = dependencies.flatMap(\.paths)
        let scopesPaths = dependencies.filter { $0.module == module }.flatMap(\.paths)
        let (_, all) = ModuleScan.declarations(sources, modulePaths: modulePaths, contextPaths: contextPaths)
        let isShadowed = all.contains { declaration in
            declaration.kind != .extension && declaration.name == actionProtocol
                && !scopesPaths.contains { declaration.file.hasPrefix($0) }
        }
        if isShadowed { return ([], []) }
        let scan = ModuleScan.scan(
            sources,
            modulePaths: modulePaths,
            contextPaths: contextPaths,
            protocolName: actionProtocol
        )
        let actions = scan.modules.map {
            DiscoveredScopeAction(name: $0.name, conditions: $0.conditions, file: $0.file, line: $0.line)
        }
        let errors = scan.diagnostics.map { diagnostic in
            var error = diagnostic
            error.severity = .error
            error.message +=
                ". The host creates every global scope action from the manifest, so one the manifest cannot "
                + "list would never run."
            return error
        }
        return (actions, errors)
    }
}
