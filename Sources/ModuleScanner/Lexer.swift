/// One token of Swift source, as far as declaration scanning needs: identifiers and keywords, single
/// punctuation characters, and conditional-compilation directives. Comments, string literals and
/// whitespace never become tokens.
struct Token: Equatable {
    enum Kind: Equatable {
        /// An identifier or keyword, including backticked identifiers (without the backticks).
        case word(String)
        /// One punctuation character: `{ } ( ) [ ] < > : , . & = @ ~ ?` and so on.
        case punct(Character)
        /// `#if`, `#elseif`, `#else` or `#endif`, with the condition text for `#if` and `#elseif`.
        case directive(Directive, condition: String)
        /// A string literal, already skipped, kept as a placeholder so `=` "…" does not glue tokens.
        case literal
    }

    enum Directive: Equatable {
        case `if`
        case elseif
        case `else`
        case endif
    }

    let kind: Kind
    let line: Int

    var word: String? {
        if case .word(let word) = kind { return word }
        return nil
    }

    func isPunct(_ character: Character) -> Bool {
        if case .punct(character) = kind { return true }
        return false
    }
}

/// Splits Swift source into ``Token``s, skipping comments (nested block comments included), string
/// literals (single-line, multi-line and raw, with interpolations) and numbers.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var atLineStart = true
    private(set) var tokens: [Token] = []

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    static func tokenize(_ text: String) -> [Token] {
        var lexer = Lexer(text)
        lexer.run()
        return lexer.tokens
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let position = index + offset
        return position < scalars.count ? scalars[position] : nil
    }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            atLineStart = true
        }
        index += 1
    }

    private mutating func run() {
        while let scalar = peek() {
            if scalar == "\n" {
                advance()
                continue
            }
            if scalar.properties.isWhitespace {
                advance()
                continue
            }
            let startsLine = atLineStart
            atLineStart = false
            if scalar == "/", peek(1) == "/" {
                skipLineComment()
            } else if scalar == "/", peek(1) == "*" {
                skipBlockComment()
            } else if scalar == "#", startsLine, let directive = directiveAhead() {
                lexDirective(directive)
            } else if scalar == "\"" || (scalar == "#" && rawStringAhead()) {
                let start = line
                skipString()
                tokens.append(Token(kind: .literal, line: start))
            } else if scalar == "`" {
                lexBacktickIdentifier()
            } else if isIdentifierStart(scalar) {
                lexWord()
            } else if scalar.properties.numericType != nil {
                skipNumber()
            } else {
                tokens.append(Token(kind: .punct(Character(scalar)), line: line))
                advance()
            }
        }
    }

    private func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "$" || scalar.properties.isXIDStart
    }

    private func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "$" || scalar.properties.isXIDContinue
    }

    private mutating func lexWord() {
        let start = index
        while let scalar = peek(), isIdentifierContinue(scalar) { advance() }
        tokens.append(Token(kind: .word(text(start, index)), line: line))
    }

    private mutating func lexBacktickIdentifier() {
        advance()  // `
        let start = index
        while let scalar = peek(), scalar != "`", scalar != "\n" { advance() }
        let word = text(start, index)
        if peek() == "`" { advance() }
        tokens.append(Token(kind: .word(word), line: line))
    }

    private mutating func skipNumber() {
        while let scalar = peek(),
            isIdentifierContinue(scalar) || scalar == "." && peek(1)?.properties.numericType != nil
        {
            advance()
        }
    }

    private mutating func skipLineComment() {
        while let scalar = peek(), scalar != "\n" { advance() }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        repeat {
            if peek() == "/", peek(1) == "*" {
                depth += 1
                advance()
                advance()
            } else if peek() == "*", peek(1) == "/" {
                depth -= 1
                advance()
                advance()
            } else if peek() != nil {
                advance()
            } else {
                return
            }
        } while depth > 0
    }

    // MARK: Directives

    private func directiveAhead() -> Token.Directive? {
        var offset = 1
        var word = ""
        while let scalar = peek(offset), isIdentifierContinue(scalar) {
            word.unicodeScalars.append(scalar)
            offset += 1
        }
        switch word {
        case "if": return .if
        case "elseif": return .elseif
        case "else": return .else
        case "endif": return .endif
        default: return nil
        }
    }

    private mutating func lexDirective(_ directive: Token.Directive) {
        let start = line
        advance()  // #
        while let scalar = peek(), isIdentifierContinue(scalar) { advance() }
        var condition = ""
        while let scalar = peek(), scalar != "\n" {
            if scalar == "/", peek(1) == "/" {
                skipLineComment()
                break
            }
            if scalar == "/", peek(1) == "*" {
                skipBlockComment()
                continue
            }
            condition.unicodeScalars.append(scalar)
            advance()
        }
        let trimmed = condition.trimmingWhitespace()
        tokens.append(Token(kind: .directive(directive, condition: trimmed), line: start))
    }

    // MARK: Strings

    private func rawStringAhead() -> Bool {
        var offset = 0
        while peek(offset) == "#" { offset += 1 }
        return peek(offset) == "\""
    }

    /// Skips a string literal starting at the cursor: `"…"`, `"""…"""`, and raw forms with `#`s.
    private mutating func skipString() {
        var hashes = 0
        while peek() == "#" {
            hashes += 1
            advance()
        }
        let multiline = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
        for _ in 0..<(multiline ? 3 : 1) { advance() }
        while let scalar = peek() {
            if scalar == "\\", escapeAhead(hashes: hashes) {
                advance()  // backslash
                for _ in 0..<hashes { advance() }
                if peek() == "(" {
                    skipInterpolation()
                } else if peek() != nil {
                    advance()
                }
                continue
            }
            if scalar == "\"", closes(multiline: multiline, hashes: hashes) {
                for _ in 0..<((multiline ? 3 : 1) + hashes) { advance() }
                return
            }
            if scalar == "\n", !multiline { return }  // unterminated: stop at the line end
            advance()
        }
    }

    private func escapeAhead(hashes: Int) -> Bool {
        for offset in 0..<hashes where peek(1 + offset) != "#" { return false }
        return true
    }

    private func closes(multiline: Bool, hashes: Int) -> Bool {
        let quotes = multiline ? 3 : 1
        for offset in 0..<quotes where peek(offset) != "\"" { return false }
        for offset in 0..<hashes where peek(quotes + offset) != "#" { return false }
        return true
    }

    /// Skips `( … )` of an interpolation, which may hold nested strings, comments and parentheses.
    private mutating func skipInterpolation() {
        var depth = 0
        while let scalar = peek() {
            if scalar == "\"" || (scalar == "#" && rawStringAhead()) {
                skipString()
                continue
            }
            if scalar == "/", peek(1) == "/" {
                skipLineComment()
                continue
            }
            if scalar == "/", peek(1) == "*" {
                skipBlockComment()
                continue
            }
            advance()
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
                depth -= 1
                if depth == 0 { return }
            }
        }
    }

    private func text(_ start: Int, _ end: Int) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[start..<end])
        return result
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
