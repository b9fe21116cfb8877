// How the module scanner's time grows with its input: ns per KB of source for inputs of 64 KB to 4 MB, of
// four shapes, min and median over rounds, and the ratio of the largest input's cost per KB to the
// smallest's. Linear means that ratio stays near 1. Docs/Discovery.md, "Bad input", has a run.
//
//     swift run -c release --package-path Benchmarks scanner-bench [--rounds R]

import Foundation
import ModuleScanner

/// One shape of input, made at a given size in bytes.
struct Shape {
    let name: String
    let make: (Int) -> [SourceFile]
}

/// A typical module file: nested types, an extension, `#if`, comments, strings and a closure body.
func typicalFile(_ index: Int) -> String {
    """
    // Module \(index): a cache in front of a pool.
    import LifecycleCore

    /// Warms the cache \(index).
    public struct Cache\(index): LifecycleModule, DependentModule {
        public static let priority: ModulePriority = .normal
        public static let dependencies: [any LifecycleModule.Type] = [Pool\(index).self]
        let label = "cache-\\(\(index))"
        struct Entry { var key: String; var value: [UInt8] }
        public init(context: LifecycleContext) {}
        func load(_ keys: [String]) -> [Entry] {
            keys.map { key in Entry(key: key, value: Array(key.utf8)) }  /* inline */
        }
    }

    #if os(Linux)
    extension Cache\(index): CustomStringConvertible {
        public var description: String { #"cache \(index) "raw""# }
    }
    #else
    extension Cache\(index) { enum Platform { case other } }
    #endif

    struct Pool\(index): LifecycleModule { static let priority: ModulePriority = .high }

    """
}

let shapes: [Shape] = [
    Shape(name: "typical files of ~1 KB") { size in
        var files: [SourceFile] = []
        var total = 0
        while total < size {
            let text = typicalFile(files.count)
            files.append(SourceFile(path: "/bench/File\(files.count).swift", text: text))
            total += text.utf8.count
        }
        return files
    },
    Shape(name: "one file of typical code") { size in
        var text = ""
        var index = 0
        while text.utf8.count < size {
            text += typicalFile(index)
            index += 1
        }
        return [SourceFile(path: "/bench/One.swift", text: text)]
    },
    Shape(name: "one line (an array literal)") { size in
        let element = "1_000, \"two\", 0x3, "
        let text = "let table = [" + String(repeating: element, count: size / element.utf8.count) + "]\n"
        return [SourceFile(path: "/bench/Line.swift", text: text)]
    },
    Shape(name: "types and #if nested 20 deep, repeated") { size in
        var text = ""
        var block = 0
        while text.utf8.count < size {
            for depth in 0..<20 { text += "#if FLAG\(depth)\nstruct T\(block)_\(depth): LifecycleModule {\n" }
            text += String(repeating: "}\n#endif\n", count: 20)
            block += 1
        }
        return [SourceFile(path: "/bench/Nested.swift", text: text)]
    },
]

/// Seconds to scan `files`, the best of `rounds`, and the modules found.
func bestTime(_ files: [SourceFile], rounds: Int) -> (seconds: Double, found: Int) {
    var best = Double.infinity
    var found = 0
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        let parsed = ParsedSources(files)
        found = ModuleScan.scan(parsed, modulePaths: files.map(\.path), contextPaths: []).modules.count
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        best = min(best, Double(seconds) + Double(attoseconds) / 1e18)
    }
    return (best, found)
}

/// Writes `line` to standard output at once, unbuffered, so a long run shows each row as it is measured.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var rounds = 9
/// `--depth N`: only the nesting row, at depth N (for a profiler).
var onlyDepth: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--rounds", let value = arguments.popFirst().flatMap(Int.init) { rounds = max(1, value) }
    if argument == "--depth", let value = arguments.popFirst().flatMap(Int.init) { onlyDepth = value }
}

let sizes = [64 << 10, 256 << 10, 1 << 20, 4 << 20]
emit("Scanner time per KB of source (min / median over \(rounds) rounds), release build")
emit("")
emit("| input | " + sizes.map { "\($0 >> 10) KB" }.joined(separator: " | ") + " | largest ÷ smallest (min) |")
emit("|---|" + String(repeating: "---:|", count: sizes.count + 1))
for shape in shapes where onlyDepth == nil {
    var cells: [String] = []
    var minima: [Double] = []
    for size in sizes {
        let files = shape.make(size)
        let kilobytes = Double(files.reduce(0) { $0 + $1.text.utf8.count }) / 1024
        var samples: [Double] = []
        var found = 0
        for _ in 0..<rounds {
            let (seconds, modules) = bestTime(files, rounds: 1)
            samples.append(seconds * 1e9 / kilobytes)
            found = modules
        }
        samples.sort()
        minima.append(samples[0])
        cells.append(String(format: "%.0f / %.0f", samples[0], samples[samples.count / 2]) + " (\(found))")
    }
    let ratio = String(format: "%.2f×", minima.last! / minima.first!)
    emit("| \(shape.name) | " + cells.joined(separator: " | ") + " | \(ratio) |")
}
emit("")
emit("Each cell: ns per KB, min / median; in parentheses, the modules found.")
emit("")
// Nesting itself: one type per level, each inside the last. Every declaration records the names of the
// types around it and the conditions over it, so the work grows with depth × declarations.
emit("| types nested N deep, each under its own #if | seconds (best of 3) | modules found |")
emit("|---|---:|---:|")
for depth in onlyDepth.map { [$0] } ?? [250, 500, 1_000, 2_000] {
    var text = ""
    for level in 0..<depth { text += "#if FLAG\(level)\nstruct T\(level): LifecycleModule {\n" }
    text += String(repeating: "}\n#endif\n", count: depth)
    let (seconds, found) = bestTime([SourceFile(path: "/bench/Deep.swift", text: text)], rounds: 3)
    emit("| \(depth) | " + String(format: "%.3f", seconds) + " | \(found) |")
}
