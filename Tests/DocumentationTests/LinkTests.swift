import Foundation
import Testing

/// No user-facing doc points outside the repository except to public URLs: every Markdown link is an
/// `http(s)` or `mailto` URL, or a relative path to a file of the repository (and, for a Markdown file, an
/// anchor that one of its headings makes); and a file path written in code from the doc's folder
/// (`../notes/seeds.md`) names a file of the repository too.
@Suite("Documentation links")
struct LinkTests {
    /// The targets of the inline links and images of `markdown` (`[text](target "title")`), outside code
    /// blocks and code spans.
    static func links(in markdown: String) -> [String] {
        let link = try! NSRegularExpression(pattern: #"\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)"#)
        var targets: [String] = []
        for line in prose(of: markdown) {
            let text = withoutCodeSpans(line)
            for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                targets.append(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return targets
    }

    /// The lines of `markdown` outside fenced code blocks.
    static func prose(of markdown: String) -> [String] {
        var inFence = false
        var lines: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
            } else if !inFence {
                lines.append(String(line))
            }
        }
        return lines
    }

    /// `line` without its code spans.
    static func withoutCodeSpans(_ line: String) -> String {
        line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined(separator: " ")
    }

    /// The paths of files starting with `../` in the code spans and code blocks of `markdown`: the last
    /// component has an extension (`../shared/notes.md`), so a package's relative path (`../..`) is not one.
    static func codePaths(in markdown: String) -> [String] {
        let path = try! NSRegularExpression(pattern: #"(?:^|[\s(`'"])((?:\.\./)+[^\s`'")]+)"#)
        return path.matches(in: markdown, range: NSRange(markdown.startIndex..., in: markdown)).map {
            String(markdown[Range($0.range(at: 1), in: markdown)!].prefix { $0 != "#" })
        }
        .filter { path in
            let last = path.split(separator: "/").last ?? ""
            return last != ".." && last.dropFirst().contains(".")
        }
    }

    /// The anchors GitHub makes for the headings of `markdown`: lower case, punctuation dropped, spaces as
    /// hyphens, and `-1`, `-2`… for repeats.
    static func anchors(in markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in prose(of: markdown) where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = String(
                title.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                    if scalar == " " { return "-" }
                    if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) {
                        return Character(scalar)
                    }
                    return nil
                }
            )
            let count = seen[slug, default: 0]
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
            seen[slug] = count + 1
        }
        return anchors
    }

    /// What is wrong with the link `target` in `file`, or `nil` when it is fine.
    static func problem(with target: String, in file: URL) throws -> String? {
        let lowered = target.lowercased()
        if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") || lowered.hasPrefix("mailto:") {
            return nil
        }
        if target.contains(":") { return "\(target): neither a public URL nor a path in the repository" }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let anchor = parts.count > 1 ? String(parts[1]) : nil
        let destination =
            path.isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
        let root = SnippetTests.root.standardizedFileURL.path
        guard destination.path.hasPrefix(root + "/") else { return "\(target): outside the repository" }
        guard FileManager.default.fileExists(atPath: destination.path) else { return "\(target): no such file" }
        if let anchor, destination.pathExtension == "md" {
            let text = try String(contentsOf: destination, encoding: .utf8)
            guard anchors(in: text).contains(anchor) else { return "\(target): no heading makes #\(anchor)" }
        }
        return nil
    }

    @Test("The parser finds links outside code, and the anchors of headings")
    func parser() {
        let markdown = """
            # A title: with punctuation (2026-11-25)
            See [Routing](Routing.md#errors), ![chart](chart.svg "Chart") and `[not](a-link.md)`.
            ## A title: with punctuation (2026-11-25)
            ```swift
            let x = [1](2)
            ```
            """
        #expect(Self.links(in: markdown) == ["Routing.md#errors", "chart.svg"])
        #expect(
            Self.anchors(in: markdown) == [
                "a-title-with-punctuation-2026-11-25", "a-title-with-punctuation-2026-11-25-1",
            ]
        )
        #expect(Self.codePaths(in: "the seed (`../shared/notes.md`)") == ["../shared/notes.md"])
        #expect(Self.codePaths(in: "the package at `../..`").isEmpty)
    }

    @Test("The check refuses a link outside the repository, to no file, or to no heading")
    func refusals() throws {
        let file = SnippetTests.root.appendingPathComponent("Docs/Routing.md")
        #expect(try Self.problem(with: "https://swift.org", in: file) == nil)
        #expect(try Self.problem(with: "Scopes.md#failures", in: file) == nil)
        #expect(try Self.problem(with: "../README.md", in: file) == nil)
        #expect(try Self.problem(with: "#errors", in: file) == nil)
        #expect(try Self.problem(with: "../../shared/notes/seed-systems.md", in: file)?.contains("outside") == true)
        #expect(try Self.problem(with: "Nowhere.md", in: file)?.contains("no such file") == true)
        #expect(try Self.problem(with: "Scopes.md#nowhere", in: file)?.contains("no heading") == true)
        #expect(try Self.problem(with: "file:///etc/passwd", in: file) != nil)
    }

    @Test("Every link in the user-facing docs is a public URL or a file of the repository")
    func everyLinkResolves() throws {
        var problems: [String] = []
        var checked = 0
        let root = SnippetTests.root.path + "/"
        for file in try DocumentationFiles.markdown() {
            let markdown = try String(contentsOf: file, encoding: .utf8)
            let name = file.path.replacingOccurrences(of: root, with: "")
            for target in Self.links(in: markdown) {
                checked += 1
                if let problem = try Self.problem(with: target, in: file) { problems.append("\(name): \(problem)") }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(checked > 100, "the docs have well over 100 links; found \(checked)")
    }

    @Test("Every file path written with ../ in the user-facing docs is a file of the repository")
    func noPathLeavesTheRepository() throws {
        var problems: [String] = []
        let root = SnippetTests.root.standardizedFileURL.path + "/"
        for file in try DocumentationFiles.markdown() {
            let markdown = try String(contentsOf: file, encoding: .utf8)
            for path in Self.codePaths(in: markdown) {
                let destination = file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                if !destination.path.hasPrefix(root) || !FileManager.default.fileExists(atPath: destination.path) {
                    problems.append("\(file.path.replacingOccurrences(of: root, with: "")): \(path)")
                }
            }
        }
        #expect(problems.isEmpty, "these paths name no file of the repository: \(problems)")
    }
}
