import Foundation
import Testing

@testable import ModuleScanner

/// A small deterministic generator (SplitMix64), so a failing case can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Everything the plugin's scan does with one file's text: tokens, declarations, route patterns and
/// service mentions, then the conformer search over them. What a fuzz case must survive.
private func scanEverything(_ text: String, file: String = "Fuzz.swift") -> [DiscoveredModule] {
    let sources = ParsedSources([SourceFile(path: file, text: text)])
    return ModuleScan.scan(sources, modulePaths: [file], contextPaths: []).modules
}

/// The pieces fuzz inputs are made of: Swift's delimiters, the scanner's keywords, and the constructs
/// that switch the lexer into another mode (strings, raw strings, comments, regex literals, directives).
private let fragments: [String] = [
    "struct ", "class ", "enum ", "actor ", "protocol ", "extension ", "typealias ", "func ", "var ", "let ",
    "static ", "private ", "fileprivate ", "public ", "Module", "A", "B.C", "LifecycleModule", ": ", ", ", " = ",
    "{", "}", "(", ")", "[", "]", "<", ">", "\n", " ", "\"", "\"\"\"", "#\"", "\"#", "##\"", "\\(", "`", "`x`",
    "//", "/*", "*/", "/", "#/", "/#", "#if ", "#elseif ", "#else", "#endif", "os(Linux)", "!", "&&", "||",
    "where ", "some ", "any ", ".self", "@MainActor ", "#sourceLocation(", "0x1F", "1_000", "é", "🦆", "\t",
    ";", "?", "->", "in ", "case ", "default:", "\\", "'", "\r\n",
]

/// Serialized, and sized to about a second of CPU in a debug build: the tests are synchronous, so each
/// holds one of the cooperative pool's threads while it runs, and on two cores a heavier suite starved the
/// timing tests that run beside it. `scanner-bench` measures large inputs in a release build.
@Suite("Scanner: bad input", .serialized, .timeLimit(.minutes(2)))
struct ScannerFuzzTests {
    @Test("1,500 random token soups: the scan never crashes, and gives the same answer twice")
    func randomSoups() {
        var generator = SeededGenerator(seed: 0x5EED)
        for round in 0..<1_500 {
            let length = Int.random(in: 0...120, using: &generator)
            let text = (0..<length).map { _ in fragments.randomElement(using: &generator)! }.joined()
            let first = scanEverything(text)
            let second = scanEverything(text)
            #expect(first == second, "round \(round): \(text.debugDescription)")
        }
    }

