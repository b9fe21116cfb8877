/// One fact on which the scanner and swift-syntax read a declaration differently, or a declaration only one
/// of them found.
struct Disagreement: Sendable, Codable {
    enum Category: String, Sendable, Codable, CaseIterable, Comparable {
        case onlyScanner = "only scanner"
        case onlySyntax = "only swift-syntax"
        case inherits
        case isGeneric
        case isInGenericScope
        case isPrivate
        case isLocal
        case conditions

        init(_ fact: Fact) {
            switch fact {
            case .inherits: self = .inherits
            case .isGeneric: self = .isGeneric
            case .isInGenericScope: self = .isInGenericScope
            case .isPrivate: self = .isPrivate
            case .isLocal: self = .isLocal
            case .conditions: self = .conditions
            }
        }

        static func < (lhs: Category, rhs: Category) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    var category: Category
    var file: String
    var line: Int
    /// The declaration, as `kind Qualified.Name`.
    var declaration: String
    /// The scanner's reading of the fact; `nil` when it did not find the declaration.
    var scanner: String?
    /// swift-syntax's reading; `nil` when it did not find the declaration.
    var syntax: String?
    /// The traits swift-syntax saw at the declaration, for the known limits.
    var traits: Set<Trait>
    /// The id of the known limit that explains it, if one does.
    var knownLimit: String?
}
