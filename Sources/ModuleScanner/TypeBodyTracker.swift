/// Which type's body a token stream is in, as a scan walks it: what the literal mentions a type's body
/// makes (the services it provides and requires, the modules it depends on) are attributed to.
///
/// It follows `struct`, `class`, `enum`, `actor` and `extension` headers to the brace that opens their body;
/// every other brace opens a body of no type. `extension Outer.Inner` names the body `Inner`, the way a
/// type's mentions are matched by its last name component.
struct TypeBodyTracker {
    /// One entry per open brace: the type whose body it opens, or nil for any other brace.
    private var braces: [String?] = []
    private var pendingType: String?

    /// The type whose body the last observed token is in, qualified by the types around it (`Outer.Inner`),
    /// or nil outside any type's body.
    var currentType: String? {
        let names = braces.compactMap { $0 }
        return names.isEmpty ? nil : names.joined(separator: ".")
    }

    /// Takes the token at `index` into account.
    mutating func observe(_ tokens: [Token], at index: Int) {
        let token = tokens[index]
        if let word = token.word {
            let previousIsDot = index > 0 && tokens[index - 1].isPunct(".")
            guard ["struct", "class", "enum", "actor", "extension"].contains(word), !previousIsDot,
                let name = index + 1 < tokens.count ? tokens[index + 1].word : nil,
                name.first?.isUppercase == true || word == "extension"  // not `class func`, `class var`
            else { return }
            // `extension Outer.Inner`: the last component names the body's type.
            var path = name
            var next = index + 2
            while next + 1 < tokens.count, tokens[next].isPunct("."), let part = tokens[next + 1].word {
                path = part
                next += 2
            }
            pendingType = word == "extension" ? path : name
        } else if token.isPunct("{") {
            braces.append(pendingType)
            pendingType = nil
        } else if token.isPunct("}") {
            if !braces.isEmpty { braces.removeLast() }
        } else if token.isPunct(";") || token.isPunct("=") {
            pendingType = nil
        }
    }
}
