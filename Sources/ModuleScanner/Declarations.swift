/// A declaration the scanner cares about: a nominal type, a protocol, an extension or a typealias.
struct Declaration: Hashable {
    enum Kind: String, Hashable {
        case structure
        case `class`
        case enumeration
        case actor
        case `protocol`
        case `extension`
        case `typealias`

        var isNominal: Bool {
            switch self {
            case .structure, .class, .enumeration, .actor: return true
            case .protocol, .extension, .typealias: return false
            }
        }
    }

    var kind: Kind
    /// The declared name; for an extension, the extended type as written (`Outer.Inner`).
    var name: String
    /// The names of the enclosing types and extensions, outermost first.
    var scope: [String]
    /// The last path component of each inherited type (`LifecycleCore.LifecycleModule` → `LifecycleModule`),
    /// or, for a typealias, of each type in its right-hand side (`A & B` → `A`, `B`).
    var inherits: [String]
    /// Whether the declaration has its own generic parameter clause.
    var isGeneric: Bool
    /// Whether an enclosing declaration has a generic parameter clause.
    var isInGenericScope: Bool
    /// Whether the declaration, or an enclosing one, is `private` or `fileprivate`.
    var isPrivate: Bool
    /// Whether the declaration sits inside a function, closure, accessor or other code body.
    var isLocal: Bool
    /// The `#if` conditions that must all hold for the declaration to exist.
    var conditions: [String]
    var file: String
    var line: Int
    /// Whether an attribute on the declaration may isolate it to a global actor (`@MainActor`), or it is an
    /// actor: its members are isolated unless marked `nonisolated`. Read from the target's own files only.
    var mayBeIsolated = false
    /// Whether `// module-discovery: ignore` sits directly above it (``DiscoveryDirective``): discovery
    /// skips it, and says so. Read from the target's own files only.
    var isIgnored = false

    /// The name qualified by its enclosing types: `Outer.Inner`.
    var qualifiedName: String { (scope + [name]).joined(separator: ".") }
}

/// Finds declarations in a token stream while tracking scopes (type bodies vs. code bodies) and the
/// `#if` conditions in force.
struct DeclarationParser {
    enum Scope {
        case type(name: String, isGeneric: Bool, isPrivate: Bool, isLocal: Bool, isExtension: Bool, mayBeIsolated: Bool)
        case code(isLocal: Bool)

        var isLocal: Bool {
            switch self {
            case .type(_, _, _, let isLocal, _, _): return isLocal
            case .code(let isLocal): return isLocal
            }
        }
    }

    /// One `#if` block: the conditions of the branches already passed, and the current branch's (empty for
    /// `#else`).
    struct ConditionFrame {
        var passed: [String] = []
        var current: String

        var expression: String {
            let negated = passed.map { "!\(parenthesized($0))" }
            let parts = current.isEmpty ? negated : negated + [current]
            return parts.map(parenthesizedIfCompound).joined(separator: " && ")
        }
    }

    private static let accessModifiers: Set<String> = [
        "private", "fileprivate", "internal", "package", "public", "open",
    ]
    /// The kinds an `import` may name: `import typealias WinSDK.DWORD`.
    private static let importKinds: Set<String> = [
        "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
    ]
    private static let declarationKeywords: [String: Declaration.Kind] = [
        "struct": .structure, "class": .class, "enum": .enumeration, "actor": .actor,
        "protocol": .protocol, "extension": .extension, "typealias": .typealias,
    ]
    /// Words after `class` that make it a member modifier (`class func`) rather than a type declaration.
    private static let memberIntroducers: Set<String> = [
        "func", "var", "let", "subscript", "init", "deinit", "static", "final", "override", "convenience",
        "required", "private", "fileprivate", "internal", "public", "open", "package", "nonisolated", "mutating",
    ]

    let tokens: [Token]
    let file: String
    var index = 0
    private(set) var scopes: [Scope] = []
    private(set) var frames: [ConditionFrame] = []
    /// The words since the last punctuation, and the attributes as `@Name`: a declaration's modifiers.
    private(set) var modifiers: [String] = []
    /// Open `(` and `[` in the current brace scope: inside them a keyword is an argument label
    /// (`func register(class cls: AnyClass)`), never a declaration.
    private(set) var groupDepth: [Int] = [0]
    private(set) var declarations: [Declaration] = []
    /// The functions declared directly in a type's body or an extension.
    var functions: [FunctionDeclaration] = []
    /// Every `static let pattern` / `static var pattern` initialised with a string literal.
    private(set) var patterns: [RoutePatternDeclaration] = []

