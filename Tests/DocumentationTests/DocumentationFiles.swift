import Foundation

/// The user-facing Markdown the documentation checks read.
enum DocumentationFiles {
    /// README.md, Docs/*.md and the DocC articles (``SnippetTests/markdownFiles()``); the Markdown under
    /// Examples/; the top-level Markdown of each nested package under Integrations/ (not their `.build`); and
    /// CONTRIBUTING.md, SECURITY.md and CHANGELOG.md when they exist.
    static func markdown() throws -> [URL] {
        let root = SnippetTests.root
        let manager = FileManager.default
        var files = try SnippetTests.markdownFiles()
        if let paths = manager.enumerator(atPath: root.appendingPathComponent("Examples").path) {
            for case let path as String in paths where path.hasSuffix(".md") {
                files.append(root.appendingPathComponent("Examples").appendingPathComponent(path))
            }
        }
        let integrations = root.appendingPathComponent("Integrations")
        for package in (try? manager.contentsOfDirectory(atPath: integrations.path)) ?? [] {
            let folder = integrations.appendingPathComponent(package)
            for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".md") {
                files.append(folder.appendingPathComponent(name))
            }
        }
        for name in ["CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md"] {
            let file = root.appendingPathComponent(name)
            if manager.fileExists(atPath: file.path) { files.append(file) }
        }
        return files
    }
}
