import Foundation

/// The package's own files, read from the checkout the tests were built from.
enum PackageFiles {
    /// The package's root directory.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of the file at `path`, relative to the root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The paths of the Swift files under `folder` (relative to the root), sorted.
    static func swiftFiles(under folder: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let paths = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return paths.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }.sorted()
    }

    /// The first line at which `actual` differs from `expected`, for a message a person can act on.
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let wanted = index < expectedLines.count ? String(expectedLines[index]) : "(end of file)"
            let found = index < actualLines.count ? String(actualLines[index]) : "(end of file)"
            if wanted != found { return "line \(index + 1): expected `\(wanted)`, found `\(found)`" }
        }
        return "no difference"
    }
}
