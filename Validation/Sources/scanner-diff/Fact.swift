/// A fact of a declaration that the two readers may disagree on, once both found it (same line, kind and
/// qualified name).
enum Fact: String, CaseIterable, Sendable, Codable {
    case inherits
    case isGeneric
    case isInGenericScope
    case isPrivate
    case isLocal
    case conditions

    /// The reading of this fact, as printed in examples.
    func value(of facts: DeclarationFacts) -> String {
        switch self {
        case .inherits: "[" + facts.inherits.joined(separator: ", ") + "]"
        case .isGeneric: "\(facts.isGeneric)"
        case .isInGenericScope: "\(facts.isInGenericScope)"
        case .isPrivate: "\(facts.isPrivate)"
        case .isLocal: "\(facts.isLocal)"
        case .conditions: "[" + facts.conditions.joined(separator: " | ") + "]"
        }
    }

    func agrees(_ scanner: DeclarationFacts, _ syntax: DeclarationFacts) -> Bool {
        switch self {
        case .inherits: scanner.inherits == syntax.inherits
        case .isGeneric: scanner.isGeneric == syntax.isGeneric
        case .isInGenericScope: scanner.isInGenericScope == syntax.isInGenericScope
        case .isPrivate: scanner.isPrivate == syntax.isPrivate
        case .isLocal: scanner.isLocal == syntax.isLocal
        case .conditions: scanner.conditions == syntax.conditions
        }
    }
}
