/// What a reload or a quarantine release changed: the modules turned on, those turned off and why, and those
/// that could not be turned on.
public struct ModuleChanges: Sendable, Hashable, CustomStringConvertible {
    /// A module and why it changed (or could not).
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// The module's module-qualified type name.
        public let module: String
        /// Why.
        public let reason: String

        public var description: String { "\(module) (\(reason))" }
    }

    /// Modules turned on and caught up with the host's state, in catch-up order.
    public internal(set) var turnedOn: [String] = []
    /// Modules taken down and out, in teardown order, with why.
    public internal(set) var turnedOff: [Change] = []
    /// Modules the switches turn on that could not join (their registration was refused, or their catch-up
    /// took them out again), with why. They stay off.
    public internal(set) var refused: [Change] = []

    /// Nothing changed.
    public var isEmpty: Bool { turnedOn.isEmpty && turnedOff.isEmpty && refused.isEmpty }

    public var description: String {
        guard !isEmpty else { return "no module changed" }
        var parts: [String] = []
        if !turnedOn.isEmpty { parts.append("on: " + turnedOn.joined(separator: ", ")) }
        if !turnedOff.isEmpty { parts.append("off: " + turnedOff.map(\.description).joined(separator: ", ")) }
        if !refused.isEmpty { parts.append("refused: " + refused.map(\.description).joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}
