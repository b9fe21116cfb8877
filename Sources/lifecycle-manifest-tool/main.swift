// Generates a module manifest from a spec. Run by ModuleDiscoveryPlugin (build time) and
// WriteModuleManifest (checked-in mode); not meant to be run by hand.
//
//     lifecycle-manifest-tool --spec SPEC.json --output OUT.swift
//         [--summary S.json --interface I.json] [--framework-cache C.json [--shared-framework-cache D.json]...]
//         [--root DIR]
//
// Writes OUT.swift only when its content changes, so a no-change rebuild recompiles nothing. With
// --summary and --interface, also writes what the target's dependents read instead of its sources
// (`DiscoverySummary`: executables and tests read the summary, libraries the interface), again each only
// when it changes, so editing a file reruns a dependent's discovery only when what it reads changed. With
// --framework-cache, keeps the declarations of ModuleLifecycle's own libraries in that file between runs,
// and reads them from the other targets' such files given with --shared-framework-cache when it has none.
// Conformers that cannot be registered are printed as `file:line: warning: …`, which SwiftPM shows as
// build warnings. Route patterns the router would refuse are printed as `file:line: error: …`; then the
// tool writes nothing and exits with status 1, which stops the build.

import Foundation
import ModuleScanner

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: lifecycle-manifest-tool: \(message)\n".utf8))
    exit(1)
}

var arguments = CommandLine.arguments.dropFirst()
var options: [String: String] = [:]
var sharedFrameworkCaches: [URL] = []
while let flag = arguments.popFirst() {
    guard flag.hasPrefix("--"), let value = arguments.popFirst() else { fail("unexpected argument \(flag)") }
    if flag == "--shared-framework-cache" {
        sharedFrameworkCaches.append(URL(fileURLWithPath: value))
    } else {
        options[String(flag.dropFirst(2))] = value
    }
}
guard let specPath = options["spec"], let outputPath = options["output"] else {
    fail(
        "usage: lifecycle-manifest-tool --spec SPEC.json --output OUT.swift [--summary S.json --interface I.json] "
            + "[--framework-cache C.json [--shared-framework-cache D.json]...] [--root DIR]"
    )
}

let started = ContinuousClock.now
do {
    let spec = try JSONDecoder().decode(ManifestSpec.self, from: Data(contentsOf: URL(fileURLWithPath: specPath)))
    let root = URL(fileURLWithPath: options["root"] ?? FileManager.default.currentDirectoryPath)
    let output = try spec.generate(
        root: root,
        excluding: [URL(fileURLWithPath: outputPath).standardizedFileURL.path],
        frameworkCache: options["framework-cache"].map { URL(fileURLWithPath: $0) },
        sharedFrameworkCaches: sharedFrameworkCaches
    )
    for diagnostic in output.diagnostics {
        FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
    }
    if output.diagnostics.contains(where: { $0.severity == .error }) { exit(1) }
    let existing = try? String(contentsOfFile: outputPath, encoding: .utf8)
    if existing != output.text {
        try output.text.write(toFile: outputPath, atomically: true, encoding: .utf8)
    }
    for (option, summary) in [("summary", output.summary), ("interface", output.summary.interface)] {
        guard let path = options[option] else { continue }
        let data = try summary.encoded()
        if FileManager.default.contents(atPath: path) != data {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }
} catch {
    fail("\(error)")
}
// For Benchmarks/DiscoveryScale/run.sh: each run's own wall and CPU time in ms, as the build ran it, one line
// per run, appended in one write so that runs in parallel do not mix their lines.
if let times = ProcessInfo.processInfo.environment["LIFECYCLE_DISCOVERY_TIMES"] {
    let elapsed = started.duration(to: .now)
    let wall = Int(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
    let cpu = Int(Double(clock()) / Double(CLOCKS_PER_SEC) * 1e3)
    let line = Array("\(URL(fileURLWithPath: specPath).lastPathComponent) \(wall) \(cpu)\n".utf8)
    let descriptor = open(times, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    if descriptor >= 0 {
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}
