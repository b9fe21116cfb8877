import Foundation
import Testing

/// Keeps the documentation honest: every Swift code block in `README.md`, `Docs/*.md` and the DocC articles
/// must appear,
/// verbatim, between `// README: …` and `// README: end` markers in a compiled source file (the examples
/// and tests). Edit the compiled source first, then paste it into the documentation.
@Suite("Documentation snippets")
struct SnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md, Docs/*.md and the DocC catalogs' articles.
    static func markdownFiles() throws -> [URL] {
        var files = [root.appendingPathComponent("README.md")]
        for folder in ["Docs", "Sources"] {
            let base = root.appendingPathComponent(folder)
            guard let paths = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let path as String in paths where path.hasSuffix(".md") {
                files.append(base.appendingPathComponent(path))
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The ```swift blocks of a Markdown file.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The marked regions of every Swift file under Examples/, Tests/DocumentationTests/, Tests/Fixtures/
    /// (compiled by Scripts/test-discovery-fixture.sh), and the Sources/ and Tests/ of the nested packages
    /// Integrations/ServiceLifecycle, Integrations/ArgumentParser and Integrations/LifecycleVapor (compiled by
    /// Scripts/test-service-lifecycle.sh, Scripts/test-argument-parser.sh and Scripts/test-vapor.sh). Not the whole
    /// Integrations/ folder: a nested package's .build holds the checkouts of its dependencies.
    static func compiledSnippets() throws -> [String] {
        var regions: [String] = []
        let folders = [
            "Examples", "Tests/DocumentationTests", "Tests/Fixtures",
            "Integrations/ServiceLifecycle/Sources", "Integrations/ServiceLifecycle/Tests",
            "Integrations/ArgumentParser/Sources", "Integrations/ArgumentParser/Tests",
            "Integrations/LifecycleVapor/Sources", "Integrations/LifecycleVapor/Tests",
        ]
        for folder in folders {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let path as String in files where path.hasSuffix(".swift") {
                let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
                var current: [Substring]?
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed == "// README: end" {
                        if let current { regions.append(dedent(current)) }
                        current = nil
                    } else if trimmed.hasPrefix("// README:") {
                        current = []
                    } else {
                        current?.append(line)
                    }
                }
            }
        }
        return regions
    }

    /// Removes the indentation the lines share, so a region inside a function matches a top-level block.
    static func dedent(_ lines: [Substring]) -> String {
        let indents = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }
        let common = indents.min() ?? 0
        return lines.map { String($0.dropFirst(min(common, $0.prefix { $0 == " " }.count))) }
            .joined(separator: "\n")
    }

    @Test("Every Swift block in the documentation is compiled source")
    func everySnippetIsCompiled() throws {
        let regions = try Self.compiledSnippets()
        var checked = 0
        for file in try Self.markdownFiles() {
            let markdown = try String(contentsOf: file, encoding: .utf8)
            for block in Self.swiftBlocks(in: markdown) {
                #expect(
                    regions.contains { $0.contains(block) },
                    "\(file.lastPathComponent) has a Swift block no test compiles:\n\(block)"
                )
                checked += 1
            }
        }
        // A floor, so that a parser that finds no block fails: README (3), Docs/*.md (26, Hosting.md's 8 among
        // them) and the DocC articles (5).
        #expect(checked >= 34, "the documentation has at least 34 Swift blocks; found \(checked)")
    }
}
