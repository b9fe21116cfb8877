extension DeclarationParser {
    // Route patterns written as literals in type bodies (`static let pattern: RoutePattern? = "/a/:b"`), which
    // the plugin checks at build time (RoutePatternCheck).

    /// With the cursor on the `let` or `var` of `pattern`: the pattern, when it is initialised with a string
    /// literal, as `pattern: RoutePattern? = "…"`, `pattern: RoutePattern = "…"` or
    /// `pattern = RoutePattern("…")`, and nothing follows the initialiser.
    func patternLiteral() -> RoutePatternDeclaration? {
        var offset = 2  // `let`, `pattern`
        var annotated = false
        var optional = false
        if token(offset)?.isPunct(":") == true {
            // `RoutePattern`, `RoutePattern?`, `LifecycleRouting.RoutePattern?`, `Optional<RoutePattern>`.
            offset += 1
            var words: [String] = []
            while let current = token(offset), !current.isPunct("=") {
                if let word = current.word {
                    words.append(word)
                } else if !(current.isPunct("?") || current.isPunct("!") || current.isPunct(".")
                    || current.isPunct("<") || current.isPunct(">"))
                {
                    return nil
                }
                offset += 1
            }
            guard words.filter({ $0 != "Optional" && $0 != "LifecycleRouting" }) == ["RoutePattern"] else {
                return nil
            }
            annotated = true
            optional =
                words.contains("Optional")
                || (3..<offset).contains { token($0)?.isPunct("?") == true || token($0)?.isPunct("!") == true }
        }
        guard token(offset)?.isPunct("=") == true else { return nil }
        offset += 1
        let value: String?
        let line: Int
        if case .literal(let literal)? = token(offset)?.kind, annotated {
            (value, line) = (literal, token(offset)?.line ?? 0)
            offset += 1
        } else {
            // `RoutePattern("…")` or `LifecycleRouting.RoutePattern("…")`.
            if token(offset)?.word == "LifecycleRouting", token(offset + 1)?.isPunct(".") == true { offset += 2 }
            guard token(offset)?.word == "RoutePattern", token(offset + 1)?.isPunct("(") == true,
                case .literal(let literal)? = token(offset + 2)?.kind, token(offset + 3)?.isPunct(")") == true
            else { return nil }
            (value, line) = (literal, token(offset + 2)?.line ?? 0)
            offset += 4
        }
        guard let value, endsStatement(at: offset) else { return nil }
        return RoutePatternDeclaration(
            type: enclosingTypeScope().names.joined(separator: "."),
            pattern: value,
            isOptional: optional,
            conditions: frames.map(\.expression),
            file: file,
            line: line
        )
    }

    /// Whether the token `offset` ahead of the cursor begins something other than the continuation of an
    /// expression: the end of the file, `;`, `}`, a directive, or a word or attribute on a later line.
    private func endsStatement(at offset: Int) -> Bool {
        guard let next = token(offset) else { return true }
        if next.isPunct(";") || next.isPunct("}") { return true }
        if case .directive = next.kind { return true }
        guard let previous = token(offset - 1), next.line > previous.line else { return false }
        return next.word != nil || next.isPunct("@")
    }
}
