import Foundation
import Testing

/// The layout Docs/Architecture.md promises: one concept per file, and files short enough to read. The host
/// actor's own file is its public face and reads in one sitting.
@Suite("Source layout")
struct SourceLayoutTests {
    static let limit = 500
    static let hostFaceLimit = 400

    /// Every Swift file under Sources/, with its line count.
    static func sourceFiles() throws -> [(path: String, lines: Int)] {
        let base = SnippetTests.root.appendingPathComponent("Sources")
        let paths = try #require(FileManager.default.enumerator(atPath: base.path))
        var files: [(String, Int)] = []
        for case let path as String in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
            files.append(("Sources/" + path, text.split(separator: "\n", omittingEmptySubsequences: false).count - 1))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test("No file under Sources/ is longer than 500 lines")
    func noLongFiles() throws {
        let files = try Self.sourceFiles()
        #expect(files.count > 50)
        let long = files.filter { $0.lines > Self.limit }.map { "\($0.path): \($0.lines) lines" }
        #expect(long.isEmpty, "split these by concept: \(long)")
    }

    @Test("ApplicationHost.swift, the host's public face, is at most 400 lines")
    func hostFaceReadsInOneSitting() throws {
        let face = try #require(
            try Self.sourceFiles().first { $0.path == "Sources/LifecycleCore/Host/ApplicationHost.swift" }
        )
        #expect(face.lines <= Self.hostFaceLimit)
    }
}
