import Foundation
import Testing

/// Keeps the DocC tutorial "Build a modular server" honest against the package it builds,
/// `Examples/ModularServer`, which `Scripts/test-tutorial.sh` compiles, tests and runs:
///
/// - every `@Code` file the tutorial names exists in the catalog's `Resources`;
/// - a step's code whose name has an extension (`AccountsModule.swift`) is a file of the package, found by
///   that name; a name without one (`Terminal`) is a transcript, checked by nothing else;
/// - the last step that shows a file shows it byte for byte;
/// - each earlier step shows lines of that file, in its order (blank lines aside): a step may leave lines
///   out, to be added later, but never shows code the compiled package does not contain.
///
/// It reads files only: the root's `swift test` never builds the nested package.
@Suite("The tutorial against its package")
struct TutorialTests {
    static let catalog = SnippetTests.root.appendingPathComponent("Sources/LifecycleCore/LifecycleCore.docc")
    static let package = SnippetTests.root.appendingPathComponent("Examples/ModularServer")

    /// One `@Code(name:file:)` of the tutorial, in the order the tutorial shows them.
    struct CodeStep: CustomStringConvertible {
        let name: String
        let file: String
        var description: String { "\(file) (\(name))" }
    }

    /// The `@Code` directives of every `.tutorial` file of the catalog, in order.
    static func codeSteps() throws -> [CodeStep] {
        let folder = catalog.appendingPathComponent("Tutorials")
        let tutorials = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".tutorial") }.sorted()
        let directive = /@Code\(name: "([^"]+)", file: "([^"]+)"\)/
        var steps: [CodeStep] = []
        for tutorial in tutorials {
            let text = try String(contentsOf: folder.appendingPathComponent(tutorial), encoding: .utf8)
            for match in text.matches(of: directive) {
                steps.append(CodeStep(name: String(match.output.1), file: String(match.output.2)))
            }
        }
        return steps
    }

    /// The package's files by name, outside its build directory, with the paths of any that share a name.
    static func packageFiles() throws -> [String: [String]] {
        let paths = try #require(FileManager.default.enumerator(atPath: package.path))
        var files: [String: [String]] = [:]
        for case let path as String in paths where !path.hasPrefix(".") && !path.contains("/.") {
            var isDirectory: ObjCBool = false
            let full = package.appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            files[(path as NSString).lastPathComponent, default: []].append(path)
        }
        return files
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The lines of `text` that are not blank.
    static func codeLines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.allSatisfy(\.isWhitespace) }
    }

    /// The first line of `step` that is not in `final` after the lines before it, or `nil` when the step's
    /// lines are an ordered subsequence of the final file's.
    static func firstLineOutOfOrder(_ step: String, in final: String) -> String? {
        var remaining = codeLines(final)[...]
        for line in codeLines(step) {
            guard let index = remaining.firstIndex(of: line) else { return String(line) }
            remaining = remaining[(index + 1)...]
        }
        return nil
    }

    @Test("The tutorial shows code, and every file it names is in the catalog")
    func everyCodeFileExists() throws {
        let steps = try Self.codeSteps()
        #expect(steps.count > 30)
        let resources = Self.catalog.appendingPathComponent("Resources")
        let missing = steps.filter {
            !FileManager.default.fileExists(atPath: resources.appendingPathComponent($0.file).path)
        }
        #expect(missing.isEmpty, "named by the tutorial, absent from LifecycleCore.docc/Resources: \(missing)")
    }

    @Test("Each source file a step names is one file of Examples/ModularServer")
    func everyNamedFileIsInThePackage() throws {
        let files = try Self.packageFiles()
        for step in try Self.codeSteps() where step.name.contains(".") {
            #expect(files[step.name]?.count == 1, "\(step): the package has \(files[step.name] ?? []) by that name")
        }
    }

    @Test("The last step that shows a file shows the package's file, byte for byte")
    func lastStepsMatchThePackage() throws {
        let files = try Self.packageFiles()
        let resources = Self.catalog.appendingPathComponent("Resources")
        var last: [String: CodeStep] = [:]
        for step in try Self.codeSteps() where step.name.contains(".") { last[step.name] = step }
        #expect(last.count >= 20, "the package's files the tutorial shows: \(last.keys.sorted())")
        for (name, step) in last {
            let path = try #require(files[name]?.first, "\(step)")
            let shown = try Self.text(resources.appendingPathComponent(step.file))
            let compiled = try Self.text(Self.package.appendingPathComponent(path))
            #expect(
                shown == compiled,
                "\(step) is the tutorial's last step for \(path), and differs from it: copy the package's file over it"
            )
        }
        // Every source file of the package is shown: the tutorial builds the whole package.
        let sources = files.filter { $0.key.hasSuffix(".swift") }.keys
        #expect(Set(sources) == Set(last.keys), "not shown by the tutorial: \(Set(sources).subtracting(last.keys))")
    }

    @Test("Each earlier step shows lines of the package's file, in order")
    func earlierStepsAreSubsequences() throws {
        let files = try Self.packageFiles()
        let resources = Self.catalog.appendingPathComponent("Resources")
        for step in try Self.codeSteps() where step.name.contains(".") {
            let path = try #require(files[step.name]?.first, "\(step)")
            let shown = try Self.text(resources.appendingPathComponent(step.file))
            let compiled = try Self.text(Self.package.appendingPathComponent(path))
            let stray = Self.firstLineOutOfOrder(shown, in: compiled)
            #expect(stray == nil, "\(step) shows a line that \(path) does not have there: \(stray ?? "")")
        }
    }

    @Test("The subsequence check finds a changed, a reordered and an added line")
    func subsequenceCheckWorks() {
        let final = "a\n\nb\nc\n"
        #expect(Self.firstLineOutOfOrder("a\nc\n", in: final) == nil)
        #expect(Self.firstLineOutOfOrder("a\n\n\nb\n", in: final) == nil)
        #expect(Self.firstLineOutOfOrder("a\nB\n", in: final) == "B")
        #expect(Self.firstLineOutOfOrder("c\nb\n", in: final) == "b")
        #expect(Self.firstLineOutOfOrder("a\nb\nc\nd\n", in: final) == "d")
    }
}