    @Test("Every prefix of real source files: truncation anywhere never crashes the scan")
    func truncatedFiles() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ModuleScanner").standardizedFileURL
        // The scanner's own lexer and parser: strings, comments and directives of every kind.
        for name in ["Lexer.swift", "Declarations.swift"] {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            let scalars = Array(text.unicodeScalars)
            var cuts = 0
            // Every 151st cut: about 110 prefixes of each, which cut through every kind of token.
            for end in stride(from: 0, through: scalars.count, by: 151) {
                var prefix = String.UnicodeScalarView()
                prefix.append(contentsOf: scalars[..<end])
                _ = scanEverything(String(prefix))
                cuts += 1
            }
            #expect(cuts > 60, "\(name) is too short to fuzz")
        }
    }

    @Test("Unbalanced braces, quotes and comments are contained: a module after them is still found")
    func unbalanced() {
        let module = "\nstruct Found: LifecycleModule { static let priority: ModulePriority = .normal }\n"
        // Each opens something it never closes, then a complete module follows at top level. Where the
        // scanner cannot know the opener is stray (an unclosed string, comment or brace swallows the rest,
        // as it does for the compiler), it must still end, without finding garbage.
        let openers = [
            "{", "}", "}}}", "(", ")", "[", "]", "\"", "\"\"\"", "#\"", "/*", "`", "#if os(Linux)", "#endif",
            "#else", "<", ">",
        ]
        for opener in openers {
            let names = scanEverything(opener + module).map(\.name)
            #expect(names.allSatisfy { $0 == "Found" }, "\(opener.debugDescription): \(names)")
        }
        // Closers and stray directives that the lexer can skip leave the module visible.
        for closer in ["}", "}}}", ")", "]", "#endif", "#else", ">"] {
            #expect(scanEverything(closer + module).map(\.name) == ["Found"], "\(closer.debugDescription)")
        }
    }

    @Test("Types nested 1,000 deep and #if blocks nested 1,000 deep: no stack overflow, the innermost found")
    func deepNesting() {
        let depth = 1_000
        var types = ""
        for level in 0..<depth { types += "struct T\(level) {\n" }
        types += "struct Inner: LifecycleModule { static let priority: ModulePriority = .normal }\n"
        types += String(repeating: "}\n", count: depth)
        let nested = scanEverything(types)
        #expect(nested.count == 1)
        #expect(nested.first?.name.hasSuffix("T\(depth - 1).Inner") == true)
        #expect(nested.first?.name.split(separator: ".").count == depth + 1)

        var conditions = ""
        for level in 0..<depth { conditions += "#if FLAG\(level)\n" }
        conditions += "struct Guarded: LifecycleModule { static let priority: ModulePriority = .normal }\n"
        conditions += String(repeating: "#endif\n", count: depth)
        let guarded = scanEverything(conditions)
        #expect(guarded.map(\.name) == ["Guarded"])
        #expect(guarded.first?.conditions.count == depth)
    }

    @Test("A 512 KB line and a 2,000-declaration file are scanned whole")
    func hugeInput() {
        let longLine = "let x = [" + String(repeating: "1, ", count: 175_000) + "]\n"
        let module = "struct Late: LifecycleModule { static let priority: ModulePriority = .normal }"
        #expect(scanEverything(longLine + module).map(\.name) == ["Late"])

        var file = ""
        for index in 0..<2_000 {
            file += "struct M\(index): LifecycleModule { static let priority: ModulePriority = .normal }\n"
        }
        let found = scanEverything(file)
        #expect(found.count == 2_000)
        #expect(found.last?.name == "M1999")
    }

    @Test("Invalid UTF-8 decodes with replacement characters and scans like the valid text around it")
    func invalidUTF8() {
        var bytes = Array("struct Before: LifecycleModule { static let priority: ModulePriority = .normal }\n".utf8)
        // Invalid sequences: stray bytes, a truncated two-byte and three-byte sequence, a bad continuation.
        bytes += [0xFF, 0xFE, 0xC3, 0x41, 0xE2, 0x82, 0x0A, 0xF0, 0x90, 0x41]
        bytes += Array("\nstruct After: LifecycleModule { static let priority: ModulePriority = .normal }\n".utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(scanEverything(text).map(\.name) == ["Before", "After"])
    }

    @Test("A file the tool cannot read is a build error naming it; invalid UTF-8 is a warning naming it")
    func unreadableFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let module = "struct Good: LifecycleModule { static let priority: ModulePriority = .normal }\n"
        try Data(module.utf8).write(to: folder.appendingPathComponent("Good.swift"))
        let latin1 = Data("struct Caf".utf8) + Data([0xE9]) + Data(": LifecycleModule {}\n".utf8)
        try latin1.write(to: folder.appendingPathComponent("Latin1.swift"))
        let spec = ManifestSpec(module: "Fuzz", mode: .library, sources: [folder.path], dependencies: [])

        let output = try spec.generate(root: folder)
        #expect(output.modules.map(\.name).contains("Good"))
        let warning = try #require(output.diagnostics.first { $0.file.hasSuffix("Latin1.swift") })
        #expect(warning.severity == .warning)
        #expect(warning.line == 1)
        #expect(warning.message.hasPrefix("this file is not valid UTF-8"))

        // A source that vanishes between listing and reading (or cannot be opened): an error that names it.
        let (text, problem) = ManifestSpec.read(folder.appendingPathComponent("Missing.swift").path)
        #expect(text.isEmpty)
        #expect(problem?.severity == .error)
        #expect(problem?.file.hasSuffix("Missing.swift") == true)
        #expect(problem?.description.contains("Missing.swift:1: error: module discovery cannot read this file") == true)
    }
}
