/// The grammar of route patterns, in one place: the router parses patterns with it when a host is built,
/// and the discovery plugin with it at build time, so both accept and refuse the same patterns with the
/// same words. Toolchain only, no Foundation.
///
/// ```
/// pattern   = [scheme "://"] segment *("/" segment) ["/"]     ; with a scheme: "app://reports/:day"
///           / "/" [segment *("/" segment) ["/"]]              ; without: "/users/:id", "/" for the root
/// scheme    = ALPHA *(ALPHA / DIGIT / "+" / "-" / ".")         ; compared without case
/// segment   = ":" name                                         ; one segment, captured as `name`
///           / "*"                                              ; one segment, any text
///           / "**"                                             ; the rest, zero or more segments; last only
///           / literal                                          ; exactly this text
/// name      = (ALPHA / "_") *(ALPHA / DIGIT / "_")
/// literal   = 1*(unreserved / sub-delims / ":" / "@" / pct-encoded), not starting with ":", without "*";
///             decoded, not "." or "..", nor with a "/" next to nothing, "." or ".." (no input has one)
/// ```
package struct RoutePatternSyntax: Hashable, Sendable {
    /// One segment of a pattern.
    package enum Segment: Hashable, Sendable {
        /// Exactly this text, percent-decoded.
        case literal(String)
        /// Any one non-empty segment, captured under this name.
        case parameter(String)
        /// Any one non-empty segment, not captured.
        case wildcard
        /// The remaining segments, zero or more, captured as one text.
        case catchAll
    }

    /// The scheme, lowercased, or `nil` for a pattern that matches whatever the scheme.
    package let scheme: String?
    /// The segments after the scheme (its host first) or after the leading `/`.
    package let segments: [Segment]

    /// The names of the parameters, in pattern order.
    package var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The pattern's shape: the same for two patterns that match exactly the same inputs, whatever their
    /// parameters are called. `/users/:id` and `/users/:name` have one shape.
    package var shape: String {
        (scheme.map { "\($0)://" } ?? "/")
            + segments.map { segment in
                switch segment {
                // Escaped, so a literal `a/b` (written `a%2Fb`), `:x` or `*` never reads as the other forms.
                case .literal(let text): escapedForShape(text)
                case .parameter: ":"
                case .wildcard: "*"
                case .catchAll: "**"
                }
            }
            .joined(separator: "/")
    }

    /// `text` with the characters that mean something in a shape escaped: `%`, `/`, `:` and `*`.
    private func escapedForShape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "%": escaped += "%25"
            case "/": escaped += "%2F"
            case ":": escaped += "%3A"
            case "*": escaped += "%2A"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Why a text is not a pattern. Every message says what to write instead.
    package struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        package let pattern: String
        /// What is wrong and how to fix it, without the pattern.
        package let reason: String

        package var description: String { "route pattern \"\(pattern)\" \(reason)" }
    }

    /// Parses `text`, or says why it cannot match anything.
    package static func parse(_ text: String) -> Result<RoutePatternSyntax, Problem> {
        func problem(_ reason: String) -> Result<RoutePatternSyntax, Problem> {
            .failure(Problem(pattern: text, reason: reason))
        }
        guard !text.isEmpty else { return problem("is empty: write `/` for the root, or a path such as `/users/:id`") }
        if let character = text.unicodeScalars.first(where: { $0 == "?" || $0 == "#" }) {
            return problem(
                "contains `\(character)`: a pattern matches the path only; read query items from the route's "
                    + "parameters instead"
            )
        }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return problem("contains white space or a control character: percent-encode it (`%20`)")
        }
        var scheme: String?
        var rest = Substring(text)
        if let separator = schemeSeparator(in: text) {
            let name = text[..<separator.lowerBound]
            guard isScheme(name) else {
                return problem(
                    "has an invalid scheme `\(name)`: a scheme is a letter followed by letters, digits, `+`, `-` "
                        + "or `.`, as in `app://`"
                )
            }
            scheme = name.lowercased()
            rest = text[separator.upperBound...]
            guard !rest.isEmpty, rest.first != "/" else {
                return problem("has nothing after `\(name)://`: name the host, as in `\(name)://reports/:day`")
            }
        } else {
            guard rest.first == "/" else {
                return problem(
                    "does not start with `/` or a scheme: write `/\(rest)` to match a path, or `app://\(rest)` for a "
                        + "scheme"
                )
            }
            rest = rest.dropFirst()
        }
        if rest.last == "/" { rest = rest.dropLast() }
        var segments: [Segment] = []
        var names: Set<String> = []
        let parts = rest.isEmpty ? [] : rest.split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if part.isEmpty {
                return problem("has an empty segment (`//`): an input never has one; remove the extra `/`")
            }
            if part == "**" {
                guard index == parts.count - 1 else {
                    return problem(
                        "has `**` before its last segment: `**` takes every remaining segment, so nothing after it "
                            + "can match; put `**` last"
                    )
                }
                segments.append(.catchAll)
            } else if part == "*" {
                segments.append(.wildcard)
            } else if part.first == ":" {
                let name = String(part.dropFirst())
                guard isName(name) else {
                    return problem(
                        name.isEmpty
                            ? "has a parameter without a name (`:`): name it, as in `:id`"
                            : "has an invalid parameter name `\(name)`: use letters, digits and `_`, starting with a "
                                + "letter or `_`"
                    )
                }
                guard names.insert(name).inserted else {
                    return problem("captures `\(name)` twice: give each parameter its own name")
                }
                segments.append(.parameter(name))
            } else {
                if part.contains("*") {
                    return problem(
                        "has `*` inside the segment `\(part)`: `*` and `**` stand alone between slashes; "
                            + "a segment is a literal, `:name`, `*` or `**`"
                    )
                }
                guard let literal = decodeLiteral(part) else {
                    return problem(
                        "has the segment `\(part)` with a character a path cannot contain, or a `%` not followed by "
                            + "two hexadecimal digits: percent-encode it"
                    )
                }
                if let refusal = refusedInput(decoded: literal) {
                    return problem(
                        "has the segment `\(part)`, which no input can have: the router refuses "
                            + (refusal == .dotSegment
                                ? "`.` and `..` segments" : "an encoded `/` next to nothing, `.` or `..`")
                            + " in a path; remove it"
                    )
                }
                // The host, right after the scheme, compares without case, as URLs define it.
                segments.append(.literal(scheme != nil && index == 0 ? literal.lowercased() : literal))
            }
        }
        return .success(RoutePatternSyntax(scheme: scheme, segments: segments))
    }

    /// Where `://` first occurs in `text`, if it does.
    private static func schemeSeparator(in text: String) -> Range<String.Index>? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("://") { return index..<text.index(index, offsetBy: 3) }
            index = text.index(after: index)
        }
        return nil
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, isLetter(first) else { return false }
        return text.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "+" || $0 == "-" || $0 == "." }
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "_" }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// The characters RFC 3986 allows in a path segment besides percent escapes.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()+,;=:@".utf8.contains(byte)
        }
    }

    /// `part` percent-decoded, or `nil` if it has a character a path segment cannot have, or a bad escape.
    /// Non-ASCII text is accepted as written (an IRI), since inputs are decoded before they are compared.
    private static func decodeLiteral(_ part: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else if byte >= 0x80 || isPathCharacter(byte) {
                bytes.append(byte)
            } else {
                return nil
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Why an input segment could name another place than it reads as, once decoded.
    package enum SegmentRefusal: Sendable {
        /// `.` or `..`.
        case dotSegment
        /// A `/` (it was encoded) next to nothing, `.` or `..`: `../etc`, `/etc`, `a//b`.
        case encodedSlash
    }

    /// Whether the router refuses an input segment that decodes to `segment`, and why: `.` or `..`; or,
    /// when it holds a `/` (which the input encoded), a piece between its slashes that is empty, `.` or
    /// `..`. Patterns with such a literal cannot match, so they are refused too.
    package static func refusedInput(decoded segment: String) -> SegmentRefusal? {
        var pieces = 0
        var refused = false
        var length = 0
        var dots = 0
        for byte in segment.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || (dots == length && length <= 2) { refused = true }
                pieces += 1
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        if length == 0 || (dots == length && length <= 2) { refused = true }
        guard refused else { return nil }
        return pieces == 0 ? .dotSegment : .encodedSlash
    }

    /// The value of one hexadecimal digit.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
