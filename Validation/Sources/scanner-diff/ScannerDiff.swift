import Dispatch
import Foundation
import Synchronization

@_spi(Validation) import ModuleScanner

/// `scanner-diff [--json FILE] [--examples K] [--strict] DIRECTORY…`: compares what `ModuleScanner` reads in
/// every `.swift` file under the directories with what swift-syntax reads, and prints the agreement per fact
/// and examples of each disagreement. With `--strict`, exits with 1 when a disagreement is not explained by a
/// known limit (`KnownLimit.all`).
@main
struct ScannerDiff {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        var directories: [String] = []
        var jsonPath: String?
        var examples = 5
        var strict = false
        while let argument = arguments.popFirst() {
            switch argument {
            case "--json": jsonPath = arguments.popFirst()
            case "--examples": examples = arguments.popFirst().flatMap { Int($0) } ?? examples
            case "--strict": strict = true
            case "--dump":
                // Both readings of one file, for looking into a disagreement.
                guard let file = arguments.popFirst(), let data = FileManager.default.contents(atPath: file) else {
                    exit(2)
                }
                dump(file: file, text: String(decoding: data, as: UTF8.self))
                return
            case "-h", "--help":
                print("usage: scanner-diff [--json FILE] [--examples K] [--strict] DIRECTORY... | --dump FILE")
                return
            default: directories.append(argument)
            }
        }
        guard !directories.isEmpty else {
            print("usage: scanner-diff [--json FILE] [--examples K] [--strict] DIRECTORY... | --dump FILE")
            exit(2)
        }

        let start = ContinuousClock.now
        let files = directories.flatMap(swiftFiles(under:))
        let results = Mutex([FileComparison?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let data = FileManager.default.contents(atPath: files[index]) ?? Data()
            let comparison = FileComparison(file: files[index], text: String(decoding: data, as: UTF8.self))
            results.withLock { $0[index] = comparison }
        }
        var report = Report(results.withLock { $0.compactMap { $0 } }, examples: examples)
        let elapsed = ContinuousClock.now - start
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(report.text)
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
        }
        if strict, report.unexplained > 0 {
            print("FAIL: \(report.unexplained) disagreements no known limit explains (Docs/Discovery.md)")
            exit(1)
        }
    }

    private static func dump(file: String, text: String) {
        print("== scanner")
        for declaration in ScannedDeclaration.scan(text, file: file) { print(DeclarationFacts(declaration)) }
        print("== swift-syntax")
        for declaration in SyntaxReader.read(text, file: file).declarations { print(declaration) }
    }

    /// The `.swift` files under `directory`, sorted, so runs are deterministic.
    private static func swiftFiles(under directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append((directory as NSString).appendingPathComponent(path)) }
        }
        return files.sorted()
    }
}
