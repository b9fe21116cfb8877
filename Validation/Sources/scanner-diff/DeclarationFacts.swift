@_spi(Validation) import ModuleScanner

/// One declaration as one reader saw it: the facts discovery builds on, in a form both readers fill in the
/// same way, so two readings compare field by field.
struct DeclarationFacts: Sendable, Hashable, Codable {
    /// `struct`, `class`, `enum`, `actor`, `protocol`, `extension` or `typealias`.
    var kind: String
    /// The declared name; for an extension, the extended type's path without generic arguments.
    var name: String
    /// The enclosing types and extensions, outermost first, up to the nearest code body.
    var scope: [String]
    /// The last path component of each inherited type (for a typealias, of each type on its right-hand side).
    var inherits: [String]
    var isGeneric: Bool
    var isInGenericScope: Bool
    var isPrivate: Bool
    var isLocal: Bool
    /// The `#if` conditions around it, outermost first, written as the scanner writes them.
    var conditions: [String]
    /// The line of its keyword (`struct`, `extension`, …), from 1.
    var line: Int

    var qualifiedName: String { (scope + [name]).joined(separator: ".") }

    /// What two readings of one declaration must share to be compared at all.
    var key: Key { Key(line: line, kind: kind, qualifiedName: qualifiedName) }

    struct Key: Hashable, Comparable {
        var line: Int
        var kind: String
        var qualifiedName: String

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.line, lhs.kind, lhs.qualifiedName) < (rhs.line, rhs.kind, rhs.qualifiedName)
        }
    }
}

extension DeclarationFacts {
    /// The scanner's reading.
    init(_ scanned: ScannedDeclaration) {
        self.init(
            kind: scanned.kind,
            name: scanned.name,
            scope: scanned.scope,
            inherits: scanned.inherits,
            isGeneric: scanned.isGeneric,
            isInGenericScope: scanned.isInGenericScope,
            isPrivate: scanned.isPrivate,
            isLocal: scanned.isLocal,
            conditions: scanned.conditions,
            line: scanned.line
        )
    }
}

extension DeclarationFacts: CustomStringConvertible {
    /// `12: struct Outer.Inner: P, Q [generic, private] #if DEBUG`.
    var description: String {
        var text = "\(line): \(kind) \(qualifiedName)"
        if !inherits.isEmpty { text += ": " + inherits.joined(separator: ", ") }
        var flags: [String] = []
        if isGeneric { flags.append("generic") }
        if isInGenericScope { flags.append("in generic scope") }
        if isPrivate { flags.append("private") }
        if isLocal { flags.append("local") }
        if !flags.isEmpty { text += " [" + flags.joined(separator: ", ") + "]" }
        if !conditions.isEmpty { text += " #if " + conditions.joined(separator: " && ") }
        return text
    }
}
