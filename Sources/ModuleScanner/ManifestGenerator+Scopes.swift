extension ManifestGenerator {
    /// The name of the generated function that lists the target's global scope actions.
    var scopeActionsFunctionName: String { "_lifecycleScopeActions_\(module)" }

    /// `.withScopes(discovered: …)`, after the manifest of a target with global scope actions, after
    /// `.withRouting` when the target has both.
    var scopesCall: String {
        ".withScopes(discovered: \(scopeActionsFunctionName)())"
    }

    /// The function that lists the global scope actions (types, not modules, each under its `#if`
    /// conditions), or `nil` when the target has none: then the manifest has no `.withScopes`, and a host
    /// gets scopes from another manifest it combines, or from a hand-written `withScopes(actions:endBudget:)`.
    func scopeActionList(_ actions: [DiscoveredScopeAction]) -> [String]? {
        guard !actions.isEmpty else { return nil }
        let appends = actions.flatMap { action in
            conditional("    actions.append(\(qualified(action.name)).self)", conditions: action.conditions)
        }
        return typeList(
            scopeActionsFunctionName,
            protocolName: ScopeScan.actionProtocol,
            list: "actions",
            appends: appends
        )
    }
}
