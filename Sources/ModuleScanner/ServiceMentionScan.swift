/// A service a type provides (`services.singleton(X.self) …`, `services.scoped(X.self) …`,
/// `services.transient(X.self) …`) or requires (`ServiceRequirements(X.self, …)`), as written in its body or
/// its extensions' bodies.
struct ServiceMention: Sendable, Hashable {
    enum Role: String, Sendable, Hashable {
        case provides
        case requires
    }

    /// The enclosing type's name, qualified by its enclosing types (`Outer.Inner`).
    var type: String
    /// The service as written, without `any` and parentheses: `DatabaseClient`, `Storage.Client`.
    var service: String
    var role: Role
    var file: String
    var line: Int
    /// Whether it was written as an existential, `(any DatabaseClient).self`: a protocol.
    var isExistential = false

    /// The service's metatype as Swift code spells it: `(any DatabaseClient).self` for a protocol written
    /// with `any` (as `ExistentialAny` requires), `Storage.Client.self` otherwise.
    var metatype: String { isExistential ? "(any \(service)).self" : "\(service).self" }
}

/// Reads what each type provides and requires from the token stream: enough for build warnings about
/// a required service nobody provides, or a service two modules provide. It reads only the literal forms
/// above; a service named through a variable or built in a helper is not seen, so its absence proves
/// nothing and the scan only ever warns. The host checks every case when it is built.
enum ServiceMentionScan {
    static func scan(_ tokens: [Token], file: String) -> [ServiceMention] {
        var mentions: [ServiceMention] = []
        var bodies = TypeBodyTracker()
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if let word = token.word {
                let previousIsDot = index > 0 && tokens[index - 1].isPunct(".")
                if word == "singleton" || word == "scoped" || word == "transient", previousIsDot,
                    index + 1 < tokens.count, tokens[index + 1].isPunct("(")
                {
                    if let type = bodies.currentType, let (service, _, existential) = metatype(tokens, from: index + 2)
                    {
                        mentions.append(
                            ServiceMention(
                                type: type,
                                service: service,
                                role: .provides,
                                file: file,
                                line: token.line,
                                isExistential: existential
                            )
                        )
                    }
                } else if word == "ServiceRequirements", index + 1 < tokens.count, tokens[index + 1].isPunct("(") {
                    var position = index + 2
                    while let type = bodies.currentType,
                        let (service, end, existential) = metatype(tokens, from: position)
                    {
                        mentions.append(
                            ServiceMention(
                                type: type,
                                service: service,
                                role: .requires,
                                file: file,
                                line: token.line,
                                isExistential: existential
                            )
                        )
                        guard end < tokens.count, tokens[end].isPunct(",") else { break }
                        position = end + 1
                    }
                }
            }
            bodies.observe(tokens, at: index)
            index += 1
        }
        return mentions
    }

    /// `X.self`, `(any X).self` or `A.B.self` from `start`: the type's name, the index after `self`, and
    /// whether it was written with `any`; or nil for anything else.
    static func metatype(_ tokens: [Token], from start: Int) -> (String, Int, Bool)? {
        var index = start
        var parts: [String] = []
        var existential = false
        var open = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunct("(") {
                open += 1
            } else if token.isPunct(")") {
                guard open > 0 else { return nil }
                open -= 1
            } else if let word = token.word {
                if word == "self", open == 0, !parts.isEmpty {
                    return (parts.joined(separator: "."), index + 1, existential)
                }
                if word == "any" { existential = true } else { parts.append(word) }
            } else if !token.isPunct(".") {
                return nil
            }
            index += 1
        }
        return nil
    }
}