    private init(tokens: [Token], file: String) {
        self.tokens = tokens
        self.file = file
    }

    static func parse(_ text: String, file: String) -> [Declaration] {
        parse(tokens: Lexer.tokenize(text), file: file)
    }

    static func parse(tokens: [Token], file: String) -> [Declaration] {
        parseWithPatterns(tokens: tokens, file: file).declarations
    }

    /// The declarations, the route patterns written as literals in type bodies, and the functions declared
    /// in type bodies and extensions.
    static func parseWithPatterns(
        tokens: [Token],
        file: String
    ) -> (declarations: [Declaration], patterns: [RoutePatternDeclaration], functions: [FunctionDeclaration]) {
        var parser = DeclarationParser(tokens: tokens, file: file)
        parser.run()
        return (parser.declarations, parser.patterns, parser.functions)
    }

    func token(_ offset: Int = 0) -> Token? {
        let position = index + offset
        return position < tokens.count ? tokens[position] : nil
    }

    private mutating func run() {
        while let current = token() {
            switch current.kind {
            case .directive(let directive, let condition):
                apply(directive, condition)
                index += 1
            case .punct("{"):
                scopes.append(.code(isLocal: true))
                groupDepth.append(0)
                modifiers = []
                index += 1
            case .punct("}"):
                if !scopes.isEmpty { scopes.removeLast() }
                if groupDepth.count > 1 { groupDepth.removeLast() }
                modifiers = []
                index += 1
            case .punct("("), .punct("["):
                groupDepth[groupDepth.count - 1] += 1
                modifiers = []
                index += 1
            case .punct(")"), .punct("]"):
                groupDepth[groupDepth.count - 1] = max(0, groupDepth[groupDepth.count - 1] - 1)
                modifiers = []
                index += 1
            case .punct("@"):
                if let name = token(1)?.word { modifiers.append("@" + name) }
                skipAttribute()
            case .word(let word):
                if word == "import" {
                    modifiers = []  // `private import Foundation` says nothing about the next type
                    index += 1
                    // `import typealias WinSDK.DWORD`, `import struct Foundation.Date`: a kind, not a declaration.
                    if let kind = token()?.word, Self.importKinds.contains(kind) { index += 1 }
                } else if let kind = Self.declarationKeywords[word], !current.isEscaped, groupDepth.last == 0,
                    startsDeclaration(kind)
                {
                    parseDeclaration(kind)
                    modifiers = []
                } else if word == "func", !current.isEscaped, let function = functionDeclaration() {
                    // Read ahead only: the tokens after it are scanned as usual.
                    functions.append(function)
                    modifiers.append(word)
                    index += 1
                } else if word == "let" || word == "var", token(1)?.word == "pattern", atStaticMember {
                    // Read ahead only: the tokens after it are scanned as usual.
                    if let pattern = patternLiteral() { patterns.append(pattern) }
                    modifiers.append(word)
                    index += 1
                } else if Self.accessModifiers.contains(word), token(1)?.isPunct("(") == true {
                    index += 1
                    skipBalanced(open: "(", close: ")")  // private(set): not the declaration's access
                } else {
                    modifiers.append(word)
                    index += 1
                }
            default:
                modifiers = []
                index += 1
            }
        }
    }

    private mutating func apply(_ directive: Token.Directive, _ condition: String) {
        switch directive {
        case .if:
            frames.append(ConditionFrame(current: condition))
        case .elseif:
            guard var frame = frames.popLast() else { return }
            frame.passed.append(frame.current)
            frame.current = condition
            frames.append(frame)
        case .else:
            guard var frame = frames.popLast() else { return }
            frame.passed.append(frame.current)
            frame.current = ""
            frames.append(frame)
        case .endif:
            _ = frames.popLast()
        }
    }

    /// Whether the keyword at the cursor begins a declaration (as opposed to `class func`, `.enum`, or a
    /// variable named `actor`).
    private func startsDeclaration(_ kind: Declaration.Kind) -> Bool {
        if let previous = index > 0 ? tokens[index - 1] : nil, previous.isPunct(".") { return false }
        if kind == .extension, token(1)?.isPunct("[") == true { return true }  // `extension [Element]`
        guard let next = token(1), let name = next.word else { return false }
        if kind == .class, Self.memberIntroducers.contains(name) { return false }
        if kind == .extension || kind == .typealias { return true }
        guard let after = token(2) else { return false }
        return after.isPunct("{") || after.isPunct(":") || after.isPunct("<") || after.word == "where"
    }

