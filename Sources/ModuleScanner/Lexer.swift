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
        /// A string or regex literal, already skipped, kept as a placeholder so `=` "…" does not glue tokens.
        /// Holds the string's value when it is a single-line string without interpolation (plain or raw),
        /// `nil` otherwise.
        case literal(String?)
    }

    enum Directive: Equatable {
        case `if`
        case elseif
        case `else`
        case endif
    }

    let kind: Kind
    let line: Int
    /// Whether the word was written in backticks (`` `extension` ``): a name, never a keyword.
    var isEscaped = false

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
            } else if scalar == "#", peek(1) == "/" {
                skipExtendedRegex()
                tokens.append(Token(kind: .literal(nil), line: line))
            } else if scalar == "/", bareRegexAhead() {
                skipBareRegex()
                tokens.append(Token(kind: .literal(nil), line: line))
            } else if scalar == "\"" || (scalar == "#" && rawStringAhead()) {
                let start = line
                let value = skipString()
                tokens.append(Token(kind: .literal(value), line: start))
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

    /// Letters, `_`, `$`, and emoji beyond ASCII (`struct 🏃`), which Swift allows in identifiers too.
    /// Most source is ASCII, so ASCII is answered without looking up Unicode properties.
    private func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return Self.isASCIILetter(scalar.value) || scalar == "_" || scalar == "$" }
        return scalar.properties.isXIDStart || isEmojiBeyondASCII(scalar)
    }

    private func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return Self.isASCIILetter(scalar.value) || (0x30...0x39).contains(scalar.value) || scalar == "_"
                || scalar == "$"
        }
        return scalar.properties.isXIDContinue || isEmojiBeyondASCII(scalar)
    }

    private static func isASCIILetter(_ value: UInt32) -> Bool {
        (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
    }

    private func isEmojiBeyondASCII(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x7F && (scalar.properties.isEmoji || scalar.properties.isEmojiModifier)
            && !scalar.properties.isPatternSyntax
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
        tokens.append(Token(kind: .word(word), line: line, isEscaped: true))
    }

    /// Skips a number; also a lone numeric character that continues no identifier (`½`, `²`), which must not
    /// stall the lexer.
    private mutating func skipNumber() {
        advance()
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

    // MARK: Regex literals

    /// `#/…/#`: everything up to the closing `/#`, across lines.
    private mutating func skipExtendedRegex() {
        advance()  // #
        advance()  // /
        while let scalar = peek() {
            if scalar == "\\" {
                advance()
                if peek() != nil { advance() }
                continue
            }
            if scalar == "/", peek(1) == "#" {
                advance()
                advance()
                return
            }
            advance()
        }
    }

    /// Whether `/` at the cursor opens a bare regex literal (`/\{/`): it follows something that starts an
    /// expression, is not followed by white space, and closes on the same line. Division (`a / b`) and
    /// operators keep their spaces or follow an operand.
    private func bareRegexAhead() -> Bool {
        guard let next = peek(1), !next.properties.isWhitespace, next != "/", next != "*", next != "=" else {
            return false
        }
        if let last = tokens.last {
            switch last.kind {
            case .punct(let character) where "(,=:[{;!&|?".contains(character): break
            case .word(let word) where ["return", "case", "in", "where", "throw", "try", "await"].contains(word): break
            default: return false
            }
        }
        // As Swift's lexer: a closing `/` after white space closes nothing (`/a .. /b` are prefix operators), and
        // a literal would never hold an unbalanced `)` (`{ /Case.a ~= $0 }).map(/Case.a)`).
        var offset = 1
        var parentheses = 0
        while let scalar = peek(offset), scalar != "\n" {
            if scalar == "\\" {
                offset += 2
                continue
            }
            if scalar == "(" { parentheses += 1 }
            if scalar == ")" {
                parentheses -= 1
                if parentheses < 0 { return false }
            }
            if scalar == "/", let before = peek(offset - 1), !before.properties.isWhitespace { return true }
            offset += 1
        }
        return false
    }

    private mutating func skipBareRegex() {
        advance()  // /
        while let scalar = peek(), scalar != "\n" {
            if scalar == "\\" {
                advance()
                if peek() != nil, peek() != "\n" { advance() }
                continue
            }
            advance()
            if scalar == "/" { return }
        }
    }

    // MARK: Strings

    private func rawStringAhead() -> Bool {
        var offset = 0
        while peek(offset) == "#" { offset += 1 }
        return peek(offset) == "\""
    }

    /// Skips a string literal starting at the cursor: `"…"`, `"""…"""`, and raw forms with `#`s. Returns the
    /// string's value for a single-line literal without interpolation, escapes decoded; `nil` for any other.
    @discardableResult
    private mutating func skipString() -> String? {
        var hashes = 0
        while peek() == "#" {
            hashes += 1
            advance()
        }
        let multiline = multilineOpeningAhead()
        for _ in 0..<(multiline ? 3 : 1) { advance() }
        var value: String? = multiline ? nil : ""
        while let scalar = peek() {
            if scalar == "\\", escapeAhead(hashes: hashes) {
                advance()  // backslash
                for _ in 0..<hashes { advance() }
                if peek() == "(" {
                    value = nil
                    skipInterpolation()
                } else if let decoded = value {
                    value = decodeEscape().map { decoded + $0 }
                } else if peek() != nil {
                    advance()
                }
                continue
            }
            if scalar == "\"", closes(multiline: multiline, hashes: hashes) {
                for _ in 0..<((multiline ? 3 : 1) + hashes) { advance() }
                return value
            }
            if scalar == "\n", !multiline { return nil }  // unterminated: stop at the line end
            value?.unicodeScalars.append(scalar)
            advance()
        }
        return nil
    }

    /// Decodes the escape whose character (after the backslash and any `#`s) is at the cursor, advancing
    /// past it: `\n`, `\t`, `\r`, `\0`, `\\`, `\"`, `\'` and `\u{…}`; `nil` for anything else.
    private mutating func decodeEscape() -> String? {
        guard let scalar = peek() else { return nil }
        advance()
        switch scalar {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\0"
        case "\\", "\"", "'": return String(Character(scalar))
        case "u":
            guard peek() == "{" else { return nil }
            advance()
            var digits = ""
            while let digit = peek(), digit != "}", digit != "\n", digit != "\"" {
                digits.unicodeScalars.append(digit)
                advance()
            }
            guard peek() == "}" else { return nil }
            advance()
            return UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        default:
            return nil
        }
    }

    /// Whether `"""` at the cursor opens a multi-line string: only white space may follow it on its line.
    /// `#"""#` is a raw string holding one quote.
    private func multilineOpeningAhead() -> Bool {
        guard peek() == "\"", peek(1) == "\"", peek(2) == "\"" else { return false }
        var offset = 3
        while let scalar = peek(offset), scalar != "\n" {
            guard scalar == " " || scalar == "\t" || scalar == "\r" else { return false }
            offset += 1
        }
        return true
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
        // ASCII, as most words are: the bytes are the scalars' values, written once.
        if scalars[start..<end].allSatisfy(\.isASCII) {
            return String(unsafeUninitializedCapacity: end - start) { buffer in
                for offset in 0..<(end - start) {
                    buffer[offset] = UInt8(truncatingIfNeeded: scalars[start + offset].value)
                }
                return end - start
            }
        }
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
