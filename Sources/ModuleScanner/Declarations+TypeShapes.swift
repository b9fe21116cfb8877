extension DeclarationParser {
    // The shapes of types the parser has to tell apart: structural types on a typealias's right-hand side,
    // sugared collections extended (`extension [T]`), and a typealias's `where` clause.

    /// Whether `type` is a function, tuple, array, dictionary, optional or metatype: a type no declaration can
    /// inherit, whatever names it holds.
    func isStructuralType(_ type: ArraySlice<Token>) -> Bool {
        var rest = type[...]
        while rest.first?.isPunct("@") == true {  // `@Sendable (Int) -> Void`
            rest = rest.dropFirst()
            let name = rest.first?.word
            if name != nil { rest = rest.dropFirst() }
            // `@convention(c)` takes arguments; after `@Sendable`, `(` opens the function's parameters.
            if name == "convention" || name == "differentiable", rest.first?.isPunct("(") == true,
                let close = rest.firstIndex(where: { $0.isPunct(")") })
            {
                rest = rest[(close + 1)...]
            }
        }
        guard let first = rest.first else { return false }
        if first.isPunct("(") || first.isPunct("[") { return true }
        var depth = 0
        for position in rest.indices {
            let current = rest[position]
            let previous = position > rest.startIndex ? rest[position - 1] : nil
            let next = position + 1 < rest.endIndex ? rest[position + 1] : nil
            if current.isPunct("<") || current.isPunct("(") || current.isPunct("[") { depth += 1 }
            if current.isPunct(">"), previous?.isPunct("-") != true { depth -= 1 }
            if current.isPunct(")") || current.isPunct("]") { depth -= 1 }
            guard depth == 0 else { continue }
            if current.isPunct("-"), next?.isPunct(">") == true { return true }
            if current.isPunct("?") || current.isPunct("!") { return true }
            if current.isPunct("."), next?.word == "Type" || next?.word == "Protocol" { return true }
        }
        return false
    }

    /// With the cursor on the `[` of `[Element]` or `[Key: Value]`: skips it, and returns `Array` or
    /// `Dictionary`.
    mutating func sugaredCollectionName() -> String {
        var depth = 0
        var isDictionary = false
        while let current = token() {
            index += 1
            if current.isPunct("[") || current.isPunct("(") { depth += 1 }
            if current.isPunct("]") || current.isPunct(")") { depth -= 1 }
            if depth == 1, current.isPunct(":") { isDictionary = true }
            if depth == 0 || current.isPunct("{") { break }
        }
        return isDictionary ? "Dictionary" : "Array"
    }

    /// Skips `where A: B, C == D` after a typealias: up to the end of its last line, where no `,`, `:`, `==`,
    /// `&` or `.` carries it over.
    mutating func skipTypealiasWhereClause() {
        index += 1  // where
        while let current = token() {
            if case .directive = current.kind { return }
            if current.isPunct("{") || current.isPunct("}") || current.isPunct(";") { return }
            let previous = tokens[index - 1]
            if current.line != previous.line {
                let continues =
                    previous.word == "where" || previous.isPunct(",") || previous.isPunct(":")
                    || previous.isPunct("=") || previous.isPunct("&") || previous.isPunct(".")
                    || current.isPunct("&") || current.isPunct(".") || current.isPunct("=")
                if !continues { return }
            }
            index += 1
        }
    }
}
