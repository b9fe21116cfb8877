extension DeclarationParser {
    // Functions declared in type bodies and extensions, read ahead from their `func` keyword without moving
    // the cursor: what tells that a module implements a hook with a synchronous function.

    /// Attributes that change nothing about calling a function directly from a synchronous closure.
    static let harmlessFunctionAttributes: Set<String> = [
        "inlinable", "inline", "usableFromInline", "discardableResult", "objc", "nonobjc", "_spi", "_optimize",
        "_effects", "_semantics", "preconcurrency", "Sendable",
    ]

    /// Attributes written like a type's name that are known not to be global actors.
    static let nonIsolatingAttributes: Set<String> = ["Sendable", "Observable"]

    /// Whether `modifiers` hold an attribute that may be a global actor: `@MainActor`, or any attribute named
    /// like a type (a global actor of the program's own) that is not known to be something else.
    static func mayIsolate(_ modifiers: [String]) -> Bool {
        modifiers.contains { modifier in
            guard modifier.hasPrefix("@") else { return false }
            let name = modifier.dropFirst()
            return name.first?.isUppercase == true && !nonIsolatingAttributes.contains(String(name))
        }
    }

    /// Words that begin the next member: a requirement without a body ends before them.
    private static let memberStarts: Set<String> = [
        "func", "var", "let", "init", "deinit", "subscript", "static", "class", "case", "typealias",
        "associatedtype", "struct", "enum", "actor", "protocol", "extension", "public", "private", "fileprivate",
        "internal", "package", "open", "mutating", "nonisolated", "override", "final",
    ]

    /// The function whose `func` keyword is at the cursor, when it is declared directly in a type's body or
    /// an extension and its signature can be read; `nil` otherwise.
    func functionDeclaration() -> FunctionDeclaration? {
        guard case .type = scopes.last, groupDepth.last == 0 else { return nil }
        guard index == 0 || !tokens[index - 1].isPunct("."), let name = token(1)?.word else { return nil }
        func at(_ position: Int) -> Token? { position < tokens.count ? tokens[position] : nil }
        var position = index + 2
        var isGeneric = false
        if at(position)?.isPunct("<") == true {
            isGeneric = true
            guard let after = positionAfterGenericClause(from: position) else { return nil }
            position = after
        }
        guard at(position)?.isPunct("(") == true,
            let (parameters, afterParameters) = parameterList(from: position + 1)
        else { return nil }
        position = afterParameters
        var isAsync = false
        var isThrowing = false
        effects: while let word = at(position)?.word {
            switch word {
            case "async", "reasync":
                isAsync = true
            case "throws", "rethrows":
                isThrowing = true
                if at(position + 1)?.isPunct("(") == true {  // typed throws: `throws(MyError)`
                    guard
                        let close = (position + 2..<min(tokens.count, position + 32)).first(where: {
                            tokens[$0].isPunct(")")
                        })
                    else { return nil }
                    position = close
                }
            default:
                break effects
            }
            position += 1
        }
        var returnType: String?
        if at(position)?.isPunct("-") == true, at(position + 1)?.isPunct(">") == true {
            position += 2
            let start = position
            var depth = 0
            while let current = at(position), position - start < 64 {
                if case .directive = current.kind { break }
                if depth == 0 {
                    if current.isPunct("{") || current.isPunct("}") || current.isPunct(";") || current.word == "where" {
                        break
                    }
                    if let word = current.word, position > start, Self.memberStarts.contains(word) { break }
                }
                depth += nesting(at: position)
                position += 1
            }
            returnType = Self.text(of: tokens[start..<position])
        }
        let attributes = modifiers.filter { $0.hasPrefix("@") }.map { String($0.dropFirst()) }
        let nonisolated = modifiers.contains("nonisolated")
        let enclosingIsolated = scopes.reversed().prefix { if case .type = $0 { true } else { false } }.contains {
            if case .type(_, _, _, _, _, let isolated) = $0 { return isolated }
            return false
        }
        return FunctionDeclaration(
            name: name,
            labels: parameters.map(\.label),
            parameterTypes: parameters.map(\.type),
            returnType: returnType,
            isAsync: isAsync,
            isThrowing: isThrowing,
            isStatic: modifiers.contains("static") || modifiers.contains("class"),
            isMutating: modifiers.contains("mutating") || modifiers.contains("consuming"),
            isGeneric: isGeneric,
            isNonisolated: nonisolated,
            mayBeIsolated: !nonisolated && (enclosingIsolated || Self.mayIsolate(modifiers)),
            hasOtherAttributes: attributes.contains {
                !Self.harmlessFunctionAttributes.contains($0) && !($0.first?.isUppercase == true)
            },
            scope: enclosingTypeScope().names,
            conditions: frames.map(\.expression),
            file: file,
            line: tokens[index].line
        )
    }

    /// How the token at `offset` changes the nesting of brackets: `(`, `[` and `<` open; `)`, `]` and `>` close,
    /// except the `>` of `->`.
    private func nesting(at offset: Int) -> Int {
        let current = tokens[offset]
        if current.isPunct("(") || current.isPunct("[") || current.isPunct("<") { return 1 }
        if current.isPunct(")") || current.isPunct("]") { return -1 }
        if current.isPunct(">"), offset == 0 || !tokens[offset - 1].isPunct("-") { return -1 }
        return 0
    }

    /// The position after the generic parameter clause that opens at `offset`.
    private func positionAfterGenericClause(from offset: Int) -> Int? {
        var depth = 0
        var position = offset
        while position < tokens.count, position < offset + 256 {
            let current = tokens[position]
            if current.isPunct("{") || current.isPunct("}") { return nil }
            depth += nesting(at: position)
            position += 1
            if depth == 0 { return position }
        }
        return nil
    }

    /// The parameters of the list whose first token is at `offset` (after its `(`), each with its argument
    /// label and its type as written, and the position after the closing `)`; `nil` when the list holds
    /// something a hook's would not, such as a closure as a default value.
    private func parameterList(from offset: Int) -> (parameters: [(label: String, type: String)], end: Int)? {
        var parameters: [(label: String, type: String)] = []
        var position = offset
        var start = offset
        var depth = 0
        while position < tokens.count, position < offset + 512 {
            let current = tokens[position]
            if current.isPunct("{") || current.isPunct("}") { return nil }
            if case .directive = current.kind { return nil }
            if depth == 0, current.isPunct(",") || current.isPunct(")") {
                if position > start {
                    guard let parameter = Self.parameter(tokens[start..<position]) else { return nil }
                    parameters.append(parameter)
                }
                if current.isPunct(")") { return (parameters, position + 1) }
                start = position + 1
            } else {
                depth += nesting(at: position)
            }
            position += 1
        }
        return nil
    }

    /// One parameter, `label name: Type = default`: its argument label (`_` for none) and its type as written.
    private static func parameter(_ tokens: ArraySlice<Token>) -> (label: String, type: String)? {
        var rest = tokens
        while rest.first?.isPunct("@") == true {  // `@escaping`, `@Sendable`
            rest = rest.dropFirst()
            if rest.first?.word != nil { rest = rest.dropFirst() }
        }
        guard let colon = rest.firstIndex(where: { $0.isPunct(":") }) else { return nil }
        let names = rest[..<colon].compactMap(\.word)
        guard let label = names.first, names.count <= 2, names.count == colon - rest.startIndex else { return nil }
        var type = rest[(colon + 1)...]
        if let defaultValue = type.firstIndex(where: { $0.isPunct("=") }) { type = type[..<defaultValue] }
        guard !type.isEmpty else { return nil }
        return (label, text(of: type))
    }

    /// The tokens as written without spaces, but for one between two words: `inout Int`, `Foundation.URL`.
    static func text(of tokens: ArraySlice<Token>) -> String {
        var text = ""
        var previousIsWord = false
        for token in tokens {
            switch token.kind {
            case .word(let word):
                if previousIsWord { text += " " }
                text += word
                previousIsWord = true
            case .punct(let character):
                text.append(character)
                previousIsWord = false
            case .literal, .directive:
                text += "…"
                previousIsWord = false
            }
        }
        return text
    }
}
