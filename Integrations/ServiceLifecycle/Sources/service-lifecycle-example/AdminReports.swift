// What the admin routes answer; `AdminEndpoint` encodes them as JSON.

/// The answer of ``ListModules``.
struct ModulesReport: Encodable, Sendable {
    /// One participant of the host.
    struct Module: Encodable, Sendable {
        /// Its module-qualified type name.
        let name: String
        /// Its priority; `nil` for the program's delegate.
        let priority: Int?
        /// The modules it depends on, each with why.
        let dependencies: [String]
        /// Whether a hook of it ran past its budget.
        let degraded: Bool
    }

    /// The host's state: `active` while it serves.
    let state: String
    let modules: [Module]
    /// The manifest's modules disabled in this environment, with the reason.
    let disabled: [String]
}

/// The answer of ``ProbeMembership``.
struct ProbeReport: Encodable, Sendable {
    /// Whether ``ProbeModule`` is a participant now.
    let registered: Bool
    /// How many participants the host has now, the program's delegate included.
    let participants: Int
}

/// The answer of ``ReadItem``.
struct ItemReport: Encodable, Sendable {
    let id: Int
    let value: String
}

/// The answer of ``FillStore``.
struct StoreReport: Encodable, Sendable {
    /// How many items the request wrote.
    let written: Int
    /// How many items the store holds now.
    let items: Int
}
