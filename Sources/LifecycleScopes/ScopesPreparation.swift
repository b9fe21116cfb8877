public import LifecycleCore

extension ModuleManifest {
    /// This manifest with scopes: every host built from it gets a ``ScopeRegistry`` (`host.scopes`,
    /// `context.scopes`) whose scopes receive `actions`, each for the kinds it declares. A generated
    /// manifest lists the actions the discovery plugin found; list your own here.
    ///
    /// - Parameters:
    ///   - actions: Global actions. Their order is theirs (``ScopeAction/priority``), not this list's.
    ///   - endBudget: How long a scope's end may take unless the scope has its own budget; `nil` for no
    ///     limit.
    public func withScopes(
        actions: [any ScopeAction.Type] = [],
        endBudget: Duration? = ScopeRegistry.defaultEndBudget
    ) -> ModuleManifest {
        adding(ScopesPreparation(actions: actions, endBudget: .some(endBudget)))
    }

    /// This manifest with scopes and the global actions the discovery plugin found: what it generates.
    /// The end budget is the one a hand-written ``withScopes(actions:endBudget:)`` chooses, or the default.
    public func withScopes(discovered actions: [any ScopeAction.Type]) -> ModuleManifest {
        adding(ScopesPreparation(actions: actions, endBudget: nil))
    }
}

/// Gives each host a scope registry, and makes its global actions when the host installs its modules.
struct ScopesPreparation: ManifestPreparation {
    var key: String { "LifecycleScopes" }
    let actions: [any ScopeAction.Type]
    /// The budget a hand-written `withScopes` chose; `nil` when none did (a generated manifest), so that
    /// combining a generated manifest with a hand-written choice keeps the choice.
    let endBudget: Duration??

    func merged(with other: any ManifestPreparation) -> any ManifestPreparation {
        guard let other = other as? ScopesPreparation else { return self }
        var seen: Set<ObjectIdentifier> = []
        return ScopesPreparation(
            actions: (actions + other.actions).filter { seen.insert(ObjectIdentifier($0)).inserted },
            endBudget: endBudget ?? other.endBudget
        )
    }

    func prepare(_ manifest: ModuleManifest, launchOptions: inout LaunchOptions) throws -> ModuleManifest {
        launchOptions[ScopesKey.self] = ScopeRegistry(endBudget: endBudget ?? ScopeRegistry.defaultEndBudget)
        return manifest
    }

    func install(_ modules: [InstalledModule], context: LifecycleContext) {
        context.scopes?.install(actions, context: context)
    }

    func uninstall(context: LifecycleContext) {
        context.scopes?.retire()
    }
}
