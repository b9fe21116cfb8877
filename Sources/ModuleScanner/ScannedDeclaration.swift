/// One declaration as the scanner read it, for the differential check against swift-syntax
/// (`Validation/`, Docs/Discovery.md): not API, and free to change with the scanner.
///
/// The same facts ``ModuleScan`` builds discovery on: the kind, the name and its enclosing types, what it
/// inherits, whether it or its scope is generic, private or local, and the `#if` conditions around it.
@_spi(Validation)
public struct ScannedDeclaration: Sendable, Hashable, CustomStringConvertible {
    /// `struct`, `class`, `enum`, `actor`, `protocol`, `extension` or `typealias`.
    public var kind: String
    /// The declared name; for an extension, the extended type as written (`Outer.Inner`).
    public var name: String
    /// The enclosing types and extensions, outermost first.
    public var scope: [String]
    /// The last path component of each inherited type; for a typealias, of each type on its right-hand side.
    public var inherits: [String]
    /// Whether the declaration has its own generic parameter clause.
    public var isGeneric: Bool
    /// Whether an enclosing declaration has a generic parameter clause.
    public var isInGenericScope: Bool
    /// Whether the declaration, or an enclosing one, is `private` or `fileprivate`.
    public var isPrivate: Bool
    /// Whether it sits inside a function, closure, accessor or other code body.
    public var isLocal: Bool
    /// The `#if` conditions that must all hold for it to exist, as written.
    public var conditions: [String]
    /// Its line, from 1.
    public var line: Int

    /// `Outer.Inner`.
    public var qualifiedName: String { (scope + [name]).joined(separator: ".") }

    public var description: String {
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

    /// Every declaration the scanner finds in `text`, in source order.
    public static func scan(_ text: String, file: String) -> [ScannedDeclaration] {
        DeclarationParser.parse(text, file: file).map(ScannedDeclaration.init)
    }

    private init(_ declaration: Declaration) {
        kind =
            switch declaration.kind {
            case .structure: "struct"
            case .class: "class"
            case .enumeration: "enum"
            case .actor: "actor"
            case .protocol: "protocol"
            case .extension: "extension"
            case .typealias: "typealias"
            }
        name = declaration.name
        scope = declaration.scope
        inherits = declaration.inherits
        isGeneric = declaration.isGeneric
        isInGenericScope = declaration.isInGenericScope
        isPrivate = declaration.isPrivate
        isLocal = declaration.isLocal
        conditions = declaration.conditions
        line = declaration.line
    }
}