    private mutating func parseDeclaration(_ kind: Declaration.Kind) {
        let line = token()!.line
        index += 1  // keyword
        let isLocal = scopes.last?.isLocal ?? false
        var name = token()?.word ?? ""
        var isGeneric = false
        if kind == .extension, token()?.isPunct("[") == true {
            // `extension [Element]`, `extension [Key: Value]`: sugar for a generic standard library type.
            name = sugaredCollectionName()
            isGeneric = true
        } else {
            index += 1
        }
        if kind == .extension {
            // A dotted path, possibly with generic arguments: `Outer.Inner`, `Array<Int>`. Arguments (or a
            // `where` clause, below) mean the extended type is generic.
            while true {
                if token()?.isPunct("<") == true {
                    isGeneric = true
                    skipBalanced(open: "<", close: ">")
                }
                guard token()?.isPunct(".") == true, let next = token(1)?.word else { break }
                name += "." + next
                index += 2
            }
            // `extension Int?`: an extension of `Optional`, which is generic.
            while token()?.isPunct("?") == true || token()?.isPunct("!") == true {
                name = "Optional"
                isGeneric = true
                index += 1
            }
        }
        if token()?.isPunct("<") == true {
            isGeneric = true
            skipBalanced(open: "<", close: ">")
        }
        var inherits: [String] = []
        if kind == .typealias {
            if token()?.isPunct("=") == true {
                index += 1
                let start = index
                inherits = parseTypeList(terminators: [], line: line)
                // `typealias Handler = (Request) -> Response` names no protocol or class.
                if isStructuralType(tokens[start..<index]) { inherits = [] }
            }
        } else if token()?.isPunct(":") == true {
            index += 1
            inherits = parseTypeList(terminators: ["{"], line: nil)
        }
        if kind == .typealias, token()?.word == "where" {
            // A typealias has no body: its `where` clause ends with the line, unless a `,` or `:` continues it.
            skipTypealiasWhereClause()
        } else if token()?.word == "where" {
            if kind == .extension { isGeneric = true }
            while let current = token(), !current.isPunct("{") {
                // `protocol P where Self: LifecycleModule` refines like `protocol P: LifecycleModule`.
                if kind == .protocol, current.word == "Self", token(1)?.isPunct(":") == true {
                    index += 2
                    var path: [String] = []
                    while let word = token()?.word {
                        path.append(word)
                        index += 1
                        guard token()?.isPunct(".") == true else { break }
                        index += 1
                    }
                    if let last = path.last { inherits.append(last) }
                    continue
                }
                index += 1
            }
        }

        let enclosing = enclosingTypeScope()
        let ownPrivate = modifiers.contains("private") || modifiers.contains("fileprivate")
        let explicitAccess = modifiers.contains { Self.accessModifiers.contains($0) }
        // An explicit access level wins over a `private extension`'s default, never over a private type.
        let overridesParent = explicitAccess && enclosing.isExtension
        let isPrivate = ownPrivate || (enclosing.isPrivate && !overridesParent) || enclosing.hasPrivateAncestor
        let mayBeIsolated = kind == .actor || (Self.mayIsolate(modifiers) && !modifiers.contains("nonisolated"))
        declarations.append(
            Declaration(
                kind: kind,
                name: name,
                scope: enclosing.names,
                inherits: inherits,
                isGeneric: isGeneric,
                isInGenericScope: enclosing.isGeneric,
                isPrivate: isPrivate,
                isLocal: isLocal,
                conditions: frames.map(\.expression),
                file: file,
                line: line,
                mayBeIsolated: mayBeIsolated
            )
        )

        if token()?.isPunct("{") == true {
            index += 1
            groupDepth.append(0)
            switch kind {
            case .typealias:
                scopes.append(.code(isLocal: isLocal))
            default:
                scopes.append(
                    .type(
                        name: name,
                        isGeneric: isGeneric,
                        isPrivate: ownPrivate,
                        isLocal: isLocal,
                        isExtension: kind == .extension,
                        mayBeIsolated: mayBeIsolated
                    )
                )
            }
        }
    }

