/// A module another module's body names in its `dependencies`: `static let dependencies: [any
/// LifecycleModule.Type] = [DatabaseModule.self]`.
struct DependencyMention: Sendable, Hashable {
    /// The depending type's name, qualified by its enclosing types (`Outer.Inner`).
    var type: String
    /// The dependency as written: `DatabaseModule`, `Storage.DatabaseModule`.
    var dependency: String
    var file: String
    var line: Int
}

/// Reads the modules each type lists in `dependencies`, from the token stream: enough for build-time checks
/// of the dependency graph (`DependencyCheck`). It reads only a stored property initialised with an array
/// literal of `X.self`; a computed `dependencies`, or one built from a variable, is not seen, so the checks
/// built on it can find a cycle but never prove there is none. The proxy checks every case when it is built.
enum DependencyMentionScan {
    static func scan(_ tokens: [Token], file: String) -> [DependencyMention] {
        var mentions: [DependencyMention] = []
        var bodies = TypeBodyTracker()
        var index = 0
        while index < tokens.count {
            if tokens[index].word == "dependencies", index > 0,
                tokens[index - 1].word == "let" || tokens[index - 1].word == "var",
                let type = bodies.currentType, let open = arrayLiteral(tokens, after: index)
            {
                var position = open + 1
                while let (dependency, end, _) = ServiceMentionScan.metatype(tokens, from: position) {
                    mentions.append(
                        DependencyMention(type: type, dependency: dependency, file: file, line: tokens[position].line)
                    )
                    guard end < tokens.count, tokens[end].isPunct(",") else { break }
                    position = end + 1
                }
            }
            bodies.observe(tokens, at: index)
            index += 1
        }
        return mentions
    }

    /// The index of the `[` that opens the property's initial value, when the declaration at `name` is
    /// initialised with an array literal: past its type annotation (`: [any LifecycleModule.Type]`), an `=`,
    /// then `[`. Nil for a computed property (`{` first) or any other initialiser.
    private static func arrayLiteral(_ tokens: [Token], after name: Int) -> Int? {
        var index = name + 1
        var depth = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunct("[") || token.isPunct("(") || token.isPunct("<") {
                depth += 1
            } else if token.isPunct("]") || token.isPunct(")") || token.isPunct(">") {
                depth -= 1
                if depth < 0 { return nil }
            } else if depth == 0, token.isPunct("=") {
                return index + 1 < tokens.count && tokens[index + 1].isPunct("[") ? index + 1 : nil
            } else if depth == 0, endsDeclaration(token) {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// Whether `token`, outside brackets, shows the declaration has no initial value: a body, the end of a
    /// statement, or the next declaration.
    private static func endsDeclaration(_ token: Token) -> Bool {
        if token.isPunct("{") || token.isPunct("}") || token.isPunct(";") { return true }
        guard let word = token.word else { return false }
        return ["let", "var", "func", "static", "init", "case"].contains(word)
    }
}
