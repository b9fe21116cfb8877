import FuzzerEntry
import ModuleScanner

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The discovery summary format (`DiscoverySummary`), as a dependency's build command left it on disk: read
/// through the public path that reads it, `ManifestSpec.generate(root:)` with a dependency whose `summary`
/// names the file. The summary is written for module `Dep`; the corpus holds real summaries renamed so.
///
/// Oracle: generation never traps, whatever the file holds (a summary that cannot be used is replaced by a scan
/// of the dependency's sources); it returns or throws, and gives the same manifest and diagnostics twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    guard FileManager.default.createFile(atPath: Workspace.summary.path, contents: bytes) else {
        preconditionFailure("cannot write \(Workspace.summary.path)")
    }
    let spec = ManifestSpec(
        module: "App",
        mode: .aggregate,
        sources: ["App"],
        dependencies: [.init(module: "Dep", sources: ["Dep"], summary: Workspace.summary.path)]
    )
    let first = describe { try spec.generate(root: Workspace.root) }
    let second = describe { try spec.generate(root: Workspace.root) }
    precondition(first == second, "the same summary, two manifests:\n\(first)\n---\n\(second)")
    return 0
}

/// The manifest, modules and diagnostics a generation gave, or the error it threw.
private func describe(_ generate: () throws -> ManifestGenerator.Output) -> String {
    do {
        let output = try generate()
        return "\(output.text)\n\(output.modules)\n\(output.diagnostics)\n\(output.includedDependencies)"
    } catch {
        return "error: \(error)"
    }
}

/// A directory with the app's and the dependency's sources, and the summary file the fuzzer rewrites.
private enum Workspace {
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "DiscoverySummaryFuzzer-\(ProcessInfo.processInfo.processIdentifier)"
        )
        let files = [
            "App/App.swift": "import LifecycleCore\nimport Dep\n\nstruct AppModule: LifecycleModule {}\n",
            "Dep/Dep.swift": "import LifecycleCore\n\nstruct DepModule: LifecycleModule {}\nprotocol Feature {}\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            guard FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8)) else {
                preconditionFailure("cannot write \(url.path)")
            }
        }
        return root
    }()
    static var summary: URL { root.appendingPathComponent("Dep.discovery-summary.json") }
}

@_cdecl("DiscoverySummaryFuzzer_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzerRunDriver(argc, argv)
}
