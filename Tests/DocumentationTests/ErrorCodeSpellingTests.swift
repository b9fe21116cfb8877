import Foundation
import Testing

/// One spelling for error codes everywhere: a code is a member of its error's `Code` type, so the docs write
/// `ManifestError.Code.invalidRoute` (or the code alone, `invalidRoute`, where the error is named nearby),
/// never `ManifestError.invalidRoute`, which names no API. The codes are read from the sources, so a code
/// added tomorrow is checked without editing this test.
@Suite("Error code spelling")
struct ErrorCodeSpellingTests {
    /// Each public error type with a public nested `Code`, and that type's codes: its `static let`s for a
    /// struct, its `case`s for an enum. Read from every Swift file under Sources/.
    static func errorCodes() throws -> [String: Set<String>] {
        let base = SnippetTests.root.appendingPathComponent("Sources")
        let paths = try #require(FileManager.default.enumerator(atPath: base.path))
        var codes: [String: Set<String>] = [:]
        for case let path as String in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
            for (owner, names) in Self.codes(in: text) { codes[owner, default: []].formUnion(names) }
        }
        return codes
    }

    /// The codes declared in `text`: for each `public struct Code` or `public enum Code` nested directly in a
    /// public type, the owner's name and the code names declared directly in `Code`'s body.
    static func codes(in text: String) -> [String: Set<String>] {
        let declaration = try! NSRegularExpression(
            pattern: #"^\s*((?:public|package|internal|private|fileprivate|final|indirect)\s+)*"#
                + #"(struct|enum|class|actor|extension)\s+([A-Za-z_][A-Za-z0-9_]*)"#
        )
        let member = try! NSRegularExpression(pattern: #"^\s*public\s+static\s+let\s+([A-Za-z_][A-Za-z0-9_]*)\b"#)
        let enumCase = try! NSRegularExpression(pattern: #"^\s*case\s+([A-Za-z_][A-Za-z0-9_, ]*)"#)
        // The open types, innermost last: name, whether public, whether an enum, the depth of their body.
        var stack: [(name: String, isPublic: Bool, isEnum: Bool, depth: Int)] = []
        var depth = 0
        var found: [String: Set<String>] = [:]
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = codeOnly(String(rawLine))
            let range = NSRange(line.startIndex..., in: line)
            if let match = declaration.firstMatch(in: line, range: range), line.contains("{") {
                let kind = String(line[Range(match.range(at: 2), in: line)!])
                let name = String(line[Range(match.range(at: 3), in: line)!])
                let isPublic = line.contains("public ") || kind == "extension"
                stack.append((name, isPublic, kind == "enum", depth + 1))
            } else if let code = stack.last, code.name == "Code", code.isPublic, depth == code.depth,
                stack.count >= 2, stack[stack.count - 2].isPublic
            {
                let owner = stack[stack.count - 2].name
                if let match = member.firstMatch(in: line, range: range) {
                    found[owner, default: []].insert(String(line[Range(match.range(at: 1), in: line)!]))
                } else if code.isEnum, let match = enumCase.firstMatch(in: line, range: range) {
                    let names = line[Range(match.range(at: 1), in: line)!].split(separator: ",")
                    for name in names { found[owner, default: []].insert(name.trimmingCharacters(in: .whitespaces)) }
                }
            }
            for character in line {
                if character == "{" {
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                    while let last = stack.last, last.depth > depth { stack.removeLast() }
                }
            }
        }
        return found
    }

    /// `line` without its comment and the contents of its string literals, so braces in them do not count.
    static func codeOnly(_ line: String) -> String {
        var result = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if !inString, character == "/", previous == "/" {
                result.removeLast()
                break
            }
            if character == "\"" { inString.toggle() }
            if !inString || character == "\"" { result.append(character) }
            previous = character
        }
        return result
    }

    /// The user-facing text: README.md, Docs/*.md, the DocC articles, the Examples' Markdown, and the doc
    /// comments (`///`) of every Swift file under Sources/.
    static func documentation() throws -> [(file: String, text: String)] {
        var texts: [(String, String)] = []
        for file in try DocumentationFiles.markdown() {
            texts.append((file.path, try String(contentsOf: file, encoding: .utf8)))
        }
        let base = SnippetTests.root.appendingPathComponent("Sources")
        let paths = try #require(FileManager.default.enumerator(atPath: base.path))
        for case let path as String in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
            let comments = text.split(separator: "\n").filter {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("///")
            }
            texts.append(("Sources/" + path, comments.joined(separator: "\n")))
        }
        return texts
    }

    /// Where `text` names a code of `owner` without `Code`: `Owner.code` or the DocC link `Owner/code`.
    static func misspellings(in text: String, owner: String, codes: Set<String>) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\b"# + owner + #"[./]([A-Za-z_][A-Za-z0-9_]*)\b"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            let name = String(text[Range(match.range(at: 1), in: text)!])
            return codes.contains(name) ? String(text[Range(match.range, in: text)!]) : nil
        }
    }

    @Test("The codes are read from the sources: every error type with a Code, and its cases")
    func codesAreFound() throws {
        let codes = try Self.errorCodes()
        for owner in ["ManifestError", "LifecycleError", "MessageError", "RouteError", "ScopeError", "ServiceError"] {
            #expect(codes[owner]?.isEmpty == false, "no codes found for \(owner)")
        }
        #expect(codes["ManifestError"]?.isSuperset(of: ["invalidRoute", "duplicateRoute"]) == true)
        #expect(codes["LaunchBudgetError"]?.contains("journalOff") == true)  // an enum Code's cases
        #expect(codes["RouteError"]?.contains("loopLimit") == true)
        #expect(codes["RouteError"]?.contains("noRouter") == true)
        // Not a code: `Code`'s private storage, and a private `Code` elsewhere.
        #expect(codes["RouteError"]?.contains("base") == false)
        #expect(codes["InterceptorDecision"] == nil)
    }

    @Test("The check finds `Error.code` and `Error/code`, and lets `Error.Code.code` and other members be")
    func checkFindsMisspellings() {
        let codes: Set<String> = ["invalidRoute", "duplicateRoute"]
        let text = """
            `ManifestError.invalidRoute`, ``ManifestError/duplicateRoute``, `ManifestError.Code.invalidRoute`,
            ``ManifestError/Code/duplicateRoute``, `ManifestError.modules`, `MyManifestError.invalidRoute`
            """
        #expect(
            Self.misspellings(in: text, owner: "ManifestError", codes: codes) == [
                "ManifestError.invalidRoute", "ManifestError/duplicateRoute",
            ]
        )
    }

    @Test("No doc spells an error code without its Code type")
    func oneSpelling() throws {
        let codes = try Self.errorCodes()
        var found: [String] = []
        for (file, text) in try Self.documentation() {
            for (owner, names) in codes {
                found += Self.misspellings(in: text, owner: owner, codes: names).map { "\(file): \($0)" }
            }
        }
        #expect(found.isEmpty, "write `SomeError.Code.someCase` (or ``SomeError/Code/someCase``): \(found)")
    }
}
