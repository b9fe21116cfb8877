import SwiftParser
import SwiftSyntax

/// Reads the facts of ``DeclarationFacts`` from swift-syntax's tree: the reference the scanner is compared
/// with. It follows Swift's rules, not the scanner's code, so each disagreement is the scanner's to explain.
final class SyntaxReader: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private(set) var declarations: [DeclarationFacts] = []
    /// Names of the shapes the known limits recognise, by the line and kind of the declaration they touch.
    private(set) var traits: [DeclarationFacts.Key: Set<Trait>] = [:]
    /// Whether swift-syntax found the file invalid: then its reading is no reference.
    private var hasErrors = false

    private init(tree: SourceFileSyntax, file: String) {
        converter = SourceLocationConverter(fileName: file, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// Every declaration of `text`, in source order, with the traits of each.
    static func read(
        _ text: String,
        file: String
    ) -> (
        declarations: [DeclarationFacts], traits: [DeclarationFacts.Key: Set<Trait>], hasErrors: Bool
    ) {
        // The same nesting limit in debug and release builds (a debug build's default is 20), so both compare
        // the same declarations.
        var text = text
        let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: 256) }
        let reader = SyntaxReader(tree: tree, file: file)
        reader.hasErrors = tree.hasError
        reader.walk(tree)
        return (reader.declarations, reader.traits, tree.hasError)
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, kind: "struct", keyword: node.structKeyword, name: node.name)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, kind: "class", keyword: node.classKeyword, name: node.name)
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, kind: "enum", keyword: node.enumKeyword, name: node.name)
        return .visitChildren
    }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, kind: "actor", keyword: node.actorKeyword, name: node.name)
        return .visitChildren
    }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, kind: "protocol", keyword: node.protocolKeyword, name: node.name)
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, kind: "extension", keyword: node.extensionKeyword, name: nil)
        return .visitChildren
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node, kind: "typealias", keyword: node.typealiasKeyword, name: node.name)
        return .visitChildren
    }

    private func record(_ node: some DeclSyntaxProtocol, kind: String, keyword: TokenSyntax, name: TokenSyntax?) {
        let syntax = Syntax(node)
        let enclosing = Self.enclosing(syntax)
        let facts = DeclarationFacts(
            kind: kind,
            name: name.map { Self.unescaped($0) } ?? Self.extendedName(syntax),
            scope: enclosing.types.map { Self.typeName($0) },
            inherits: Self.inherits(syntax),
            isGeneric: Self.isGeneric(syntax),
            isInGenericScope: enclosing.types.contains { Self.isGeneric($0) },
            isPrivate: Self.isPrivate(syntax),
            isLocal: enclosing.isLocal,
            conditions: Self.conditions(syntax),
            line: converter.location(for: keyword.positionAfterSkippingLeadingTrivia).line
        )
        declarations.append(facts)
        var found = Trait.traits(of: syntax, converter: converter)
        if hasErrors { found.insert(.invalidSource) }
        if !found.isEmpty { traits[facts.key, default: []].formUnion(found) }
    }

    // MARK: Names and nesting

    /// The enclosing type and extension declarations, outermost first, up to the nearest code body
    /// (function, closure, accessor, `switch`), and whether there is one.
    static func enclosing(_ node: Syntax) -> (types: [Syntax], isLocal: Bool) {
        var types: [Syntax] = []
        var current = node.parent
        while let parent = current {
            if parent.is(CodeBlockSyntax.self) || parent.is(ClosureExprSyntax.self)
                || parent.is(AccessorBlockSyntax.self) || parent.is(SwitchExprSyntax.self)
            {
                return (types, true)
            }
            if isTypeOrExtension(parent) { types.insert(parent, at: 0) }
            current = parent.parent
        }
        return (types, false)
    }

    private static func isTypeOrExtension(_ node: Syntax) -> Bool {
        node.is(StructDeclSyntax.self) || node.is(ClassDeclSyntax.self) || node.is(EnumDeclSyntax.self)
            || node.is(ActorDeclSyntax.self) || node.is(ProtocolDeclSyntax.self) || node.is(ExtensionDeclSyntax.self)
    }

    private static func typeName(_ node: Syntax) -> String {
        if let declaration = node.asProtocol((any NamedDeclSyntax).self) { return unescaped(declaration.name) }
        return extendedName(node)
    }

    /// An extension's type as a dotted path without generic arguments (`Outer.Inner`, `Array`); sugar as
    /// the type it stands for (`[Int]` → `Array`, `Int?` → `Optional`); any other type as written.
    static func extendedName(_ node: Syntax) -> String {
        guard let extensionDeclaration = node.as(ExtensionDeclSyntax.self) else { return "" }
        let type = extensionDeclaration.extendedType
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return "Optional"
        }
        if type.is(ArrayTypeSyntax.self) { return "Array" }
        if type.is(DictionaryTypeSyntax.self) { return "Dictionary" }
        return path(of: type)?.joined(separator: ".") ?? type.trimmedDescription
    }

    /// `A.B<C>` → `["A", "B"]`; `nil` for a type that is not a (possibly qualified) name.
    private static func path(of type: TypeSyntax) -> [String]? {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return [unescaped(identifier.name)] }
        if let member = type.as(MemberTypeSyntax.self) {
            return path(of: member.baseType).map { $0 + [unescaped(member.name)] }
        }
        return nil
    }

    private static func hasGenericArguments(_ type: TypeSyntax) -> Bool {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.genericArgumentClause != nil }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.genericArgumentClause != nil || hasGenericArguments(member.baseType)
        }
        return true  // sugar: `[T]`, `T?`, `[K: V]`
    }

    static func unescaped(_ token: TokenSyntax) -> String {
        var text = token.text
        if text.hasPrefix("`"), text.hasSuffix("`"), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        return text
    }

    // MARK: Inheritance

    /// The last path component of each inherited type, or of each type a typealias names.
    static func inherits(_ node: Syntax) -> [String] {
        if let alias = node.as(TypeAliasDeclSyntax.self) { return lastNames(alias.initializer.value) }
        guard let group = node.asProtocol((any DeclGroupSyntax).self), let clause = group.inheritanceClause else {
            return []
        }
        var names = clause.inheritedTypes.flatMap { lastNames($0.type) }
        // `protocol P where Self: Q` refines like `protocol P: Q`.
        if let protocolDeclaration = node.as(ProtocolDeclSyntax.self),
            let requirements = protocolDeclaration.genericWhereClause?.requirements
        {
            for requirement in requirements {
                guard case .conformanceRequirement(let conformance) = requirement.requirement,
                    conformance.leftType.trimmedDescription == "Self"
                else { continue }
                names += lastNames(conformance.rightType)
            }
        }
        return names
    }

    /// The names a type contributes to conformance: `A.B` → `B`, `A & B` → `A`, `B`, `@unchecked B` → `B`,
    /// `any B` → `B`; a suppression (`~Copyable`) or a structural type (function, tuple, optional) → none.
    static func lastNames(_ type: TypeSyntax) -> [String] {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return [unescaped(identifier.name)] }
        if let member = type.as(MemberTypeSyntax.self) { return [unescaped(member.name)] }
        if let composition = type.as(CompositionTypeSyntax.self) {
            return composition.elements.flatMap { lastNames($0.type) }
        }
        if let attributed = type.as(AttributedTypeSyntax.self) { return lastNames(attributed.baseType) }
        if let someOrAny = type.as(SomeOrAnyTypeSyntax.self) { return lastNames(someOrAny.constraint) }
        if type.is(ClassRestrictionTypeSyntax.self) { return ["class"] }
        return []
    }

    // MARK: Generic, private

    /// Whether the declaration has its own generic parameters (primary associated types for a protocol);
    /// for an extension, whether its type has generic arguments or sugar, or it has a `where` clause.
    static func isGeneric(_ node: Syntax) -> Bool {
        if let declaration = node.as(StructDeclSyntax.self) { return declaration.genericParameterClause != nil }
        if let declaration = node.as(ClassDeclSyntax.self) { return declaration.genericParameterClause != nil }
        if let declaration = node.as(EnumDeclSyntax.self) { return declaration.genericParameterClause != nil }
        if let declaration = node.as(ActorDeclSyntax.self) { return declaration.genericParameterClause != nil }
        if let declaration = node.as(TypeAliasDeclSyntax.self) { return declaration.genericParameterClause != nil }
        if let declaration = node.as(ProtocolDeclSyntax.self) { return declaration.primaryAssociatedTypeClause != nil }
        if let declaration = node.as(ExtensionDeclSyntax.self) {
            return hasGenericArguments(declaration.extendedType) || declaration.genericWhereClause != nil
        }
        return false
    }

    private static func modifiers(_ node: Syntax) -> DeclModifierListSyntax? {
        node.asProtocol((any WithModifiersSyntax).self)?.modifiers
    }

    private static func accessLevel(_ node: Syntax) -> String? {
        let levels: Set<String> = ["private", "fileprivate", "internal", "package", "public", "open"]
        // `private(set)` sets the setter's access, not the declaration's.
        return modifiers(node)?.first { levels.contains($0.name.text) && $0.detail == nil }?.name.text
    }

    /// Whether the declaration cannot be named from another file: it is `private` or `fileprivate`, it is a
    /// member of such a type, or it is a member without an access level of such an extension.
    static func isPrivate(_ node: Syntax) -> Bool {
        let own = accessLevel(node)
        if own == "private" || own == "fileprivate" { return true }
        let types = enclosing(node).types
        guard let parent = types.last else { return false }
        if parent.is(ExtensionDeclSyntax.self) {
            let parentLevel = accessLevel(parent)
            return own == nil && (parentLevel == "private" || parentLevel == "fileprivate")
        }
        return isPrivate(parent)
    }

    // MARK: Conditions

    /// The `#if` conditions around the declaration, outermost first, as the scanner writes them: the earlier
    /// branches' conditions negated, then the branch's own.
    static func conditions(_ node: Syntax) -> [String] {
        var conditions: [String] = []
        var current = node.parent
        while let parent = current {
            if let clause = parent.as(IfConfigClauseSyntax.self),
                let block = clause.parent?.as(IfConfigClauseListSyntax.self)
            {
                let clauses = Array(block)
                let position = clauses.firstIndex { $0.id == clause.id } ?? 0
                let passed = clauses[..<position].map { $0.condition?.trimmedDescription ?? "" }
                let negated = passed.map { "!(\($0))" }
                let own = clause.condition?.trimmedDescription ?? ""
                let parts = own.isEmpty ? negated : negated + [own]
                conditions.insert(parts.map(parenthesizedIfCompound).joined(separator: " && "), at: 0)
            }
            current = parent.parent
        }
        return conditions
    }

    /// `DEBUG`, `os(Linux)` and `!X` stay as they are; anything else is wrapped in parentheses.
    private static func parenthesizedIfCompound(_ condition: String) -> String {
        let isSimple = condition.allSatisfy {
            $0.isLetter || $0.isNumber || $0 == "_" || $0 == "(" || $0 == ")" || $0 == "." || $0 == "!"
        }
        return isSimple ? condition : "(\(condition))"
    }
}
