import LifecycleScopes

/// The body of `GET /scopes`: the scopes in flight, oldest first, and the scope the handler runs in (its
/// own request scope). Each scope has its id, kind, name, state and, if nested, its parent's id.
struct ScopesReport: Encodable {
    /// One scope in flight.
    struct Entry: Encodable {
        let id: UInt64
        let kind: String
        let name: String
        let state: String
        let parent: UInt64?
    }

    /// The id of the task's current scope, if any.
    let current: UInt64?
    /// What `scopes.inFlight()` lists.
    let inFlight: [Entry]

    /// What `scopes` has in flight now, with `current` the task's current scope.
    init(_ scopes: ScopeRegistry, current: Scope? = Scope.current) {
        self.current = current?.id.rawValue
        inFlight = scopes.inFlight().map { summary in
            Entry(
                id: summary.id.rawValue,
                kind: summary.kind.name,
                name: summary.name,
                state: summary.state.rawValue,
                parent: summary.parent?.rawValue
            )
        }
    }
}