    /// Whether a `let` or `var` at the cursor declares a static member of the type whose body is open.
    private var atStaticMember: Bool {
        guard case .type = scopes.last, groupDepth.last == 0 else { return false }
        return modifiers.contains("static") || modifiers.contains("class")
    }

    /// The chain of enclosing type scopes, up to the nearest code scope.
    func enclosingTypeScope() -> (
        names: [String], isGeneric: Bool, isPrivate: Bool, hasPrivateAncestor: Bool, isExtension: Bool
    ) {
        var names: [String] = []
        var isGeneric = false
        var privates: [Bool] = []
        var directIsExtension = false
        // Walked innermost first, collected in that order and reversed once: inserting at the front cost
        // depth² per declaration, so types nested 2,000 deep took seconds (scanner-bench --depth).
        for scope in scopes.reversed() {
            guard case .type(let name, let generic, let isPrivate, _, let isExtension, _) = scope else { break }
            if names.isEmpty { directIsExtension = isExtension }
            names.append(name)
            isGeneric = isGeneric || generic
            privates.append(isPrivate)
        }
        names.reverse()
        let direct = privates.first ?? false
        let ancestor = privates.dropFirst().contains(true)
        return (names, isGeneric, direct, ancestor, directIsExtension)
    }

    /// Parses `A, B.C, @unchecked D & E, ~Copyable` up to a terminator at depth 0, returning the last
    /// path component of each type. For a typealias (`line` set), also stops at the end of the line.
    private mutating func parseTypeList(terminators: Set<Character>, line: Int?) -> [String] {
        var names: [String] = []
        var path: [String] = []
        // A typealias's right-hand side may start on the line after `=`, and go on over several lines inside
        // `<…>` or `(…)`; it ends with the line of its last token, unless `&`, `.` or `->` carries it over.
        let start = index
        func finish() {
            if let last = path.last { names.append(last) }
            path = []
        }
        while let current = token() {
            if case .directive = current.kind { break }
            let arrowAhead = current.isPunct("-") && token(1)?.isPunct(">") == true
            if line != nil, index > start, current.line != tokens[index - 1].line, !current.isPunct("&"),
                !current.isPunct("."), !arrowAhead, !tokens[index - 1].isPunct("&"), !tokens[index - 1].isPunct(".")
            {
                break
            }
            switch current.kind {
            case .punct(let character) where terminators.contains(character):
                finish()
                return names
            case .punct("{"), .punct("}"), .punct(";"):
                finish()
                return names
            case .word("where"):
                finish()
                return names
            case .punct(","), .punct("&"):
                finish()
                index += 1
            case .punct("<"):
                skipBalanced(open: "<", close: ">")
            case .punct("("):
                skipBalanced(open: "(", close: ")")
            case .punct("@"):
                if let name = token(1)?.word { modifiers.append("@" + name) }
                skipAttribute()
            case .punct("~"):
                index += 2  // ~Copyable: a suppression, not a conformance
            case .word("any"), .word("some"):
                index += 1
            case .word(let word):
                path.append(word)
                index += 1
            default:
                index += 1
            }
        }
        finish()
        return names
    }

    private mutating func skipAttribute() {
        index += 1  // @
        if token()?.word != nil { index += 1 }
        if token()?.isPunct("(") == true { skipBalanced(open: "(", close: ")") }
    }

    /// Skips from an opening character at the cursor past its matching closing character.
    private mutating func skipBalanced(open: Character, close: Character) {
        var depth = 0
        while let current = token() {
            index += 1
            if current.isPunct(open) { depth += 1 }
            // The `>` of `->` (a function type among generic arguments) closes nothing.
            let isArrow = open == "<" && index >= 2 && tokens[index - 2].isPunct("-")
            if current.isPunct(close), !isArrow {
                depth -= 1
                if depth <= 0 { return }
            }
            // `->` inside generic arguments (function types) must not close a `<`.
            if open == "<", current.isPunct("{") || current.isPunct("}") {
                index -= 1
                return
            }
        }
    }
}

private func parenthesized(_ condition: String) -> String { "(\(condition))" }

/// Wraps a condition in parentheses unless it is a single name or call (`DEBUG`, `os(Linux)`).
private func parenthesizedIfCompound(_ condition: String) -> String {
    let isSimple = condition.allSatisfy {
        $0.isLetter || $0.isNumber || $0 == "_" || $0 == "(" || $0 == ")" || $0 == "." || $0 == "!"
    }
    return isSimple ? condition : "(\(condition))"
}
