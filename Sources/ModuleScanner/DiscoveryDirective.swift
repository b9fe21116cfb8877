/// `// module-discovery: ignore`, the comment that keeps one declaration out of discovery: written on the
/// line directly before it, or among the comments and attributes directly before it, it makes the type
/// no conformer for the scanner. A test target's bad-input fixtures (a second provider, a dependency cycle,
/// a clashing route) use it, so the target's generated manifest, and the build's checks over it, do not
/// include them; the scan reports each one it skips as a note, so skipping is never silent
/// (Docs/Discovery.md, "Keeping a type out of discovery").
///
/// Only the discovery reads it: the declarations themselves are scanned as before (the differential check
/// against swift-syntax in `Validation/` compares them, not what discovery makes of them).
enum DiscoveryDirective {
    /// The comment, as written on its own line.
    static let ignore = "// module-discovery: ignore"

    /// The lines (from 1) of the declarations that `text` keeps out of discovery: for each line that is
    /// exactly ``ignore`` (spaces around it aside), the first line after it that is neither a comment nor an
    /// attribute. A blank line in between ends the search: the comment must sit directly above.
    static func ignoredLines(in text: String) -> Set<Int> {
        guard text.contains(ignore) else { return [] }
        let blank: Set<Character> = [" ", "\t", "\r"]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.drop { blank.contains($0) }.reversed().drop { blank.contains($0) }.reversed())
        }
        var ignored: Set<Int> = []
        for (index, line) in lines.enumerated() where line == ignore {
            var next = index + 1
            while next < lines.count, isCommentOrAttribute(lines[next]) { next += 1 }
            if next < lines.count, !lines[next].isEmpty { ignored.insert(next + 1) }
        }
        return ignored
    }

    /// A line of comment (`//`, `///`, `/* … */`) or an attribute (`@MainActor`, `@available(…)`).
    private static func isCommentOrAttribute(_ line: String) -> Bool {
        line.hasPrefix("//") || line.hasPrefix("/*") || line.hasPrefix("*") || line.hasPrefix("@")
    }
}
